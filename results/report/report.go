package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/units"
)

// A Report is what the renderers show of one or many result files: every
// benchmark, grouped by name, parameters, device and host, with a geomean row
// per device.
type Report struct {
	// Sources are the files, in the order given.
	Sources []results.Source
	// Rows are the sampled benchmarks, sorted by name, then parameters (numbers
	// by value: size=2Mi before size=16Mi), device, host and file order.
	Rows []Row
	// Geomeans has one entry per device (and host) with at least one row.
	Geomeans []Geomean
	// Figures are the single values of every benchmark that has them, in Rows'
	// order of benchmarks (a suite's peaks, a cache experiment's timings).
	Figures []FigureRow
	// Failed are the benchmarks that carry an Error.
	Failed []Row
	// MultiHost is true when the files come from more than one host; renderers
	// then show the host beside the device.
	MultiHost bool
	// NodeView, when the caller sets it, is the benchmarks of several
	// devices side by side (package peers); the HTML report shows it as a
	// table, the other formats leave it to the caller.
	NodeView *peers.View
	// names labels the devices: two of one name by their keys.
	names deviceNames
}

// A Row is one benchmark of one file.
type Row struct {
	// Source is the file's path, Host the hostname it was measured on.
	Source string
	Host   string
	// Where tells rows of one device apart: the host when the report spans
	// several hosts, else the file when it has several files, else "".
	Where string
	// Bench is the benchmark; Measurement is non-nil for a row of Report.Rows.
	Bench *results.Benchmark
	// Key names the benchmark and its device: by name, and, when another
	// device of the report has that name and another key, by name and the
	// short form of its key ("NVIDIA H200 [uuid 1a2b3c4d]").
	Key results.Key
	// DeviceKey is the device's key (results.DeviceInfo.SeriesKey).
	DeviceKey string
}

// M returns the row's measurement (nil for a failed or figures-only benchmark).
func (r Row) M() *measure.Result { return r.Bench.Measurement }

// A Geomean summarises the rows of one device: the geometric mean of their
// median per-launch times and of their bandwidths (over the rows that have one).
type Geomean struct {
	// Device is the device's label (Row.Key.Device), DeviceKey its key.
	Device, DeviceKey, Host string
	// Where is as Row.Where.
	Where string
	// N is the number of rows; NBandwidth the number with a bandwidth.
	N, NBandwidth int
	Median        time.Duration
	// GBPerSecond is zero when no row has a bandwidth.
	GBPerSecond float64
}

// A FigureRow is one Figure of one benchmark.
type FigureRow struct {
	Source, Host, Where string
	// Key and DeviceKey are as Row's.
	Key       results.Key
	DeviceKey string
	Kind      string
	// Identity is the benchmark's (nil when it has none).
	Identity *results.Identity
	Figure   results.Figure
}

// New builds the Report of srcs.
func New(srcs []results.Source) *Report {
	r := &Report{Sources: srcs, Rows: []Row{}, Geomeans: []Geomean{}, Figures: []FigureRow{}, Failed: []Row{}}
	hosts := map[string]bool{}
	for _, s := range srcs {
		hosts[s.File.Host.Hostname] = true
	}
	r.MultiHost = len(hosts) > 1
	r.names = newDeviceNames(srcs)
	var all []Row
	for _, s := range srcs {
		where := ""
		switch {
		case r.MultiHost:
			where = s.File.Host.Hostname
			if where == "" {
				where = "?"
			}
		case len(srcs) > 1:
			where = s.Path
		}
		for i := range s.File.Benchmarks {
			b := &s.File.Benchmarks[i]
			all = append(all, Row{Source: s.Path, Host: s.File.Host.Hostname, Where: where, Bench: b, Key: r.names.key(b), DeviceKey: b.Device.SeriesKey()})
		}
	}
	slices.SortStableFunc(all, compareRows)
	for _, row := range all {
		b := row.Bench
		if b.Error != "" {
			r.Failed = append(r.Failed, row)
		} else if b.HasFigure() {
			r.Rows = append(r.Rows, row)
		}
		for _, f := range b.Figures {
			r.Figures = append(r.Figures, FigureRow{Source: row.Source, Host: row.Host, Where: row.Where, Key: row.Key, DeviceKey: row.DeviceKey, Kind: b.Kind, Identity: b.Identity, Figure: f})
		}
	}
	r.Geomeans = geomeans(r.Rows)
	return r
}

// compareRows orders rows by name, parameters, device and host.
func compareRows(a, b Row) int {
	if c := cmp.Compare(a.Key.Name, b.Key.Name); c != 0 {
		return c
	}
	if c := CompareParams(a.Bench.OrderedParams(), b.Bench.OrderedParams()); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Key.Device, b.Key.Device); c != 0 {
		return c
	}
	return cmp.Compare(a.Where, b.Where)
}

// compareParams compares parameter lists pairwise; values that are both
// quantities (see ParseQuantity) compare by value.
// CompareParams orders two parameter lists: by name, then by value, numbers
// by their value (size=2Mi before size=16Mi), then by length.
func CompareParams(a, b []results.Param) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := cmp.Compare(a[i].Name, b[i].Name); c != 0 {
			return c
		}
		x, xok := ParseQuantity(a[i].Value)
		y, yok := ParseQuantity(b[i].Value)
		if xok && yok {
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// ParseQuantity reads a parameter value as a number: "1024", "0.5", "4K",
// "16Mi", "2G", "1Gi" (K, M, G, T are powers of 1000, Ki, Mi, Gi, Ti of 1024;
// a trailing "B" is allowed: "64KiB"). ok is false for anything else.
func ParseQuantity(s string) (v float64, ok bool) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(t, "B")
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40},
		{"K", 1e3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSuffix(t, u.suffix), u.m
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f * mult, true
}

func geomeans(rows []Row) []Geomean {
	type acc struct {
		g             Geomean
		logT, logBW   float64
		nT            int
		firstRowIndex int
	}
	byDev := map[[2]string]*acc{}
	var order [][2]string
	for i, row := range rows {
		k := [2]string{row.Key.Device, row.Where}
		a := byDev[k]
		if a == nil {
			a = &acc{g: Geomean{Device: row.Key.Device, DeviceKey: row.DeviceKey, Host: row.Host, Where: row.Where}, firstRowIndex: i}
			byDev[k] = a
			order = append(order, k)
		}
		m := row.M()
		if m.Summary.Median > 0 {
			a.logT += math.Log(float64(m.Summary.Median))
			a.nT++
		}
		if t := m.Throughput; t != nil && t.GBPerSecond > 0 {
			a.logBW += math.Log(t.GBPerSecond)
			a.g.NBandwidth++
		}
	}
	out := []Geomean{}
	slices.SortFunc(order, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	for _, k := range order {
		a := byDev[k]
		a.g.N = a.nT
		if a.nT > 0 {
			a.g.Median = time.Duration(math.Round(math.Exp(a.logT / float64(a.nT))))
		}
		if a.g.NBandwidth > 0 {
			a.g.GBPerSecond = math.Exp(a.logBW / float64(a.g.NBandwidth))
		}
		out = append(out, a.g)
	}
	return out
}

// FormatDuration writes d with four significant digits in the largest unit
// that keeps it at least 1: "987 ns", "12.35 µs", "1.234 ms", "2.500 s"; a zero
// (a timer that gave nothing) is "-".
func FormatDuration(d time.Duration) string {
	return formatNS(float64(d))
}

// formatNS is units.Nanoseconds, but a zero is "-": a figure of 0 is never
// printed as a time.
func formatNS(ns float64) string {
	if ns == 0 {
		return "-"
	}
	return units.Nanoseconds(ns)
}

// formatRate writes a rate given in G<unit>/s with an SI prefix ("12.3 GB/s",
// "845 MB/s"); "" when there is none.
func formatRate(g float64, unit string) string { return units.Rate(g, unit) }

// bandwidth and compute format a row's throughput ("" when it has none).
func bandwidth(m *measure.Result) string {
	if m.Throughput == nil {
		return ""
	}
	return formatRate(m.Throughput.GBPerSecond, "B")
}

func compute(m *measure.Result) string {
	t := m.Throughput
	if t == nil || t.GOpsPerSecond <= 0 {
		return ""
	}
	u := t.OpsUnit
	if u == "" {
		u = "op"
	}
	return formatRate(t.GOpsPerSecond, u)
}

// ciText writes the half-width of the interval of the median as a percentage.
func ciText(s measure.Summary) string {
	if s.N == 0 || s.Median <= 0 || !s.HasCI() {
		return "-" // the warnings say which level needs how many samples
	}
	t := "±" + units.Percent(s.Noise)
	if math.Abs(s.CILevel-0.95) > 1e-9 {
		t += " (" + measure.LevelText(s.CILevel) + ")"
	}
	return t
}

// deviceText is the device column: the device, then "@" and where (see
// Row.Where) when that is set.
func (r *Report) deviceText(device, where string) string {
	if where != "" {
		return device + " @" + where
	}
	return device
}

// Formats are the text formats Write renders.
var Formats = []string{"table", "markdown", "csv", "json", "benchfmt"}
