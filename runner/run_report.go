package runner

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// RunFormats are the --format choices of run: the compact block or fitted
// table, the wide table of every figure, and the report formats.
var RunFormats = []string{"table", "wide", "json", "csv", "markdown", "md"}

// writeRunReport prints the finished benchmarks: one benchmark as a block read
// top-down, several as a table fitted to width; "wide" is the table of every
// figure, unfitted; json, csv and markdown are the report's renderings.
func writeRunReport(w io.Writer, format string, file results.File, done []results.Benchmark, verbose bool, width int) error {
	switch format {
	case "json":
		file.Benchmarks = done
		_, err := file.WriteTo(w)
		return err
	case "csv", "markdown", "md":
		file.Benchmarks = done
		return report.Write(w, report.New([]results.Source{{Path: "-", File: &file}}), format)
	}
	if len(done) == 0 {
		return nil
	}
	if format == "wide" {
		return writeWideRunTable(w, done, verbose)
	}
	if len(done) == 1 {
		return writeRunBlock(w, done[0], verbose, width)
	}
	// One device: named above the table, not in every row.
	oneDevice := true
	for _, b := range done {
		oneDevice = oneDevice && b.Device.Name == done[0].Device.Name
	}
	if oneDevice {
		table.WriteWrapped(w, "on "+done[0].Device.Name, width, "", "  ")
	}
	t := table.New(
		table.Column{Header: "KERNEL"},
		table.Column{Header: "PARAMS", Wrap: true},
		table.Column{Header: "DEVICE", Drop: 3, Wrap: true},
		table.Column{Header: "N", Right: true},
		table.Column{Header: "MEDIAN", Right: true},
		table.Column{Header: "95% CI", Short: "CI", Right: true, Drop: 2},
		table.Column{Header: "MIN", Right: true, Drop: 4},
		table.Column{Header: "CV", Right: true},
		table.Column{Header: "THROUGHPUT", Wrap: true},
		table.Column{Header: "BOUND", Wrap: true, Drop: 1},
		table.Column{Header: "NOTES", Wrap: true},
	)
	stops := map[measure.StopReason]int{}
	var stopOrder []measure.StopReason
	for _, b := range done {
		if r := b.Measurement.StopReason; r != "" {
			if stops[r] == 0 {
				stopOrder = append(stopOrder, r)
			}
			stops[r]++
		}
		m := b.Measurement
		s := m.Summary
		name := b.Name
		if m.Valid != nil && !*m.Valid {
			name += " INVALID"
		}
		var refs []int
		for _, n := range runNotes(b, verbose) {
			refs = append(refs, t.Note(paramText(b)+": "+n))
		}
		dev := b.Device.Name
		if oneDevice {
			dev = ""
		}
		t.Row(name, paramText(b), dev, fmt.Sprint(s.N), fmtDur(s.Median), ciCell(s), fmtDur(s.Min),
			s.CVText(), throughput(m), boundCell(b), table.Refs(refs))
	}
	if len(stopOrder) > 0 {
		var parts []string
		for _, r := range stopOrder {
			parts = append(parts, fmt.Sprintf("%s (%d)", r, stops[r]))
		}
		table.WriteWrapped(w, "sampling stopped at: "+strings.Join(parts, ", "), width, "", "  ")
	}
	return t.Write(w, width)
}

// paramText is "type=float n=16777216".
func paramText(b results.Benchmark) string {
	var ps []string
	for _, p := range b.OrderedParams() {
		ps = append(ps, p.Name+"="+p.Value)
	}
	return strings.Join(ps, " ")
}

// ciCell is the interval of the median as ±% of it, "-" when there is none.
func ciCell(s measure.Summary) string {
	if !s.HasCI() || s.Median <= 0 {
		return "-"
	}
	t := "±" + units.Percent(s.Noise)
	if s.CILevel != 0.95 {
		t += " (" + measure.LevelText(s.CILevel) + ")"
	}
	return t
}

// runNotes are what a person should know about b beyond its figures: the cold
// and first-touch costs, phases, validation, warnings, roofline and clocks.
func runNotes(b results.Benchmark, verbose bool) []string {
	m := b.Measurement
	notes := []string{fmt.Sprintf("cold first launch %s; host data %s, upload %s, first touch %s; timer %s; build %s%s",
		fmtDur(firstLaunch(m)), fmtDur(m.HostPrep), fmtDur(m.Upload), fmtDur(m.FirstTouch), timerText(m), fmtDur(buildTime(b)), fromCache(b.Program))}
	if modes, ok := b.Extra[harness.ExtraModes].(string); ok {
		notes = append(notes, "launch modes: "+modes)
	}
	if m.Phases != nil {
		notes = append(notes, fmt.Sprintf("phases (median, host timer): copy-in %s, compute %s, copy-out %s, total %s",
			fmtDur(m.Phases.CopyIn.Median), fmtDur(m.Phases.Compute.Median), fmtDur(m.Phases.CopyOut.Median), fmtDur(m.Phases.Total.Median)))
	}
	if m.ValidationError != "" {
		notes = append(notes, "INVALID: "+m.ValidationError)
	}
	for _, warn := range m.AllWarnings() {
		if !isTimerNote(warn) { // said in the timer note above
			notes = append(notes, "warning: "+warn)
		}
	}
	return append(notes, analysisNotes(b, "", verbose)...)
}

func buildTime(b results.Benchmark) time.Duration {
	if b.Program == nil {
		return 0
	}
	return b.Program.BuildTime
}

// writeRunBlock prints one benchmark top-down, as hyperfine does: what ran,
// the time (median with its interval, mean ± σ, range, samples), throughput,
// then the notes.
func writeRunBlock(w io.Writer, b results.Benchmark, verbose bool, width int) error {
	m := b.Measurement
	s := m.Summary
	head := "Benchmark: " + b.Name
	if p := paramText(b); p != "" {
		head += " " + p
	}
	head += " on " + b.Device.Name
	if m.Valid != nil && !*m.Valid {
		head += " (INVALID)"
	}
	table.WriteWrapped(w, head, width, "", "  ")
	line := func(label, text string) {
		if text != "" {
			table.WriteWrapped(w, text, width, fmt.Sprintf("  %-19s ", label+":"), strings.Repeat(" ", 22))
		}
	}
	med := fmtDur(s.Median)
	if s.HasCI() {
		med += fmt.Sprintf("   (%s CI %s … %s)", measure.LevelText(s.CILevel), fmtDur(s.CI95Low), fmtDur(s.CI95High))
	} else if s.N > 0 {
		med += "   (" + measure.CINeedsText(0.95, s.N) + ")"
	}
	line("Time (median)", med)
	if s.N > 1 {
		line("Time (mean ± σ)", fmt.Sprintf("%s ± %s   (CV %s)", fmtDur(s.Mean), fmtDur(s.Stddev), units.Percent(s.CV)))
	}
	line("Range (min … max)", fmt.Sprintf("%s … %s; %s of %s", fmtDur(s.Min), fmtDur(s.Max), units.Count(s.N, "sample"), launchesText(m)))
	if t := ThroughputText(m.Throughput); t != "" {
		line("Throughput", t)
	}
	if bc := boundCell(b); bc != "-" {
		line("Bound", bc)
	}
	line("Stopped", string(m.StopReason))
	notes := runNotes(b, verbose)
	if len(notes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "  notes:")
		for i, n := range notes {
			num := fmt.Sprintf("    [%d] ", i+1)
			table.WriteWrapped(w, n, width, num, strings.Repeat(" ", len(num)))
		}
	}
	return nil
}

// writeWideRunTable is --format wide: every figure of every benchmark in one
// row, the notes under it, whatever the width.
func writeWideRunTable(w io.Writer, done []results.Benchmark, verbose bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KERNEL\tPARAMS\tDEVICE\tLAUNCHES/SAMPLE\tSAMPLES\tMIN\tMEDIAN\tMEAN\tGEOMEAN\tCV\t95% CI\tTHROUGHPUT\tBOUND\tSTOP")
	var notes []string
	for _, b := range done {
		m := b.Measurement
		name := b.Name
		if m.Valid != nil && !*m.Valid {
			name += " INVALID"
		}
		s := m.Summary
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", units.Escape(name), units.Escape(paramText(b)), units.Escape(b.Device.Name),
			launchesRange(m), s.N, fmtDur(s.Min), fmtDur(s.Median), fmtDur(s.Mean), fmtDur(s.Geomean), s.CVText(), ciCell(s),
			throughput(m), boundCell(b), m.StopReason)
		for _, n := range runNotes(b, verbose) {
			notes = append(notes, b.Name+" "+paramText(b)+": "+n)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, "  "+units.Escape(n))
	}
	return nil
}
