package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// A Filter selects results for History.
type Filter struct {
	// Pattern matches benchmark names: * is any text, ? one character;
	// without either it is the exact name. Empty matches every benchmark.
	Pattern string
	// Device keeps the devices it names in --device's grammar (package
	// devsel): platform:device (0:0), a name, vendor, platform or driver
	// text, a type (gpu) or all, joined with commas; "" keeps every device.
	// A part that names no stored device is an error that lists them.
	Device string
	// DeviceKey keeps one device by its key (results.DeviceInfo.SeriesKey,
	// "uuid:..."), or by its UUID or the UUID's first digits (at least 8)
	// given bare: one GPU's series across runs and drivers. "" keeps every
	// device.
	DeviceKey string
	// Since keeps runs that started at or after it (zero: all).
	Since time.Time
	// Labels keeps uploads that carry every one of these key=value labels.
	Labels map[string]string
}

// A Point is one run of a benchmark: its median and the median's 95%
// confidence interval.
type Point struct {
	// ResultID is the benchmark's row (Result), UploadID its file's.
	ResultID, UploadID int64
	// Created is when the run started.
	Created time.Time
	// Median per-launch time and its 95% CI; N samples; CV.
	Median, CILow, CIHigh time.Duration
	N                     int
	CV                    float64
	// Labels of the upload (commit, branch, and the user's).
	Labels map[string]string
	// Valid is false when the output failed validation, nil when unchecked.
	Valid *bool
}

// A Series is one benchmark (name and parameters) on one device (by its
// key: two identical GPUs are two series, one GPU under another index is
// one) and driver, in run order.
type Series struct {
	Benchmark string `json:"benchmark"`
	Params    string `json:"params"`
	Device    string `json:"device"`
	// DeviceKey is the device's key (results.DeviceInfo.SeriesKey).
	DeviceKey string `json:"device_key"`
	// Which tells the device from others of its name (results.ShortKey),
	// set only when another series of the same benchmark, parameters,
	// device name and driver has another key.
	Which string `json:"which,omitempty"`
	// Driver is the driver version; Platform the OpenCL platform.
	Driver   string  `json:"driver"`
	Platform string  `json:"platform"`
	Points   []Point `json:"points"`
}

// DeviceLabel names the series' device for people: its name, with Which
// in brackets when set ("NVIDIA H200 [uuid 1a2b3c4d]").
func (s *Series) DeviceLabel() string {
	if s.Which != "" {
		return s.Device + " [" + s.Which + "]"
	}
	return s.Device
}

// Key names the series in one line: "triad n=1024 @ Device (driver 1.2)".
func (s *Series) Key() string {
	k := s.Benchmark
	if s.Params != "" {
		k += " " + s.Params
	}
	return k + " @ " + s.DeviceLabel() + " (driver " + s.Driver + ")"
}

// Medians returns the points' medians in nanoseconds.
func (s *Series) Medians() []float64 {
	v := make([]float64, len(s.Points))
	for i, p := range s.Points {
		v[i] = float64(p.Median)
	}
	return v
}

// likePattern turns a glob into a LIKE pattern with \ as the escape.
func likePattern(glob string) string {
	var b strings.Builder
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteByte('%')
		case '?':
			b.WriteByte('_')
		case '%', '_', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// History returns the series of sampled results that f selects, ordered by
// benchmark, parameters, device and driver, each series in run order.
// Benchmarks that failed or have no samples are left out, and so are a
// fleet task's attempts that a later attempt replaced (a retried task
// counts once).
func (s *Store) History(ctx context.Context, f Filter) ([]Series, error) {
	if err := CheckPattern(f.Pattern); err != nil {
		return nil, err
	}
	where, args, err := s.historyWhere(ctx, f)
	if err != nil {
		return nil, s.explain(err)
	}
	all, uploads, err := s.historyRows(ctx, where, args)
	if err != nil {
		return nil, s.explain(err)
	}
	if err := s.uploadLabels(ctx, uploads); err != nil {
		return nil, s.explain(err)
	}
	return groupSeries(all, uploads), nil
}

// historyWhere returns the conditions on results r (and their arguments)
// that select what f asks for.
func (s *Store) historyWhere(ctx context.Context, f Filter) ([]string, []any, error) {
	where := []string{"r.ok = 1", notSuperseded}
	var args []any
	switch {
	case f.Pattern == "":
	case strings.ContainsAny(f.Pattern, "*?"):
		where = append(where, `r.name LIKE ? ESCAPE '\'`)
		args = append(args, likePattern(f.Pattern))
	default:
		where = append(where, "r.name = ?")
		args = append(args, f.Pattern)
	}
	if strings.TrimSpace(f.Device) != "" {
		pairs, err := s.devicePairs(ctx, f.Device)
		if err != nil {
			return nil, nil, err
		}
		var ors []string
		for _, p := range pairs {
			ors = append(ors, "(r.device_id = ? AND r.device_index = ?)")
			args = append(args, p.id, p.index)
		}
		where = append(where, "("+strings.Join(ors, " OR ")+")")
	}
	if k := strings.ToLower(strings.TrimSpace(f.DeviceKey)); k != "" {
		if strings.Contains(k, ":") {
			where = append(where, "r.device_key = ?")
			args = append(args, strings.TrimSpace(f.DeviceKey))
		} else {
			where = append(where, `r.device_key LIKE ? ESCAPE '\'`)
			args = append(args, likePattern("uuid:"+k)+"%")
		}
	}
	if !f.Since.IsZero() {
		where = append(where, "r.created_ns >= ?")
		args = append(args, f.Since.UnixNano())
	}
	keys := make([]string, 0, len(f.Labels))
	for k := range f.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		where = append(where, "EXISTS (SELECT 1 FROM labels l WHERE l.upload_id = r.upload_id AND l.key = ? AND l.value = ?)")
		args = append(args, k, f.Labels[k])
	}
	return where, args, nil
}

// A historyRow is one result of a history query with its series' key.
type historyRow struct {
	name, params, key string
	dev               deviceName
	p                 Point
}

// historyRows runs the history query and returns its rows, unsorted, and
// the uploads they came from (labels still to be looked up).
func (s *Store) historyRows(ctx context.Context, where []string, args []any) ([]historyRow, map[int64]map[string]string, error) {
	devices, err := s.deviceNames(ctx)
	if err != nil {
		return nil, nil, err
	}
	// One pass over the covering index; devices and labels are looked up
	// apart (a few rows each) and the sorting is done here: the query then
	// reads nothing but index entries.
	query := `SELECT r.id, r.upload_id, r.name, r.params, r.device_id, r.device_key, r.created_ns,
		r.median_ns, COALESCE(r.ci_low_ns, 0), COALESCE(r.ci_high_ns, 0), r.n, r.cv, r.valid
		FROM results r WHERE ` + strings.Join(where, " AND ")
	rows, err := s.db.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	var all []historyRow
	intern := map[string]string{}
	uploads := map[int64]map[string]string{}
	for rows.Next() {
		var (
			rw                   historyRow
			devID                int64
			created, med, lo, hi int64
			cv                   sql.NullFloat64
			valid                sql.NullInt64
		)
		if err := rows.Scan(&rw.p.ResultID, &rw.p.UploadID, &rw.name, &rw.params, &devID, &rw.key, &created,
			&med, &lo, &hi, &rw.p.N, &cv, &valid); err != nil {
			return nil, nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		for _, sp := range []*string{&rw.name, &rw.params, &rw.key} {
			if v, ok := intern[*sp]; ok {
				*sp = v
			} else {
				intern[*sp] = *sp
			}
		}
		rw.dev = devices[devID]
		p := &rw.p
		p.Created = time.Unix(0, created).UTC()
		p.Median, p.CILow, p.CIHigh, p.CV = time.Duration(med), time.Duration(lo), time.Duration(hi), cv.Float64
		if valid.Valid {
			v := valid.Int64 == 1
			p.Valid = &v
		}
		uploads[p.UploadID] = nil
		all = append(all, rw)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	return all, uploads, nil
}

// groupSeries sorts rows into series order (benchmark, parameters, device
// name, device key, driver, then run order) and groups them into series,
// labels attached.
func groupSeries(all []historyRow, uploads map[int64]map[string]string) []Series {
	sort.Slice(all, func(i, j int) bool {
		a, b := &all[i], &all[j]
		switch {
		case a.name != b.name:
			return a.name < b.name
		case a.params != b.params:
			return a.params < b.params
		case a.dev.name != b.dev.name:
			return a.dev.name < b.dev.name
		case a.key != b.key:
			return a.key < b.key
		case a.dev.driver != b.dev.driver:
			return a.dev.driver < b.dev.driver
		case a.p.Created != b.p.Created:
			return a.p.Created.Before(b.p.Created)
		}
		return a.p.ResultID < b.p.ResultID
	})
	out := []Series{}
	for i := range all {
		rw := &all[i]
		rw.p.Labels = uploads[rw.p.UploadID]
		n := len(out)
		if n == 0 || out[n-1].Benchmark != rw.name || out[n-1].Params != rw.params || out[n-1].Device != rw.dev.name ||
			out[n-1].DeviceKey != rw.key || out[n-1].Driver != rw.dev.driver {
			out = append(out, Series{Benchmark: rw.name, Params: rw.params, Device: rw.dev.name, DeviceKey: rw.key, Driver: rw.dev.driver, Platform: rw.dev.platform})
			n++
		}
		out[n-1].Points = append(out[n-1].Points, rw.p)
	}
	markTwins(out)
	return out
}

type deviceName struct{ name, driver, platform string }

// deviceNames maps device ids to their names, drivers and platforms.
func (s *Store) deviceNames(ctx context.Context) (map[int64]deviceName, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, name, driver_version, platform FROM devices")
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	out := map[int64]deviceName{}
	for rows.Next() {
		var id int64
		var d deviceName
		if err := rows.Scan(&id, &d.name, &d.driver, &d.platform); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		out[id] = d
	}
	return out, rows.Err()
}

// uploadLabels fills in the labels of the uploads whose ids are the map's
// keys, 500 at a time.
func (s *Store) uploadLabels(ctx context.Context, uploads map[int64]map[string]string) error {
	ids := make([]any, 0, len(uploads))
	for id := range uploads {
		ids = append(ids, id)
	}
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")
		rows, err := s.db.QueryContext(ctx, s.q("SELECT id, labels FROM uploads WHERE id IN ("+marks+")"), chunk...)
		if err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
		for rows.Next() {
			var id int64
			var text string
			if err := rows.Scan(&id, &text); err != nil {
				rows.Close()
				return fmt.Errorf("store %s: %w", s.where, err)
			}
			l := map[string]string{}
			json.Unmarshal([]byte(text), &l)
			uploads[id] = l
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// A Device is one device and driver as stored, with how many results it has.
type Device struct {
	ID                                                             int64
	Name, Vendor, Platform, PlatformVersion, Version, Driver, Type string
	ComputeUnits, MaxClockMHz                                      int
	// Results stored for it; First and Last run start.
	Results     int
	First, Last time.Time
	// Info is the full description as the result file gave it.
	Info results.DeviceInfo
}

// Label names the device and driver for people.
func (d *Device) Label() string { return d.Name + " (driver " + d.Driver + ")" }

// Devices lists every stored device and driver, by name then driver.
func (s *Store) Devices(ctx context.Context) ([]Device, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT d.id, d.name, d.vendor, d.platform, d.platform_version, d.version,
		d.driver_version, d.type, d.compute_units, d.max_clock_mhz, d.info, c.n, c.first, c.last
		FROM devices d JOIN (SELECT device_id, COUNT(*) AS n, MIN(created_ns) AS first, MAX(created_ns) AS last
			FROM results GROUP BY device_id) c ON c.device_id = d.id
		ORDER BY d.name, d.driver_version, d.id`)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	out := []Device{}
	for rows.Next() {
		var d Device
		var info string
		var first, last int64
		if err := rows.Scan(&d.ID, &d.Name, &d.Vendor, &d.Platform, &d.PlatformVersion, &d.Version, &d.Driver, &d.Type,
			&d.ComputeUnits, &d.MaxClockMHz, &info, &d.Results, &first, &last); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		json.Unmarshal([]byte(info), &d.Info)
		d.First, d.Last = time.Unix(0, first).UTC(), time.Unix(0, last).UTC()
		out = append(out, d)
	}
	return out, rows.Err()
}

// A BenchmarkSummary is one benchmark name with how much is stored of it.
type BenchmarkSummary struct {
	Name string
	// Results stored; Last run start.
	Results int
	Last    time.Time
}

// Benchmarks lists the names of the sampled benchmarks, sorted.
func (s *Store) Benchmarks(ctx context.Context) ([]BenchmarkSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, COUNT(*), MAX(created_ns) FROM results
		WHERE ok = 1 GROUP BY name ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	out := []BenchmarkSummary{}
	for rows.Next() {
		var b BenchmarkSummary
		var last int64
		if err := rows.Scan(&b.Name, &b.Results, &last); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		b.Last = time.Unix(0, last).UTC()
		out = append(out, b)
	}
	return out, rows.Err()
}

// An Upload is one stored result file's header.
type Upload struct {
	ID          int64
	Hash        string
	Source      string
	Created     time.Time
	Added       time.Time
	Tool        results.ToolInfo
	CommandLine []string
	Host        results.HostInfo
	Labels      map[string]string
	Benchmarks  int
}

// A Result is one stored benchmark with everything kept of it.
type Result struct {
	ID     int64
	Upload Upload
	Device Device
	// Benchmark as it was in the file, samples included.
	Benchmark results.Benchmark
}

// Result returns the stored benchmark with id, or an error naming it when
// there is none.
func (s *Store) Result(ctx context.Context, id int64) (*Result, error) {
	r := &Result{ID: id}
	var body, cmd, labels, info string
	var created, added int64
	u := &r.Upload
	d := &r.Device
	err := s.db.QueryRowContext(ctx, s.q(`SELECT b.body, u.id, u.hash, u.source, u.created_ns, u.added_ns, u.tool, u.tool_version,
		u.command_line, u.host_os, u.host_arch, u.host_cpu, u.host_cores, u.hostname, u.labels, u.benchmarks,
		d.id, d.name, d.vendor, d.platform, d.platform_version, d.version, d.driver_version, d.type, d.compute_units, d.max_clock_mhz, d.info
		FROM results r JOIN bodies b ON b.result_id = r.id JOIN uploads u ON u.id = r.upload_id JOIN devices d ON d.id = r.device_id
		WHERE r.id = ?`), id).Scan(
		&body, &u.ID, &u.Hash, &u.Source, &created, &added, &u.Tool.Name, &u.Tool.Version,
		&cmd, &u.Host.OS, &u.Host.Arch, &u.Host.CPU, &u.Host.Cores, &u.Host.Hostname, &labels, &u.Benchmarks,
		&d.ID, &d.Name, &d.Vendor, &d.Platform, &d.PlatformVersion, &d.Version, &d.Driver, &d.Type, &d.ComputeUnits, &d.MaxClockMHz, &info)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("no result %d in store %s", id, s.where)
	}
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	u.Created, u.Added = time.Unix(0, created).UTC(), time.Unix(0, added).UTC()
	json.Unmarshal([]byte(cmd), &u.CommandLine)
	u.CommandLine, u.Source = RedactCommand(u.CommandLine), RedactLocation(u.Source) // a store written before redaction
	u.Labels = map[string]string{}
	json.Unmarshal([]byte(labels), &u.Labels)
	json.Unmarshal([]byte(info), &d.Info)
	if err := json.Unmarshal([]byte(body), &r.Benchmark); err != nil {
		return nil, fmt.Errorf("store %s: result %d: %w", s.where, id, err)
	}
	if m := r.Benchmark.Measurement; m != nil {
		rows, err := s.db.QueryContext(ctx, s.q(`SELECT per_launch_ns, launches, host_ns, device_ns, device_busy_ns
			FROM samples WHERE result_id = ? ORDER BY idx`), id)
		if err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		defer rows.Close()
		m.Samples = []measure.Sample{}
		for rows.Next() {
			var sm measure.Sample
			var pl, h, dv, busy int64
			if err := rows.Scan(&pl, &sm.Launches, &h, &dv, &busy); err != nil {
				return nil, fmt.Errorf("store %s: %w", s.where, err)
			}
			sm.PerLaunch, sm.Host, sm.Device, sm.DeviceBusy = time.Duration(pl), time.Duration(h), time.Duration(dv), time.Duration(busy)
			m.Samples = append(m.Samples, sm)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return r, nil
}
