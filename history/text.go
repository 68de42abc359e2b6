package history

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// run names a point for people: "#12 2025-03-01 12:00 abc1234".
func run(p store.Point) string {
	s := fmt.Sprintf("#%d %s", p.ResultID, p.Created.Format("2006-01-02 15:04"))
	if c := p.Labels["commit"]; c != "" {
		s += " " + store.ShortCommit(c)
	}
	return s
}

// CIText writes a point's interval as "±1.2%" of its median; "" when the
// point has none (fewer samples than a 95% interval needs).
func CIText(p store.Point) string {
	if !HasCI(p) {
		return ""
	}
	half := float64(p.CIHigh-p.CILow) / 2 / float64(p.Median)
	return "±" + units.Percent(half)
}

// HasCI says whether a point has a 95% interval: only with enough samples
// (points stored before intervals were left out below that carry a narrower
// one).
func HasCI(p store.Point) bool {
	return p.Median > 0 && p.CIHigh > 0 && p.N >= measure.CISamples(0.95)
}

func writeTable(w io.Writer, hs []Series, width int) error {
	for i, h := range hs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		table.WriteWrapped(w, fmt.Sprintf("%s  (%s)", h.Key(), units.Count(len(h.Points), "run")), width, "", "  ")
		t := table.New(
			table.Column{Header: "RUN", Right: true},
			table.Column{Header: "STARTED"},
			table.Column{Header: "MEDIAN", Right: true},
			table.Column{Header: "95% CI", Short: "CI", Right: true, Drop: 2},
			table.Column{Header: "N", Right: true, Drop: 1},
			table.Column{Header: "VS PREVIOUS", Short: "VS PREV", Wrap: true},
			table.Column{Header: "LABELS", Wrap: true, Drop: 3},
		)
		t.Indent = "  "
		for j, p := range h.Points {
			vs := ""
			if j > 0 && h.Points[j-1].Median > 0 {
				vs = units.Percent(float64(p.Median)/float64(h.Points[j-1].Median) - 1)
				if !strings.HasPrefix(vs, "-") {
					vs = "+" + vs
				}
			}
			if p.Valid != nil && !*p.Valid {
				vs += " INVALID"
			}
			ci := CIText(p)
			if ci == "" {
				ci = "-"
			}
			t.Row(fmt.Sprintf("#%d", p.ResultID), p.Created.Format("2006-01-02 15:04"), report.FormatDuration(p.Median), ci,
				fmt.Sprint(p.N), vs, store.LabelText(p.Labels))
		}
		if err := t.Write(w, width); err != nil {
			return err
		}
	}
	return nil
}

// changesTable is the table of change points, drifts and outliers and the
// counts its closing line gives.
type changesTable struct {
	tw                                *table.Table
	changes, drifts, outliers, series int
	regressions, newest               int
}

func writeChangesTable(w io.Writer, hs []Series, o Options, width int) error {
	total := 0
	for _, h := range hs {
		total += len(h.Changes) + len(h.Drifts) + len(h.Outliers)
	}
	if total == 0 {
		what := "no change points, drifts or outliers"
		if o.CI {
			what += fmt.Sprintf(" beyond %s", percent(o.Threshold))
		}
		_, err := fmt.Fprintf(w, "%s in %d series (a change needs at least %d runs on each side)\n", what, len(hs), minSize(o))
		return err
	}
	ct := &changesTable{tw: table.New(table.Column{Header: "BENCHMARK", Wrap: true}, table.Column{Header: "DEVICE", Wrap: true},
		table.Column{Header: "DRIVER", Wrap: true, Drop: 3}, table.Column{Header: "KIND"}, table.Column{Header: "LAST BEFORE", Short: "BEFORE", Wrap: true, Drop: 1},
		table.Column{Header: "FIRST AFTER", Short: "AFTER", Wrap: true}, table.Column{Header: "MEDIAN", Wrap: true},
		table.Column{Header: "CHANGE", Right: true}, table.Column{Header: "P"}, table.Column{Header: "VERDICT"})}
	for _, h := range hs {
		ct.add(h)
	}
	if err := ct.tw.Write(w, width); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nWhy:")
	for _, h := range hs {
		for _, l := range explain(h) {
			table.WriteWrapped(w, l, width, "  ", "      ")
		}
	}
	fmt.Fprintln(w)
	table.WriteWrapped(w, fmt.Sprintf("%s, %s, %s in %d of %d series; %s beyond %s, %d in the newest %s",
		units.Count(ct.changes, "change"), units.Count(ct.drifts, "drift"), units.Count(ct.outliers, "outlier"), ct.series, len(hs),
		units.Count(ct.regressions, "regression"), percent(o.Threshold), ct.newest, units.Count(o.Recent, "run")), width, "", "  ")
	var err error
	return err
}

// dur writes a median in nanoseconds as a duration.
func dur(v float64) string { return report.FormatDuration(time.Duration(v)) }

// before names the run before index i of h ("(first run)" for none).
func before(h Series, i int) string {
	if i == 0 {
		return "(first run)"
	}
	return run(h.Points[i-1])
}

// add puts the rows of h's findings into the table and counts them.
func (ct *changesTable) add(h Series) {
	if len(h.Changes)+len(h.Drifts)+len(h.Outliers) > 0 {
		ct.series++
	}
	name := h.Benchmark
	if h.Params != "" {
		name += " " + h.Params
	}
	row := func(kind, last, first, median, change, conf, verdict string) {
		ct.tw.Row(name, h.DeviceLabel(), h.Driver, kind, last, first, median, change, conf, verdict)
	}
	count := func(verdict string, newest bool) {
		if verdict == "regression" {
			ct.regressions++
			if newest {
				ct.newest++
			}
		}
	}
	for _, c := range h.Changes {
		ct.changes++
		count(c.Verdict, c.Newest)
		verdict := c.Verdict
		if c.Newest {
			verdict += " (newest runs)"
		}
		row("step", run(c.Last), run(c.First), dur(c.Before.Median)+" -> "+dur(c.After.Median), fmt.Sprintf("%+.1f%%", c.Size*100), confidence(c.PValue), verdict)
	}
	for _, d := range h.Drifts {
		ct.drifts++
		count(d.Verdict, d.Newest)
		verdict := d.Verdict
		if d.Newest {
			verdict += " (crossed in the newest runs)"
		} else if d.Start+d.N == len(h.Points) {
			verdict += " (ongoing)"
		}
		end := d.Level + d.Slope*float64(d.N-1)
		row("drift", before(h, d.Start), run(d.First)+fmt.Sprintf(" (%d runs)", d.N), dur(d.Level)+" -> "+dur(end),
			fmt.Sprintf("%+.1f%% (%+.2f%%/run)", d.Size*100, d.Slope/math.Abs(d.Level)*100), confidence(d.PValue), verdict)
	}
	for _, ol := range h.Outliers {
		ct.outliers++
		verdict := "outlier"
		if ol.N > 1 {
			verdict = fmt.Sprintf("outlier (%d runs, came back)", ol.N)
		}
		if ol.Newest {
			verdict = "outlier (newest runs: a change needs more runs)"
		}
		row("outlier", before(h, ol.Index), run(ol.Runs[0]), dur(ol.Level)+" -> "+report.FormatDuration(ol.Runs[0].Median), fmt.Sprintf("%+.1f%%", ol.Size*100), "", verdict)
	}
}

// explain returns a line per step and drift of h that says why it was
// reported: the runs either side, the size with its 95% CI, the test, its
// p-value and the noise it used; and, indented, the evidence for the
// reading that competed with it for the same runs.
func explain(h Series) []string {
	var out []string
	name := h.Benchmark
	if h.Params != "" {
		name += " " + h.Params
	}
	for _, c := range h.Changes {
		l := fmt.Sprintf("%s: step %s -> %s: %s (95%% CI %s to %s), %d runs before, %d after; %s",
			name, run(c.Last), run(c.First), signed(c.Size), signed(c.SizeLow), signed(c.SizeHigh), c.Before.N, c.After.N, c.Test)
		l += fmt.Sprintf(", %s against the noise %s", confidence(c.PValue), c.Noise)
		if med := (c.Before.Median + c.After.Median) / 2; med > 0 && c.NoiseSigma > 0 {
			l += fmt.Sprintf(" (σ %s a run)", units.Percent(c.NoiseSigma/med))
		}
		if c.NoiseNote != "" {
			l += "; " + c.NoiseNote
		}
		out = append(out, l)
		if c.Versus != "" {
			out = append(out, "    vs "+c.Versus)
		}
	}
	for _, d := range h.Drifts {
		out = append(out, fmt.Sprintf("%s: drifting from %s over %d runs: %s (%s a run), Mann-Kendall %s", name, run(d.First), d.N,
			signed(d.Size), signed(d.Slope/math.Abs(d.Level)), confidence(d.PValue)))
		if d.Versus != "" {
			out = append(out, "    vs "+d.Versus)
		}
	}
	return out
}

// signed writes a relative size as "+1.0%".
func signed(f float64) string { return fmt.Sprintf("%+.1f%%", f*100) }

// percent writes a threshold as "5.0%".
func percent(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" }

// confidence writes the change's p-value as a statistician would ("p < 0.001").
func confidence(p float64) string { return units.PValue(p) }
