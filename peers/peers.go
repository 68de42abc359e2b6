// Package peers lays the benchmarks of several devices side by side, one
// row per benchmark and one column per device, and finds the slow device:
// the one whose figure is worse than the median of its peers, the other
// devices of its model, by more than a tolerance, with its confidence
// interval excluding that median. It renders the view as a table fitted to
// the terminal, JSON and markdown. The suite's node view (several devices
// of one machine) and the fleet's (machines side by side) are this view.
//
// # The outlier rule, and why not DCGM's
//
// A device d is flagged on a benchmark when, among the devices of its model
// (the same Name; different models are never compared) that have a figure
// for that benchmark:
//
//   - its figure is worse than the median of its peers' figures (the other
//     devices of its model, d left out) by more than the tolerance: below
//     (1 - tolerance) x median for a throughput, where higher is better;
//     above (1 + tolerance) x median for a time, where lower is better;
//   - and its confidence interval of the median (measure.Summary's CI95Low
//     and CI95High, carried over to the figure) lies wholly on the worse
//     side of that median: the gap is not the benchmark's own noise.
//
// A model with one device has no peers and nothing is flagged on it; the
// view says so. With two devices of a model each has one peer, and the
// rule can only say which of the two is slower; from three on the median
// of the peers is not moved by the slow device itself.
//
// NVIDIA's DCGM diagnostics flag a GPU below (1 - tolerance) x the mean of
// all GPUs, with a tolerance that defaults to 0, which switches the check
// off. The mean of all is pulled toward the slow GPU (one of two at half
// speed is only 33% below the mean of both), mixes models when a node has
// two, and ignores noise, so a tolerance small enough to catch a real
// loss flags noise. The median of the peers of the same model is not moved
// by one slow device, and the confidence interval keeps noise out of it,
// so the tolerance can stay small. It is never 0 (CheckTolerance refuses
// it): 0 would flag any device outside its noise, however little slower.
package peers

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// DefaultTolerance is the tolerance of the outlier rule: 5%.
const DefaultTolerance = 0.05

// CheckTolerance refuses a tolerance the outlier rule cannot use: 0 or
// below, 1 (100%) or above, or not a number. The error names the fix.
func CheckTolerance(tol float64) error {
	switch {
	case math.IsNaN(tol) || math.IsInf(tol, 0):
		return fmt.Errorf("the outlier tolerance %v is not a number: give a percentage such as 5%% (the default) or a fraction such as 0.05", tol)
	case tol <= 0:
		return fmt.Errorf("the outlier tolerance must be above 0, got %g: 0 would flag every device outside its noise, however little slower; give a percentage such as 5%% (the default) or a fraction such as 0.05", tol)
	case tol >= 1:
		return fmt.Errorf("the outlier tolerance must be below 100%%, got %g (%.0f%%): no throughput is 100%% worse than another; give a percentage such as 5%% or a fraction such as 0.05", tol, 100*tol)
	}
	return nil
}

// A Device is one column of the view.
type Device struct {
	// Label is the column's short name: "d0", "d1" ... in the order the
	// devices first appear in the benchmarks (BuildColumns: its own).
	Label string `json:"label"`
	// Key tells the device apart from every other (results.DeviceInfo.Key,
	// else KeyOf's fallback, and then KeyFallback is set).
	Key         string `json:"key"`
	KeyFallback bool   `json:"key_fallback,omitempty"`
	// Model is the device's name: devices of one model are peers.
	Model string `json:"model"`
	// Info is the device as its first benchmark recorded it.
	Info results.DeviceInfo `json:"device"`
}

// A Cell is one device's figure for one benchmark.
type Cell struct {
	// Value is the figure in its Row's Unit; Low and High bound the
	// confidence interval of the median carried over to the figure (both 0
	// when there is none: too few samples).
	Value float64 `json:"value"`
	Low   float64 `json:"ci_low,omitempty"`
	High  float64 `json:"ci_high,omitempty"`
	// Peers is how many peers had a figure here, PeerMedian the median of
	// their figures and Worse how much worse than it this figure is, as a
	// fraction (negative: better); all 0 when there was no peer.
	Peers      int     `json:"peers,omitempty"`
	PeerMedian float64 `json:"peer_median,omitempty"`
	Worse      float64 `json:"worse,omitempty"`
	// Flagged is set when the outlier rule flags this figure.
	Flagged bool `json:"flagged,omitempty"`
	// Note says why there is no figure (failed, invalid) or why a figure
	// worse by more than the tolerance is not flagged (no interval).
	Note string `json:"note,omitempty"`
}

// usable reports whether c has a figure the rule may compare.
func (c *Cell) usable() bool { return c != nil && c.Value > 0 }

// A Row is one benchmark across the devices.
type Row struct {
	// Name and Params identify the benchmark (results.ParamString).
	Name   string `json:"name"`
	Params string `json:"params,omitempty"`
	// Unit is the figures' unit: a throughput in G<unit>/s ("GB/s",
	// "GFLOP/s", "Glaunch/s"), where higher is better, or a time in "ns",
	// where lower is better.
	Unit           string `json:"unit"`
	HigherIsBetter bool   `json:"higher_is_better"`
	// Cells holds one cell per device, in the order of View.Devices; nil
	// where the device has no such benchmark.
	Cells []*Cell `json:"cells"`
}

// An Outlier is one flagged figure.
type Outlier struct {
	// Device is the device's label, Key its key.
	Device string `json:"device"`
	Key    string `json:"key"`
	// Benchmark and Params name the row.
	Benchmark string `json:"benchmark"`
	Params    string `json:"params,omitempty"`
	// Worse is how much worse than the median of its Peers, as a fraction.
	Worse float64 `json:"worse"`
	Peers int     `json:"peers"`
}

// A View is the benchmarks of several devices side by side, judged by the
// outlier rule.
type View struct {
	// Tolerance is the rule's tolerance, a fraction.
	Tolerance float64   `json:"tolerance"`
	Devices   []Device  `json:"devices"`
	Rows      []Row     `json:"rows"`
	Outliers  []Outlier `json:"outliers"`
	// Notes say what the view could not judge and why: devices without
	// peers, devices told apart by a fallback key, records left out.
	Notes []string `json:"notes"`
}

// KeyOf is the key that tells d apart from other devices: d.Key, else one
// built from its host, platform, name and index, with fallback set (records
// from before the key, or from a driver that gives neither UUID nor PCI
// address). A fallback key changes with the index (CUDA_VISIBLE_DEVICES).
func KeyOf(d results.DeviceInfo) (key string, fallback bool) {
	if d.Key != "" {
		return d.Key, d.KeyFallback
	}
	return strings.Join([]string{d.Host, d.Platform, d.Name, d.Index}, "|"), true
}

// Keys counts the devices of bs told apart by KeyOf.
func Keys(bs []results.Benchmark) int {
	seen := map[string]bool{}
	for i := range bs {
		k, _ := KeyOf(bs[i].Device)
		seen[k] = true
	}
	return len(seen)
}

// Build lays bs out by benchmark and device and judges every figure by the
// outlier rule at tolerance tol (a fraction: 0.05 is 5%). A tolerance that
// CheckTolerance refuses is an error. A failed benchmark is a cell without
// a figure, with its error as its note; other records without samples (a
// suite's best-of rows and summaries, which repeat sampled figures) are
// left out and counted in a note.
func Build(bs []results.Benchmark, tol float64) (*View, error) {
	return BuildColumns(bs, tol, nil)
}

// BuildColumns is Build with the columns chosen by column: column(i) is
// the key of bs[i]'s column (the records of one key are one column, so two
// logical nodes of one host, whose devices share a key, can be two) and the
// column's label, used as the first record of the key gives it. With a nil
// column, or a key "", a column is a device key (KeyOf), labelled "d0",
// "d1" ... Devices are still peers by model, and a Device's Key stays its
// device's key.
func BuildColumns(bs []results.Benchmark, tol float64, column func(i int) (key, label string)) (*View, error) {
	rs := make([]Record, len(bs))
	for i := range bs {
		rs[i] = RecordOf(&bs[i])
	}
	return BuildRecords(rs, tol, column)
}

// A Record is what the outlier rule reads of one benchmark: its name and
// parameters, device, measured figures and error. A store's results rows
// hold it without the benchmark's body or samples.
type Record struct {
	Name, Params string
	Device       results.DeviceInfo
	// Measurement's Summary (N, Median, CI), Throughput and Valid are read;
	// nil for a record without a figure.
	Measurement *measure.Result
	Error       string
}

// RecordOf is b's record: Params is results.ParamString(b).
func RecordOf(b *results.Benchmark) Record {
	return Record{Name: b.Name, Params: results.ParamString(b), Device: b.Device, Measurement: b.Measurement, Error: b.Error}
}

// BuildRecords is BuildColumns over records.
func BuildRecords(bs []Record, tol float64, column func(i int) (key, label string)) (*View, error) {
	if err := CheckTolerance(tol); err != nil {
		return nil, err
	}
	v := &View{Tolerance: tol, Devices: []Device{}, Rows: []Row{}, Outliers: []Outlier{}, Notes: []string{}}
	devices := map[string]int{}
	type rowKey struct{ name, params string }
	rows := map[rowKey]int{}
	cells := map[[2]int]*Cell{}
	unsampled, dups := 0, 0
	for i := range bs {
		b := &bs[i]
		var col, label string
		if column != nil {
			col, label = column(i)
		}
		d := v.device(b.Device, devices, col, label)
		if b.Measurement == nil && b.Error == "" {
			unsampled++
			continue
		}
		k := rowKey{b.Name, b.Params}
		f := figureOf(b)
		r, ok := rows[k]
		if !ok {
			r = len(v.Rows)
			rows[k] = r
			v.Rows = append(v.Rows, Row{Name: k.name, Params: k.params})
		}
		if row := &v.Rows[r]; row.Unit == "" && f.unit != "" {
			row.Unit, row.HigherIsBetter = f.unit, f.higher
		}
		if cells[[2]int{r, d}] != nil {
			dups++
			continue
		}
		cells[[2]int{r, d}] = v.Rows[r].cell(f)
	}
	for r := range v.Rows {
		v.Rows[r].Cells = make([]*Cell, len(v.Devices))
		for d := range v.Devices {
			v.Rows[r].Cells[d] = cells[[2]int{r, d}]
		}
	}
	v.judge()
	v.addNotes(unsampled, dups)
	return v, nil
}

// device returns the index of the column of a record of device info in
// v.Devices, adding it: column col (else the device's key), labelled label
// (else "d" and its number).
func (v *View) device(info results.DeviceInfo, index map[string]int, col, label string) int {
	key, fallback := KeyOf(info)
	if col == "" {
		col = key
	}
	if d, ok := index[col]; ok {
		return d
	}
	if label == "" {
		label = fmt.Sprintf("d%d", len(v.Devices))
	}
	model := strings.TrimSpace(info.Name)
	if model == "" {
		model = results.DeviceLabel(info)
	}
	index[col] = len(v.Devices)
	v.Devices = append(v.Devices, Device{Label: label, Key: key, KeyFallback: fallback, Model: model, Info: info})
	return index[col]
}

// figure is one record's figure: its value and interval in unit, or why it
// has none.
type figure struct {
	value, low, high float64
	unit             string
	higher           bool
	why              string
}

// figureOf takes b's figure: its throughput (bytes, else operations a
// second at the median time), else the median time; the interval of the
// median time carried over (a throughput's bounds are the time's, swapped).
func figureOf(b *Record) figure {
	m := b.Measurement
	if m == nil { // failed before a sample (Build keeps no other)
		return figure{why: "failed: " + b.Error}
	}
	s := m.Summary
	f := figure{unit: "ns", value: float64(s.Median), low: float64(s.CI95Low), high: float64(s.CI95High)}
	if t := m.Throughput; t != nil && (t.GBPerSecond > 0 || t.GOpsPerSecond > 0) {
		f.higher = true
		f.unit, f.value = "GB/s", t.GBPerSecond
		if t.GBPerSecond <= 0 {
			f.unit, f.value = "G"+cmpOr(t.OpsUnit, "op")+"/s", t.GOpsPerSecond
		}
		f.low, f.high = 0, 0
		if s.CI95Low > 0 && s.CI95High > 0 && s.Median > 0 {
			f.low = f.value * float64(s.Median) / float64(s.CI95High)
			f.high = f.value * float64(s.Median) / float64(s.CI95Low)
		}
	}
	switch {
	case b.Error != "":
		f.why = "failed: " + b.Error
	case len(m.Samples) == 0 && m.Summary.N == 0:
		f.why = "no samples"
	case m.Valid != nil && !*m.Valid:
		f.why = "failed validation"
	case !(f.value > 0) || math.IsInf(f.value, 0):
		f.why = "no figure"
	}
	return f
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// cell is f as a cell of r: without a value when it has none, or when its
// unit is not the row's (the row's first record set it).
func (r *Row) cell(f figure) *Cell {
	switch {
	case f.why != "":
		return &Cell{Note: f.why}
	case f.unit != r.Unit || f.higher != r.HigherIsBetter:
		return &Cell{Note: fmt.Sprintf("its figure is in %s, the row's in %s", f.unit, r.Unit)}
	}
	return &Cell{Value: f.value, Low: f.low, High: f.high}
}

// models groups the devices by model, in the order of their first device.
func (v *View) models() [][]int {
	var order []string
	by := map[string][]int{}
	for d, dev := range v.Devices {
		if _, ok := by[dev.Model]; !ok {
			order = append(order, dev.Model)
		}
		by[dev.Model] = append(by[dev.Model], d)
	}
	out := make([][]int, len(order))
	for i, m := range order {
		out[i] = by[m]
	}
	return out
}

// judge applies the outlier rule to every cell of every row, model by
// model.
func (v *View) judge() {
	for _, model := range v.models() {
		if len(model) < 2 {
			continue
		}
		for r := range v.Rows {
			row := &v.Rows[r]
			for _, d := range model {
				if c := row.Cells[d]; c.usable() {
					v.judgeCell(row, c, d, model)
				}
			}
		}
	}
}

// judgeCell judges device d's cell c of row against the other devices of
// its model.
func (v *View) judgeCell(row *Row, c *Cell, d int, model []int) {
	var peers []float64
	for _, p := range model {
		if pc := row.Cells[p]; p != d && pc.usable() {
			peers = append(peers, pc.Value)
		}
	}
	if len(peers) == 0 {
		c.Note = "no peer of its model has this figure"
		return
	}
	med := median(peers)
	c.Peers, c.PeerMedian = len(peers), med
	if row.HigherIsBetter {
		c.Worse = 1 - c.Value/med
	} else {
		c.Worse = c.Value/med - 1
	}
	if c.Worse <= v.Tolerance {
		return
	}
	switch {
	case c.Low <= 0 || c.High <= 0:
		c.Note = "no confidence interval (too few samples): not judged"
		return
	case row.HigherIsBetter && c.High >= med, !row.HigherIsBetter && c.Low <= med:
		c.Note = "its confidence interval reaches the median of its peers: within its noise"
		return
	}
	c.Flagged = true
	v.Outliers = append(v.Outliers, Outlier{Device: v.Devices[d].Label, Key: v.Devices[d].Key, Benchmark: row.Name, Params: row.Params, Worse: c.Worse, Peers: c.Peers})
}

// median of xs (not empty); xs is sorted in place.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// Label names the row's benchmark: its name and parameters.
func (r *Row) Label() string {
	if r.Params == "" {
		return r.Name
	}
	return r.Name + " " + r.Params
}

// addNotes says what the view could not judge: models of one device,
// devices told apart by a fallback key, records left out.
func (v *View) addNotes(unsampled, dups int) {
	for _, model := range v.models() {
		if len(model) == 1 {
			d := v.Devices[model[0]]
			v.Notes = append(v.Notes, fmt.Sprintf("%s (%s) is the only device of its model: it has no peer to be compared with, so nothing is flagged on it", d.Label, d.Model))
		}
	}
	var fb []string
	for _, d := range v.Devices {
		if d.KeyFallback {
			fb = append(fb, d.Label)
		}
	}
	if len(fb) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s: no UUID or PCI address recorded: told apart by host, platform, name and index, and an index changes with CUDA_VISIBLE_DEVICES", strings.Join(fb, ", ")))
	}
	if unsampled > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d record(s) without samples (best-of rows, summaries) are not shown: the rule needs a sampled figure with its confidence interval", unsampled))
	}
	if dups > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d record(s) repeat a benchmark already seen on their device: the first is shown", dups))
	}
}

// ErrOutliers is what Err wraps: the view flagged at least one figure.
var ErrOutliers = errors.New("outliers found")

// Err is an error wrapping ErrOutliers that names the slow devices and
// benchmarks (Summary), nil when nothing is flagged.
func (v *View) Err() error {
	if len(v.Outliers) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrOutliers, v.Summary())
}
