package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/units"
)

// An Added says what Add did with one result file.
type Added struct {
	// UploadID is the upload's id in the store (the existing one when
	// Duplicate).
	UploadID int64
	// Hash is the SHA-256 of the file's canonical JSON, in hex.
	Hash string
	// Benchmarks is how many benchmarks the file holds.
	Benchmarks int
	// Duplicate is true when the same content was already stored: nothing
	// was written.
	Duplicate bool
	// Source names the file.
	Source string
	// Labels are the labels stored with it (given and detected).
	Labels map[string]string
}

var labelKey = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:/-]*$`)

// ParseLabels parses key=value labels (--label). A key is letters, digits and
// _ . : / -; the value is any text but empty that may be shown on a
// terminal as it is: valid UTF-8 without a NUL byte (CheckText: no store
// keeps them), and no control character, escape or bidirectional override
// (units.SafeText), so that no label a colleague stores can drive another's
// terminal. A key given twice is an error, not a silent choice of one value.
func ParseLabels(specs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, sp := range specs {
		k, v, ok := strings.Cut(sp, "=")
		k = strings.TrimSpace(k)
		if !ok || v == "" || !labelKey.MatchString(k) {
			return nil, fmt.Errorf("label %q: want key=value (key: letters, digits, _ . : / -), e.g. --label branch=main", sp)
		}
		if err := CheckText("its value", v); err != nil {
			return nil, fmt.Errorf("label %q: %w", sp, err)
		}
		if !units.SafeText(v) {
			return nil, fail.Usagef("label %q: the value holds a control character, an escape or a bidirectional override (or is not UTF-8): a label is plain text on one line, e.g. --label branch=main", sp)
		}
		if old, dup := out[k]; dup {
			return nil, fmt.Errorf("label %q: key %q is given twice (%s=%s first): give each key once", sp, k, k, old)
		}
		out[k] = v
	}
	return out, nil
}

// GitLabels returns the labels that describe the git checkout of dir (the
// current folder when empty): commit (the HEAD commit), branch (when on one)
// and dirty=true when tracked files have changes. It returns none outside a
// checkout or without git.
func GitLabels(ctx context.Context, dir string) map[string]string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	git := func(args ...string) (string, bool) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err == nil
	}
	out := map[string]string{}
	commit, ok := git("rev-parse", "HEAD")
	if !ok || len(commit) < 7 {
		return out
	}
	out["commit"] = commit
	if b, ok := git("rev-parse", "--abbrev-ref", "HEAD"); ok && b != "" && b != "HEAD" {
		out["branch"] = b
	}
	if st, ok := git("status", "--porcelain", "--untracked-files=no"); ok && st != "" {
		out["dirty"] = "true"
	}
	return out
}

// Hash returns the content hash of f: the SHA-256 of its canonical JSON
// (the same file read and written again hashes the same).
func Hash(f *results.File) (string, error) {
	data, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// Check returns why f cannot be stored, or nil: it must have benchmarks,
// each with a name, a sampled benchmark's summary must be sane, and its
// text must be what both back ends keep (checkFileText).
func Check(f *results.File, source string) error {
	if len(f.Benchmarks) == 0 {
		return fmt.Errorf("%s: no benchmarks to store: nothing was stored", source)
	}
	if err := results.CheckSamples(f, source); err != nil {
		return fmt.Errorf("%w: nothing was stored", err)
	}
	for i, b := range f.Benchmarks {
		if strings.TrimSpace(b.Name) == "" {
			return fmt.Errorf("%s: benchmark %d has no name: nothing was stored", source, i+1)
		}
		if m := b.Measurement; m != nil {
			if m.Summary.Median < 0 || m.Summary.CI95Low > m.Summary.CI95High || m.Summary.N != len(m.Samples) && len(m.Samples) > 0 {
				return fmt.Errorf("%s: benchmark %d (%s): inconsistent summary (median %d ns, CI [%d, %d], %d samples for n=%d): nothing was stored",
					source, i+1, units.Escape(b.Name), m.Summary.Median, m.Summary.CI95Low, m.Summary.CI95High, len(m.Samples), m.Summary.N)
			}
		}
	}
	if err := checkFileText(f, source); err != nil {
		return fmt.Errorf("%w: nothing was stored", err)
	}
	return nil
}

// afterResult, when set (tests), runs after each benchmark is written; an
// error from it aborts the upload.
var afterResult func(i int) error

// Add stores f under source (a file name, or what produced it) with labels,
// in one transaction. The same content stored before is a no-op (Duplicate).
func (s *Store) Add(ctx context.Context, f *results.File, source string, labels map[string]string) (Added, error) {
	if s.readOnly {
		return Added{}, fmt.Errorf("store %s is open read-only", s.where)
	}
	if err := Check(f, source); err != nil {
		return Added{}, err
	}
	labels = fleetLabels(f, labels)
	for k, v := range labels {
		if err := CheckText("the label", k+"="+v); err != nil {
			return Added{}, err
		}
	}
	hash, err := Hash(f)
	if err != nil {
		return Added{}, fmt.Errorf("%s: %w", source, err)
	}
	if labels == nil {
		labels = map[string]string{}
	}
	a := Added{Hash: hash, Benchmarks: len(f.Benchmarks), Source: RedactLocation(source), Labels: labels}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return a, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer tx.Rollback()
	if err := s.insertUpload(ctx, tx, f, &a); err != nil {
		return a, fmt.Errorf("store %s: %w", s.where, err)
	}
	if a.Duplicate {
		tx.Rollback()
		if err := s.db.QueryRowContext(ctx, s.q("SELECT id FROM uploads WHERE hash = ?"), hash).Scan(&a.UploadID); err != nil {
			return a, fmt.Errorf("store %s: %w", s.where, err)
		}
		return a, nil
	}
	if err := s.insertResults(ctx, tx, f, a.UploadID, source); err != nil {
		return a, err
	}
	if err := s.insertFleet(ctx, tx, f, a.UploadID); err != nil {
		return a, err
	}
	if err := tx.Commit(); err != nil {
		return a, fmt.Errorf("store %s: %w", s.where, err)
	}
	return a, nil
}

// insertUpload inserts a's upload row of f and its labels and sets
// a.UploadID; an upload of the same hash stored before sets a.Duplicate
// instead (and inserts nothing).
func (s *Store) insertUpload(ctx context.Context, tx *sql.Tx, f *results.File, a *Added) error {
	cmdLine, _ := json.Marshal(nonNil(RedactCommand(f.CommandLine)))
	labelJSON, _ := json.Marshal(a.Labels)
	err := tx.QueryRowContext(ctx, s.q(`INSERT INTO uploads (hash, source, created_ns, added_ns, tool, tool_version,
		command_line, host_os, host_arch, host_cpu, host_cores, hostname, labels, benchmarks)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING RETURNING id`),
		a.Hash, a.Source, f.Created.UnixNano(), time.Now().UnixNano(), f.Tool.Name, f.Tool.Version, string(cmdLine),
		f.Host.OS, f.Host.Arch, f.Host.CPU, f.Host.Cores, f.Host.Hostname, string(labelJSON), len(f.Benchmarks)).Scan(&a.UploadID)
	if errors.Is(err, sql.ErrNoRows) {
		a.Duplicate = true
		return nil
	}
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(a.Labels))
	for k := range a.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO labels (upload_id, key, value) VALUES (?, ?, ?)"), a.UploadID, k, a.Labels[k]); err != nil {
			return err
		}
	}
	return nil
}

// insertResults inserts every benchmark of f (its device, result row, body
// and samples) into upload.
func (s *Store) insertResults(ctx context.Context, tx *sql.Tx, f *results.File, upload int64, source string) error {
	devices := map[string]int64{}
	insResult, err := tx.PrepareContext(ctx, s.q(`INSERT INTO results (upload_id, seq, name, kind, params, device_id, device_index,
		created_ns, timer, n, median_ns, ci_low_ns, ci_high_ns, min_ns, mean_ns, cv, gb_per_s, gops_per_s, ops_unit, valid, error, ok, device_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`))
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	defer insResult.Close()
	insBody, err := tx.PrepareContext(ctx, s.q("INSERT INTO bodies (result_id, body) VALUES (?, ?)"))
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	defer insBody.Close()
	sw := &sampleWriter{s: s, tx: tx}
	defer sw.close()
	created := f.Created.UnixNano()
	for i := range f.Benchmarks {
		b := &f.Benchmarks[i]
		devID, err := s.deviceID(ctx, tx, b.Device, devices)
		if err != nil {
			return err
		}
		if err := s.addResult(ctx, sw, insResult, insBody, upload, i, created, devID, seriesKey(b.Device, f.Host.Hostname), b); err != nil {
			return fmt.Errorf("%s: benchmark %d (%s): %w", source, i+1, units.Escape(b.Name), err)
		}
		if afterResult != nil {
			if err := afterResult(i); err != nil {
				return err
			}
		}
	}
	if err := sw.flush(ctx); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}

// A sampleWriter writes samples in multi-row INSERTs of sampleBatch rows
// through one prepared statement, across benchmarks: a 1,000-benchmark
// file of 20 samples each takes 40 statements, not 20,000.
type sampleWriter struct {
	s    *Store
	tx   *sql.Tx
	full *sql.Stmt
	args []any
}

func (w *sampleWriter) add(ctx context.Context, result int64, idx int, sm measure.Sample) error {
	w.args = append(w.args, result, idx, int64(sm.PerLaunch), sm.Launches, int64(sm.Host), int64(sm.Device), int64(sm.DeviceBusy))
	if len(w.args) < 7*sampleBatch {
		return nil
	}
	if w.full == nil {
		st, err := w.tx.PrepareContext(ctx, w.s.q(samplesInsert(sampleBatch)))
		if err != nil {
			return err
		}
		w.full = st
	}
	_, err := w.full.ExecContext(ctx, w.args...)
	w.args = w.args[:0]
	return err
}

// flush writes the samples still held.
func (w *sampleWriter) flush(ctx context.Context) error {
	if len(w.args) == 0 {
		return nil
	}
	_, err := w.tx.ExecContext(ctx, w.s.q(samplesInsert(len(w.args)/7)), w.args...)
	w.args = w.args[:0]
	return err
}

func (w *sampleWriter) close() {
	if w.full != nil {
		w.full.Close()
	}
}

func samplesInsert(rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO samples (result_id, idx, per_launch_ns, launches, host_ns, device_ns, device_busy_ns) VALUES ")
	for j := range rows {
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?)")
	}
	return b.String()
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// deviceID returns the id of the devices row describing d, adding it if new.
func (s *Store) deviceID(ctx context.Context, tx *sql.Tx, d results.DeviceInfo, seen map[string]int64) (int64, error) {
	d.Index = "" // where it sat in one run's enumeration, not what it is
	info, _ := json.Marshal(d)
	sum := sha256.Sum256(info)
	hash := hex.EncodeToString(sum[:])
	if id, ok := seen[hash]; ok {
		return id, nil
	}
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO devices (hash, name, vendor, platform, platform_version, version,
		driver_version, type, compute_units, max_clock_mhz, info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (hash) DO NOTHING`),
		hash, d.Name, d.Vendor, d.Platform, d.PlatformVersion, d.Version, d.DriverVersion, d.Type, d.ComputeUnits, d.MaxClockMHz, string(info))
	if err != nil {
		return 0, fmt.Errorf("store %s: %w", s.where, err)
	}
	var id int64
	if err := tx.QueryRowContext(ctx, s.q("SELECT id FROM devices WHERE hash = ?"), hash).Scan(&id); err != nil {
		return 0, fmt.Errorf("store %s: %w", s.where, err)
	}
	seen[hash] = id
	return id, nil
}

// sampleBatch is the most samples written by one INSERT (7 values each; both
// databases take well over 7*500 parameters).
const sampleBatch = 500

func (s *Store) addResult(ctx context.Context, sw *sampleWriter, ins, insBody *sql.Stmt, upload int64, seq int, created, devID int64, devKey string, b *results.Benchmark) error {
	body := *b
	var samples []measure.Sample
	var (
		timer                       string
		n                           int
		median, lo, hi, minNS, mean sql.NullInt64
		cv, gbs, gops               sql.NullFloat64
		opsUnit                     string
		valid                       sql.NullInt64
	)
	if m := b.Measurement; m != nil {
		if b.HasFigure() {
			samples = m.Samples
		}
		mc := *m
		mc.Samples = []measure.Sample{}
		body.Measurement = &mc
		sm := m.Summary
		timer, n = string(m.Timer), sm.N
		// A failed or interrupted benchmark carries no figure (an older file
		// may still hold one): its row is stored, not ok, with no median or
		// rates.
		if !b.HasFigure() {
			n, sm = 0, measure.Summary{}
		}
		if sm.N > 0 {
			median = sql.NullInt64{Int64: int64(sm.Median), Valid: true}
			lo = sql.NullInt64{Int64: int64(sm.CI95Low), Valid: sm.HasCI()}
			hi = sql.NullInt64{Int64: int64(sm.CI95High), Valid: sm.HasCI()}
			minNS = sql.NullInt64{Int64: int64(sm.Min), Valid: true}
			mean = sql.NullInt64{Int64: int64(sm.Mean), Valid: true}
			cv = sql.NullFloat64{Float64: sm.CV, Valid: true}
		}
		if t := m.Throughput; t != nil && b.HasFigure() {
			gbs = sql.NullFloat64{Float64: t.GBPerSecond, Valid: t.BytesPerLaunch > 0}
			gops = sql.NullFloat64{Float64: t.GOpsPerSecond, Valid: t.OpsPerLaunch > 0}
			opsUnit = t.OpsUnit
		}
		if m.Valid != nil {
			valid = sql.NullInt64{Valid: true}
			if *m.Valid {
				valid.Int64 = 1
			}
		}
	}
	bodyJSON, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ok := 0
	if median.Valid && b.Error == "" {
		ok = 1
	}
	var id int64
	err = ins.QueryRowContext(ctx, upload, seq, b.Name, b.Kind, results.ParamString(b), devID, b.Device.Index,
		created, timer, n, median, lo, hi, minNS, mean, cv, gbs, gops, opsUnit, valid, b.Error, ok, devKey).Scan(&id)
	if err != nil {
		return err
	}
	if _, err := insBody.ExecContext(ctx, id, string(bodyJSON)); err != nil {
		return err
	}
	for j, sm := range samples {
		if err := sw.add(ctx, id, j, sm); err != nil {
			return err
		}
	}
	return nil
}

// CheckPaths reads every result file and checks it can be stored (Check),
// returning the first problem as a fail.Usage error; 'store add' calls it
// before the store is opened, so that a bad file leaves no store behind.
func CheckPaths(paths []string) error {
	_, err := readPaths(paths)
	return err
}

func readPaths(paths []string) ([]*results.File, error) {
	files := make([]*results.File, len(paths))
	for i, p := range paths {
		f, err := results.Read(p)
		if err != nil {
			return nil, fail.With(fail.Usage, fmt.Errorf("%v: nothing was stored", err))
		}
		if err := Check(f, p); err != nil {
			return nil, fail.With(fail.Usage, err)
		}
		files[i] = f
	}
	return files, nil
}

// AddPaths reads every result file, refusing all of them (and storing none)
// when any cannot be read or stored, then adds each in its own transaction.
// Git labels of the current folder (GitLabels) are added where labels does
// not set them.
func (s *Store) AddPaths(ctx context.Context, paths []string, labels map[string]string) ([]Added, error) {
	files, err := readPaths(paths)
	if err != nil {
		return nil, err
	}
	all := WithGit(ctx, labels)
	var out []Added
	for i, f := range files {
		a, err := s.Add(ctx, f, paths[i], all)
		if err != nil {
			return out, err
		}
		out = append(out, a)
	}
	return out, nil
}

// WithGit returns labels plus the git labels of the current folder that
// labels does not already set.
func WithGit(ctx context.Context, labels map[string]string) map[string]string {
	all := map[string]string{}
	for k, v := range GitLabels(ctx, "") {
		all[k] = v
	}
	for k, v := range labels {
		all[k] = v
	}
	return all
}

// AddResultFile opens the store at location (creating the default SQLite file
// if need be), adds f under source with labels and the current folder's git
// labels, and closes it. It is what run, suite and compare call for --store.
// A server that does not answer, or that goes away during the upload, gives
// an error that errors.Is finds ErrUnreachable in (nothing was stored: the
// upload is one transaction).
func AddResultFile(ctx context.Context, location string, f *results.File, source string, labels map[string]string) (Added, error) {
	st, err := Open(ctx, location, Options{Create: true})
	if err != nil {
		return Added{}, err
	}
	defer st.Close()
	a, err := st.Add(ctx, f, source, WithGit(ctx, labels))
	return a, markUnreachable(err)
}
