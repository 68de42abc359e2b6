package tune

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/units"
)

// WriteTable prints a search: one row a configuration tried (its median, CI,
// throughput, or why it was skipped), then the best, its baseline and the
// speedup with its significance.
func WriteTable(w io.Writer, r *Result) {
	fmt.Fprintf(w, "tune %s on %s: %s over %s, %d tried in %s (budget %s)\n", r.Kernel, r.Device, r.Strategy, units.Count(r.Space, "configuration"), len(r.Trials),
		units.Duration(r.Elapsed.Round(1e6)), units.Duration(r.Budget))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CONFIGURATION\tLOCAL\tMEDIAN\t95% CI\tTHROUGHPUT\tSTATUS")
	for _, t := range r.Trials {
		local := t.Bench.Params["local"]
		if local == "" {
			local = "driver"
		}
		if t.Skipped != "" {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\tskipped: %s\n", t.Label, local, t.Skipped)
			continue
		}
		s := t.Bench.Measurement.Summary
		status := "ok"
		if t == r.Best {
			status = "best"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.Label, local, units.Duration(s.Median), ciRange(s),
			orDash(throughputText(t)), status)
	}
	tw.Flush()
	if r.Best == nil {
		fmt.Fprintln(w, "no valid configuration")
		return
	}
	s := r.Best.Bench.Measurement.Summary
	ci := "95% CI " + ciRange(s)
	if !s.HasCI() {
		ci = measure.CINeedsText(0.95, s.N)
	}
	fmt.Fprintf(w, "best: %s (local %s): median %s, %s\n", r.Best.Label, orDash(r.Best.Bench.Params["local"]),
		units.Duration(s.Median), ci)
	if r.Baseline == nil {
		return
	}
	bs := r.Baseline.Bench.Measurement.Summary
	fmt.Fprintf(w, "baseline: %s (local %s): median %s — %s\n", r.Baseline.Label, orDash(r.Baseline.Bench.Params["local"]), units.Duration(bs.Median), r.BaselineNote)
	if sp, lo, hi := r.Speedup(); sp > 0 {
		verdict := "significant"
		if r.Compare.P >= r.Alpha {
			verdict = "not significant: the best may be no faster than the baseline"
		}
		fmt.Fprintf(w, "speedup: %.3gx (%.0f%% CI %.3g..%.3gx), Mann-Whitney p=%.2g: %s at alpha %g\n", sp, 100*(1-r.Alpha), lo, hi, r.Compare.P, verdict, r.Alpha)
	} else if r.Baseline == r.Best {
		fmt.Fprintln(w, "speedup: 1x (the baseline is the best configuration)")
	}
}

func throughputText(t *Trial) string {
	tp := t.Bench.Measurement.Throughput
	if tp == nil {
		return ""
	}
	var parts []string
	if r := units.Rate(tp.GBPerSecond, "B"); r != "" {
		parts = append(parts, r)
	}
	if r := units.Rate(tp.GOpsPerSecond, strings.TrimSpace(tp.OpsUnit)); r != "" && tp.OpsUnit != "" {
		parts = append(parts, r)
	}
	return strings.Join(parts, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ciRange writes the interval of the median as "1.2 µs..1.3 µs", "-" when there
// is none (too few samples).
func ciRange(s measure.Summary) string {
	if !s.HasCI() {
		return "-"
	}
	return units.Duration(s.CI95Low) + ".." + units.Duration(s.CI95High)
}
