package store

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// run names a point for people: "#12 2025-03-01 12:00 abc1234".
func run(p Point) string {
	s := fmt.Sprintf("#%d %s", p.ResultID, p.Created.Format("2006-01-02 15:04"))
	if c := p.Labels["commit"]; c != "" {
		s += " " + short(c)
	}
	return s
}

func short(commit string) string {
	if len(commit) > 10 {
		return commit[:10]
	}
	return commit
}

// LabelText joins labels as "k=v k=v", sorted, commits shortened.
func LabelText(l map[string]string) string { return joinLabels(l, " ", short) }

// joinLabels joins labels as k=v in key order with sep, each commit value
// passed through commit (nil: as it is).
func joinLabels(l map[string]string, sep string, commit func(string) string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := l[k]
		if k == "commit" && commit != nil {
			v = commit(v)
		}
		parts[i] = k + "=" + v
	}
	return strings.Join(parts, sep)
}

// CIText writes a point's interval as "±1.2%" of its median; "" when the
// point has none (fewer samples than a 95% interval needs).
func CIText(p Point) string {
	if !hasCI(p) {
		return ""
	}
	half := float64(p.CIHigh-p.CILow) / 2 / float64(p.Median)
	return "±" + units.Percent(half)
}

// hasCI: a stored interval is a 95% one only with enough samples (points
// stored before intervals were left out below that carry a narrower one).
func hasCI(p Point) bool {
	return p.Median > 0 && p.CIHigh > 0 && p.N >= measure.CISamples(0.95)
}

func writeHistoryTable(w io.Writer, hs []SeriesHistory, width int) error {
	for i, h := range hs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		table.WriteWrapped(w, fmt.Sprintf("%s  (%d runs)", h.Key(), len(h.Points)), width, "", "  ")
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
			t.Row(fmt.Sprintf("#%d", p.ResultID), p.Created.Format("2006-01-02 15:04"), results.FormatDuration(p.Median), ci,
				fmt.Sprint(p.N), vs, LabelText(p.Labels))
		}
		if err := t.Write(w, width); err != nil {
			return err
		}
	}
	return nil
}

func writeChangesTable(w io.Writer, hs []SeriesHistory, o HistoryOptions, width int) error {
	tw := table.New(table.Column{Header: "BENCHMARK", Wrap: true}, table.Column{Header: "DEVICE", Wrap: true},
		table.Column{Header: "DRIVER", Wrap: true, Drop: 3}, table.Column{Header: "KIND"}, table.Column{Header: "LAST BEFORE", Short: "BEFORE", Wrap: true, Drop: 1},
		table.Column{Header: "FIRST AFTER", Short: "AFTER", Wrap: true}, table.Column{Header: "MEDIAN", Wrap: true},
		table.Column{Header: "CHANGE", Right: true}, table.Column{Header: "P"}, table.Column{Header: "VERDICT"})
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
	changes, drifts, outliers, series, regressions, newest := 0, 0, 0, 0, 0, 0
	dur := func(v float64) string { return results.FormatDuration(time.Duration(v)) }
	for _, h := range hs {
		if len(h.Changes)+len(h.Drifts)+len(h.Outliers) > 0 {
			series++
		}
		name := h.Benchmark
		if h.Params != "" {
			name += " " + h.Params
		}
		row := func(kind, last, first, median, change, conf, verdict string) {
			tw.Row(name, h.Device, h.Driver, kind, last, first, median, change, conf, verdict)
		}
		for _, c := range h.Changes {
			changes++
			verdict := c.Verdict
			if c.Verdict == "regression" {
				regressions++
				if c.Newest {
					newest++
				}
			}
			if c.Newest {
				verdict += " (newest runs)"
			}
			row("step", run(c.Last), run(c.First), dur(c.Before.Median)+" -> "+dur(c.After.Median), fmt.Sprintf("%+.1f%%", c.Size*100), confidence(c.PValue), verdict)
		}
		for _, d := range h.Drifts {
			drifts++
			verdict := d.Verdict
			if d.Verdict == "regression" {
				regressions++
				if d.Newest {
					newest++
				}
			}
			if d.Newest {
				verdict += " (crossed in the newest runs)"
			} else if d.Start+d.N == len(h.Points) {
				verdict += " (ongoing)"
			}
			last := "(first run)"
			if d.Start > 0 {
				last = run(h.Points[d.Start-1])
			}
			end := d.Level + d.Slope*float64(d.N-1)
			row("drift", last, run(d.First)+fmt.Sprintf(" (%d runs)", d.N), dur(d.Level)+" -> "+dur(end),
				fmt.Sprintf("%+.1f%% (%+.2f%%/run)", d.Size*100, d.Slope/math.Abs(d.Level)*100), confidence(d.PValue), verdict)
		}
		for _, ol := range h.Outliers {
			outliers++
			verdict := "outlier"
			if ol.N > 1 {
				verdict = fmt.Sprintf("outlier (%d runs, came back)", ol.N)
			}
			if ol.Newest {
				verdict = "outlier (newest runs: a change needs more runs)"
			}
			last := "(first run)"
			if ol.Index > 0 {
				last = run(h.Points[ol.Index-1])
			}
			row("outlier", last, run(ol.Runs[0]), dur(ol.Level)+" -> "+results.FormatDuration(ol.Runs[0].Median), fmt.Sprintf("%+.1f%%", ol.Size*100), "", verdict)
		}
	}
	if err := tw.Write(w, width); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d change(s), %d drift(s), %d outlier(s) in %d of %d series; %d regression(s) beyond %s, %d in the newest %d runs\n",
		changes, drifts, outliers, series, len(hs), regressions, percent(o.Threshold), newest, o.Recent)
	return err
}

// percent writes a threshold as "5.0%".
func percent(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" }

// confidence writes the change's p-value as a statistician would ("p < 0.001").
func confidence(p float64) string { return units.PValue(p) }
