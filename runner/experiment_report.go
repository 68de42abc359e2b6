package runner

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// writeExperiment prints an experiment suite's section (after its "== NAME on
// DEVICE" line): what it shows, its own table and what the figures say. It
// returns false for the other suites, which get the common table.
func writeExperiment(w io.Writer, suite string, bs []results.Benchmark, peaks map[string]*suitePeaks, width int) bool {
	var body func(io.Writer, []results.Benchmark, int)
	switch suite {
	case clkernels.SuiteColdStart:
		body = writeColdStart
	case clkernels.SuiteFirstTouch:
		body = writeFirstTouch
	case clkernels.SuiteMatmul, clkernels.SuiteReduction:
		body = writeExperimentTable
	default:
		return false
	}
	if s, ok := clkernels.LookupSuite(suite); ok {
		table.WriteWrapped(w, s.Description, width, "  ", "  ")
	}
	body(w, bs, width)
	for _, b := range bs {
		if b.Error != "" {
			table.WriteWrapped(w, fmt.Sprintf("ERROR %s: %s", b.Name, b.Error), width, "", "  ")
		}
	}
	return true
}

func figureOf(b results.Benchmark, name string) (results.Figure, bool) {
	for _, f := range b.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return results.Figure{}, false
}

// msCell prints milliseconds with three significant digits ("-" when absent).
func msCell(v float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmtDur(time.Duration(v * 1e6))
}

func writeColdStart(w io.Writer, bs []results.Benchmark, width int) {
	fresh, warm := map[string]results.Benchmark{}, map[string]results.Benchmark{}
	var sizes []string
	var startup *results.Benchmark
	for i, b := range bs {
		switch {
		case strings.HasPrefix(b.Name, clkernels.ColdStartFresh):
			fresh[b.Params["size"]] = b
		case strings.HasPrefix(b.Name, clkernels.ColdStartWarm):
			warm[b.Params["size"]] = b
		case b.Name == clkernels.ColdStartStartup:
			startup = &bs[i]
			continue
		default:
			continue
		}
		if s := b.Params["size"]; !containsStr(sizes, s) {
			sizes = append(sizes, s)
		}
	}
	tw := table.New(table.Column{Header: "SIZE MxNxW"}, table.Column{Header: "FRESH PROCESS", Short: "FRESH", Right: true},
		table.Column{Header: "FRESH LAUNCH", Short: "F.LAUNCH", Right: true, Drop: 2}, table.Column{Header: "IN-PROCESS TOTAL", Short: "IN-PROC", Right: true},
		table.Column{Header: "COPY-IN", Right: true, Drop: 3}, table.Column{Header: "COMPUTE", Right: true, Drop: 4},
		table.Column{Header: "COPY-OUT", Right: true, Drop: 3}, table.Column{Header: "KERNEL", Right: true},
		table.Column{Header: "COMPUTE RATE", Short: "RATE", Drop: 1})
	var firstFresh, firstWarm float64
	for i, s := range sizes {
		f, ok := figureOf(fresh[s], "total")
		l, lok := figureOf(fresh[s], "launch")
		row := []string{s, msCell(f.Value, ok), msCell(l.Value, lok)}
		b := warm[s]
		if m := b.Measurement; b.HasFigure() && m.Phases != nil {
			p := m.Phases
			row = append(row, fmtDur(p.Total.Median), fmtDur(p.CopyIn.Median), fmtDur(p.Compute.Median), fmtDur(p.CopyOut.Median))
			if i == 0 {
				firstWarm = float64(p.Total.Median) / 1e6
			}
		} else {
			row = append(row, "-", "-", "-", "-")
		}
		row = append(row, suiteMedian(b))
		if m := b.Measurement; b.HasFigure() && m.Throughput != nil {
			row = append(row, units.Rate(m.Throughput.GOpsPerSecond, "FLOP"))
		} else {
			row = append(row, "")
		}
		if i == 0 && ok {
			firstFresh = f.Value
		}
		tw.Row(row...)
	}
	tw.Write(w, width)
	say := func(s string) { table.WriteWrapped(w, s, width, "  ", "    ") }
	say("fresh process: one process, sizes in order, each timed in one go (FRESH LAUNCH: its enqueue + finish)")
	say("in-process: medians of copy-in / compute / copy-out / total (host timer, a finish after each) after warm-up; KERNEL is the device-timed launch")
	if startup != nil && startup.Error == "" {
		var steps []string
		for _, f := range startup.Figures {
			if strings.HasPrefix(f.Name, "first size") || strings.HasPrefix(f.Name, "second size") {
				continue
			}
			steps = append(steps, fmt.Sprintf("%s %s", f.Name, msCell(f.Value, true)))
		}
		say("start-up steps (fresh process, first size): " + strings.Join(steps, ", "))
	}
	if firstFresh > 0 && firstWarm > 0 {
		line := fmt.Sprintf("the first size took %s in a fresh process, %.0fx its in-process total", msCell(firstFresh, true), firstFresh/firstWarm)
		if len(sizes) > 1 {
			if f, ok := figureOf(fresh[sizes[1]], "total"); ok {
				line += fmt.Sprintf("; the larger second size took %s", msCell(f.Value, true))
			}
		}
		say(line + ": runtime start-up, JIT and first touch, paid once")
	}
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func writeFirstTouch(w io.Writer, bs []results.Benchmark, width int) {
	cols := []table.Column{{Header: "CASE", Wrap: true}, {Header: "TIMER", Wrap: true}}
	for i := 1; i <= clkernels.FirstTouchRuns; i++ {
		drop := 0
		if i > 2 {
			drop = i // the later runs go first
		}
		cols = append(cols, table.Column{Header: fmt.Sprintf("RUN %d", i), Right: true, Drop: drop})
	}
	tw := table.New(append(cols, table.Column{Header: "FIRST-TOUCH", Wrap: true})...)
	var size string
	for _, b := range bs {
		if b.Error != "" {
			continue
		}
		size = b.Params["array"]
		for _, kernel := range []bool{false, true} {
			row := []string{strings.TrimPrefix(b.Name, "firsttouch/"), "host"}
			if strings.Contains(b.Name, "/device/") {
				row[1] = "enqueue+finish"
			}
			if kernel {
				row[1] = "kernel (device)"
			}
			any := false
			for i := 1; i <= clkernels.FirstTouchRuns; i++ {
				f, ok := figureOf(b, clkernels.FirstTouchRunFigure(i, kernel))
				any = any || ok
				row = append(row, msCell(f.Value, ok))
			}
			if !any {
				continue
			}
			if kernel {
				row = append(row, "")
			} else {
				f, ok := figureOf(b, clkernels.FirstTouchCost)
				row = append(row, firstTouchCell(b, f.Value, ok))
			}
			tw.Row(row...)
		}
	}
	tw.Write(w, width)
	table.WriteWrapped(w, fmt.Sprintf("a copy of %s; FIRST-TOUCH is run 1 minus the median of runs 2-%d; each case has fresh buffers, warmed by a fill before run 1",
		size, clkernels.FirstTouchRuns), width, "  ", "    ")
}

// firstTouchCell writes the first-touch cost, signed, and "within noise" when
// it is no larger than the spread (max - min) of the later runs.
func firstTouchCell(b results.Benchmark, cost float64, ok bool) string {
	if !ok {
		return "-"
	}
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for i := 2; i <= clkernels.FirstTouchRuns; i++ {
		if f, ok := figureOf(b, clkernels.FirstTouchRunFigure(i, false)); ok {
			lo, hi, n = math.Min(lo, f.Value), math.Max(hi, f.Value), n+1
		}
	}
	text := msCell(cost, true)
	if !strings.HasPrefix(text, "-") && cost != 0 {
		text = "+" + text
	}
	if n >= 2 && math.Abs(cost) <= hi-lo {
		text += " (within noise: later runs spread " + msCell(hi-lo, true) + ")"
	}
	return text
}

// writeExperimentTable prints the common table and the speedup figures.
func writeExperimentTable(w io.Writer, bs []results.Benchmark, width int) {
	tw := suiteTable(false)
	var figs []results.Benchmark
	for _, b := range bs {
		if b.Measurement == nil {
			figs = append(figs, b)
			continue
		}
		tw.Row(b.Name, suiteParams(b), suiteMedian(b), suiteThroughput(b), suiteCV(b), suiteNotes(tw, b))
	}
	var after []string
	for _, b := range figs {
		for _, f := range b.Figures {
			after = append(after, fmt.Sprintf("%s: %s (%s)", f.Name, units.Quantity(f.Value, f.Unit), f.Note))
		}
		if e, ok := b.Extra[clkernels.ExtraExplanation].(string); ok {
			after = append(after, e)
		}
	}
	if tw.Rows() > 0 {
		tw.Write(w, width)
	}
	for _, a := range after {
		table.WriteWrapped(w, a, width, "  ", "    ")
	}
}
