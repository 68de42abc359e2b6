package compare

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// DefaultAlpha is the significance level of Files' verdicts.
const DefaultAlpha = 0.05

// Options control Files. The zero value means the defaults.
type Options struct {
	// Alpha is the significance level (default DefaultAlpha): a pair whose
	// Mann-Whitney p-value is below it is faster or slower, otherwise it shows no
	// difference.
	Alpha float64
	// IgnoreDevice matches benchmarks by name and parameters only (to compare
	// two devices).
	IgnoreDevice bool
	// IgnoreName matches benchmarks by parameters (and device) only, to compare
	// two kernels run over the same sizes (naive against tiled).
	IgnoreName bool
}

// Verdict is the conclusion about one pair.
type Verdict string

// Verdicts.
const (
	Faster       Verdict = "faster"
	Slower       Verdict = "slower"
	NoDifference Verdict = "~"
)

// A Pair is one benchmark found in both the old and the new files.
type Pair struct {
	Key results.Key
	// Old and New are the per-launch times of every sample with the Key, pooled
	// over the files of each side, in nanoseconds.
	Old, New []float64
	// OldMedian and NewMedian are the medians of Old and New.
	OldMedian, NewMedian time.Duration
	// Ratio is NewMedian / OldMedian: below 1 is faster.
	Ratio float64
	// RatioLow and RatioHigh bound the ratio with (1-Alpha) confidence: the
	// percentile bootstrap interval of the ratio of medians (BootstrapResamples
	// resamples of each side with replacement, seeded from the data so that the
	// same samples give the same interval). It assumes only independent samples;
	// with few samples (under about 10 a side) it is too narrow, and Warnings says so.
	RatioLow, RatioHigh float64
	// P is the two-sided Mann-Whitney U test p-value (golang.org/x/perf/benchmath:
	// exact for small samples without ties, normal approximation otherwise).
	P float64
	// Verdict is Faster or Slower when P < Alpha, else NoDifference.
	Verdict Verdict
	// Warnings from the test (too few samples to detect a difference ...).
	Warnings []string
}

// A Comparison is the outcome of Files (or New).
type Comparison struct {
	Alpha float64
	Pairs []Pair
	// Geomean is the geometric mean of the pairs' ratios (0 without pairs).
	Geomean float64
	// OnlyOld and OnlyNew are the benchmarks found on one side only; NotSampled
	// those found without samples (figures only, failed).
	OnlyOld, OnlyNew, NotSampled []results.Key
}

// Files matches the sampled benchmarks of old and new by name, parameters and
// device (see Options.IgnoreDevice), pooling the samples of the same
// benchmark within a side, and compares each pair. A device is matched by
// its name while one side holds one device of that name: a file from one
// machine compares with a file from another, and an older file (no device
// key) with a newer one. Where a side holds several devices of one name
// (two identical GPUs), they are matched by device key
// (results.DeviceInfo.SeriesKey), each GPU with itself, whatever its index.
func Files(old, new []results.Source, opts Options) *Comparison {
	if opts.Alpha <= 0 || opts.Alpha >= 1 {
		opts.Alpha = DefaultAlpha
	}
	c := &Comparison{Alpha: opts.Alpha, Pairs: []Pair{}, OnlyOld: []results.Key{}, OnlyNew: []results.Key{}, NotSampled: []results.Key{}}
	notSampled := map[results.Key]bool{}
	twins := sideTwins(old, new)
	collect := func(srcs []results.Source) (map[results.Key][]float64, []results.Key) {
		m := map[results.Key][]float64{}
		var order []results.Key
		for _, s := range srcs {
			for i := range s.File.Benchmarks {
				b := &s.File.Benchmarks[i]
				k := results.KeyAmong(b, twins)
				if opts.IgnoreDevice {
					k.Device = "*"
				}
				if opts.IgnoreName {
					k.Name = "*"
				}
				if !b.HasFigure() { // not sampled, failed or interrupted
					if !notSampled[k] {
						notSampled[k] = true
						c.NotSampled = append(c.NotSampled, k)
					}
					continue
				}
				if _, ok := m[k]; !ok {
					order = append(order, k)
				}
				for _, smp := range b.Measurement.Samples {
					if smp.PerLaunch > 0 {
						m[k] = append(m[k], float64(smp.PerLaunch))
					}
				}
			}
		}
		return m, order
	}
	om, oorder := collect(old)
	nm, norder := collect(new)
	logSum := 0.0
	for _, k := range oorder {
		ns, ok := nm[k]
		if !ok {
			c.OnlyOld = append(c.OnlyOld, k)
			continue
		}
		p := Samples(om[k], ns, opts.Alpha)
		p.Key = k
		c.Pairs = append(c.Pairs, p)
		logSum += math.Log(p.Ratio)
	}
	for _, k := range norder {
		if _, ok := om[k]; !ok {
			c.OnlyNew = append(c.OnlyNew, k)
		}
	}
	// Drop from NotSampled what was sampled on the other side too (it is then
	// in OnlyOld or OnlyNew).
	c.NotSampled = slices.DeleteFunc(c.NotSampled, func(k results.Key) bool { _, o := om[k]; _, n := nm[k]; return o || n })
	slices.SortStableFunc(c.Pairs, func(a, b Pair) int {
		return cmp.Or(cmp.Compare(a.Key.Name, b.Key.Name), compareParamStrings(a.Key.Params, b.Key.Params), cmp.Compare(a.Key.Device, b.Key.Device))
	})
	if len(c.Pairs) > 0 {
		c.Geomean = math.Exp(logSum / float64(len(c.Pairs)))
	}
	return c
}

// sideTwins are the device names that one side of a comparison holds more
// than one device of.
func sideTwins(old, new []results.Source) map[string]bool {
	out := map[string]bool{}
	for _, side := range [][]results.Source{old, new} {
		files := make([]*results.File, len(side))
		for i, s := range side {
			files[i] = s.File
		}
		for name := range results.Twins(files...) {
			out[name] = true
		}
	}
	return out
}

func compareParamStrings(a, b string) int {
	split := func(s string) []results.Param {
		var ps []results.Param
		for _, f := range strings.Fields(s) {
			n, v, _ := strings.Cut(f, "=")
			ps = append(ps, results.Param{Name: n, Value: v})
		}
		return ps
	}
	return report.CompareParams(split(a), split(b))
}

// Samples compares two samples of per-launch times (nanoseconds, any
// order, all positive) at significance alpha; see Pair for the method.
func Samples(old, new []float64, alpha float64) Pair {
	o, n := slices.Clone(old), slices.Clone(new)
	slices.Sort(o)
	slices.Sort(n)
	p := Pair{Old: o, New: n, Warnings: []string{}}
	om, nm := measure.MedianSorted(o), measure.MedianSorted(n)
	p.OldMedian, p.NewMedian = time.Duration(math.Round(om)), time.Duration(math.Round(nm))
	if om > 0 {
		p.Ratio = nm / om
	}
	th := benchmath.Thresholds{CompareAlpha: alpha}
	res := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(o), &th), benchmath.NewSample(slices.Clone(n), &th))
	p.P = res.P
	for _, w := range res.Warnings {
		p.Warnings = append(p.Warnings, w.Error())
	}
	p.RatioLow, p.RatioHigh = ratioCI(o, n, alpha, &p.Warnings)
	p.Verdict = NoDifference
	if p.P < alpha && p.Ratio != 1 {
		p.Verdict = Slower
		if p.Ratio < 1 {
			p.Verdict = Faster
		}
	}
	return p
}

// BootstrapResamples is the number of bootstrap resamples behind a Pair's
// interval.
const BootstrapResamples = 2000

// ratioCI is the percentile bootstrap interval of median(n)/median(o) (see Pair).
func ratioCI(o, n []float64, alpha float64, warnings *[]string) (lo, hi float64) {
	if len(o) == 0 || len(n) == 0 {
		return math.NaN(), math.NaN()
	}
	if len(o) < 10 || len(n) < 10 {
		*warnings = append(*warnings, fmt.Sprintf("few samples (%d+%d): the interval of the ratio is rough", len(o), len(n)))
	}
	// Seed from the data: reproducible, and different for different data.
	var seed uint64 = 0x9e3779b97f4a7c15
	for _, x := range append(slices.Clone(o), n...) {
		seed = seed*1099511628211 ^ math.Float64bits(x)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(o))<<32|uint64(len(n))))
	ratios := make([]float64, BootstrapResamples)
	ro, rn := make([]float64, len(o)), make([]float64, len(n))
	for i := range ratios {
		for j := range ro {
			ro[j] = o[rng.IntN(len(o))]
		}
		for j := range rn {
			rn[j] = n[rng.IntN(len(n))]
		}
		slices.Sort(ro)
		slices.Sort(rn)
		ratios[i] = measure.MedianSorted(rn) / measure.MedianSorted(ro)
	}
	slices.Sort(ratios)
	q := func(p float64) float64 {
		i := int(math.Round(p * float64(len(ratios)-1)))
		return ratios[min(max(i, 0), len(ratios)-1)]
	}
	return q(alpha / 2), q(1 - alpha/2)
}

// Regressions returns the pairs that are Slower by more than threshold (0.05 =
// 5%: Ratio > 1.05), significant at the comparison's alpha.
func (c *Comparison) Regressions(threshold float64) []Pair {
	var out []Pair
	for _, p := range c.Pairs {
		if p.Verdict == Slower && p.Ratio > 1+threshold {
			out = append(out, p)
		}
	}
	return out
}

func pText(p float64) string { return units.PValue(p) }

func pct(r float64) string {
	return fmt.Sprintf("%+.2f%%", 100*(r-1))
}

func (c *Comparison) cells(p Pair) []string {
	delta := "~"
	if p.Verdict != NoDifference {
		delta = pct(p.Ratio)
	}
	return []string{units.Escape(report.BenchLabel(results.Key{Name: p.Key.Name, Params: p.Key.Params})), units.Escape(p.Key.Device),
		report.FormatDuration(p.OldMedian), report.FormatDuration(p.NewMedian), fmt.Sprintf("%.3f", p.Ratio),
		fmt.Sprintf("[%.3f, %.3f]", p.RatioLow, p.RatioHigh), delta, pText(p.P) + fmt.Sprintf(", n=%d+%d", len(p.Old), len(p.New)), string(p.Verdict)}
}

var compareColumns = []string{"benchmark", "device", "old median", "new median", "ratio", "%.0f%% CI", "delta", "test", "verdict"}

func (c *Comparison) header() []string {
	h := slices.Clone(compareColumns)
	h[5] = fmt.Sprintf(h[5], 100*(1-c.Alpha))
	return h
}

// WriteTable writes the comparison as a table fitted to the width of w (see
// table.Width), then the geomean, the unmatched benchmarks and the warnings.
func (c *Comparison) WriteTable(w io.Writer) error { return c.WriteTableWidth(w, table.Width(w)) }

// WriteTableWidth is WriteTable fitted to width columns: a benchmark shows
// the parameters its name does not (results.ParamTextBeyondName), one device
// is named above the table, and the columns least needed (delta, n, the
// medians) are left out first, with a line saying so.
func (c *Comparison) WriteTableWidth(w io.Writer, width int) error {
	ew := &table.ErrWriter{W: w}
	devs := map[string]bool{}
	for _, p := range c.Pairs {
		devs[p.Key.Device] = true
	}
	h := c.header()
	t := table.New(table.Column{Header: h[0], Wrap: true}, table.Column{Header: h[1], Wrap: true},
		table.Column{Header: h[2], Short: "old", Right: true, Drop: 3}, table.Column{Header: h[3], Short: "new", Right: true, Drop: 3},
		table.Column{Header: h[4], Right: true}, table.Column{Header: h[5], Short: "CI", Right: true},
		table.Column{Header: h[6], Right: true, Drop: 5}, table.Column{Header: "p", Right: true},
		table.Column{Header: "n", Right: true, Drop: 4}, table.Column{Header: h[8]})
	for _, p := range c.Pairs {
		cells := c.cells(p)
		cells[0] = p.Key.Name
		if ps := results.ParamTextBeyondName(p.Key.Name, p.Key.Params); ps != "" {
			cells[0] += " " + ps
		}
		if len(devs) == 1 {
			cells[1] = ""
		}
		pv := strings.TrimPrefix(strings.TrimPrefix(pText(p.P), "p "), "= ")
		t.Row(slices.Concat(cells[:7], []string{pv, fmt.Sprintf("%d+%d", len(p.Old), len(p.New)), cells[8]})...)
	}
	if len(c.Pairs) > 0 {
		t.Row("geomean", "", "", "", fmt.Sprintf("%.3f", c.Geomean), "", pct(c.Geomean))
		if len(devs) == 1 {
			table.WriteWrapped(ew, "on "+units.Escape(c.Pairs[0].Key.Device), width, "", "  ")
		}
		t.Write(ew, width)
	}
	var notes strings.Builder
	c.writeNotes(&notes, "")
	io.WriteString(ew, table.FitEachLine(notes.String(), width))
	return ew.Err
}

func (c *Comparison) writeNotes(w io.Writer, bullet string) {
	fmt.Fprintf(w, "\nratio = new median / old median (below 1 is faster); verdict by Mann-Whitney U at alpha %g\n", c.Alpha)
	list := func(title string, ks []results.Key) {
		if len(ks) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, k := range ks {
			fmt.Fprintf(w, "%s  %s\n", bullet, units.Escape(k.String()))
		}
	}
	list("only in old", c.OnlyOld)
	list("only in new", c.OnlyNew)
	list("not compared (no samples)", c.NotSampled)
	first := true
	for _, p := range c.Pairs {
		for _, ws := range p.Warnings {
			if first {
				fmt.Fprintln(w, "\nwarnings:")
				first = false
			}
			fmt.Fprintf(w, "%s  %s: %s\n", bullet, units.Escape(p.Key.String()), units.Escape(ws))
		}
	}
}

// WriteCSV writes one record per pair: times in integer nanoseconds, the
// ratio, its interval, the p-value and the verdict.
func (c *Comparison) WriteCSV(w io.Writer) error {
	cw := report.NewCSVWriter(w)
	cw.Write([]string{"name", "params", "device", "old_n", "new_n", "old_median_ns", "new_median_ns", "ratio", "ratio_low", "ratio_high", "p", "verdict", "warnings"})
	f := func(v float64) string { return strconv.FormatFloat(finite(v), 'g', 6, 64) }
	for _, p := range c.Pairs {
		cw.Write([]string{p.Key.Name, p.Key.Params, p.Key.Device, strconv.Itoa(len(p.Old)), strconv.Itoa(len(p.New)),
			strconv.FormatInt(int64(p.OldMedian), 10), strconv.FormatInt(int64(p.NewMedian), 10), f(p.Ratio), f(p.RatioLow), f(p.RatioHigh),
			f(p.P), string(p.Verdict), strings.Join(p.Warnings, "; ")})
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the comparison as a markdown table.
func (c *Comparison) WriteMarkdown(w io.Writer) error {
	ew := &table.ErrWriter{W: w}
	report.MarkdownRow(ew, c.header())
	report.MarkdownRow(ew, []string{"---", "---", "--:", "--:", "--:", "---", "--:", "---", "---"})
	for _, p := range c.Pairs {
		report.MarkdownRow(ew, c.cells(p))
	}
	if len(c.Pairs) > 0 {
		report.MarkdownRow(ew, []string{"**geomean**", "", "", "", fmt.Sprintf("%.3f", c.Geomean), "", pct(c.Geomean), "", ""})
	}
	c.writeNotes(ew, "-")
	return ew.Err
}

// ComparisonJSON is the --format json rendering of a Comparison.
type ComparisonJSON struct {
	Alpha      float64       `json:"alpha"`
	Pairs      []PairJSON    `json:"pairs"`
	Geomean    float64       `json:"geomean_ratio"`
	OnlyOld    []results.Key `json:"only_old"`
	OnlyNew    []results.Key `json:"only_new"`
	NotSampled []results.Key `json:"not_sampled"`
}

// PairJSON is one Pair in ComparisonJSON.
type PairJSON struct {
	Name        string   `json:"name"`
	Params      string   `json:"params"`
	Device      string   `json:"device"`
	OldN        int      `json:"old_n"`
	NewN        int      `json:"new_n"`
	OldMedianNS int64    `json:"old_median_ns"`
	NewMedianNS int64    `json:"new_median_ns"`
	Ratio       float64  `json:"ratio"`
	RatioLow    float64  `json:"ratio_low"`
	RatioHigh   float64  `json:"ratio_high"`
	P           float64  `json:"p"`
	Verdict     Verdict  `json:"verdict"`
	Warnings    []string `json:"warnings"`
}

// WriteJSON writes the comparison as indented ComparisonJSON.
func (c *Comparison) WriteJSON(w io.Writer) error {
	out := ComparisonJSON{Alpha: c.Alpha, Pairs: []PairJSON{}, Geomean: c.Geomean, OnlyOld: c.OnlyOld, OnlyNew: c.OnlyNew, NotSampled: c.NotSampled}
	for _, p := range c.Pairs {
		out.Pairs = append(out.Pairs, PairJSON{Name: p.Key.Name, Params: p.Key.Params, Device: p.Key.Device,
			OldN: len(p.Old), NewN: len(p.New), OldMedianNS: int64(p.OldMedian), NewMedianNS: int64(p.NewMedian),
			Ratio: p.Ratio, RatioLow: finite(p.RatioLow), RatioHigh: finite(p.RatioHigh), P: p.P, Verdict: p.Verdict, Warnings: p.Warnings})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// New makes a Comparison of pairs compared elsewhere (Samples),
// such as two kernels measured interleaved; it has no unmatched benchmarks.
func New(pairs []Pair, alpha float64) *Comparison {
	c := &Comparison{Alpha: alpha, Pairs: append([]Pair{}, pairs...), OnlyOld: []results.Key{}, OnlyNew: []results.Key{}, NotSampled: []results.Key{}}
	s := 0.0
	for _, p := range pairs {
		s += math.Log(p.Ratio)
	}
	if len(pairs) > 0 {
		c.Geomean = math.Exp(s / float64(len(pairs)))
	}
	return c
}
