package runner

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// suitePeaks are one device's peaks in a suite's table: its ceilings as the
// device profile takes them (profile.FromBenchmarks over this run's
// benchmarks of it), and its best image bandwidth of each region (not a
// profile figure); the one ceiling rule (profile.SlotOf) files a benchmark
// in both, so a figure of the caches is never a memory peak.
type suitePeaks struct {
	prof  *profile.Profile
	image map[string]float64
}

// devicePeaks takes each device's peaks from the benchmarks the suites
// emitted on it.
func devicePeaks(bs []results.Benchmark) map[string]*suitePeaks {
	byDev := map[string][]results.Benchmark{}
	var order []string
	for _, b := range bs {
		if _, ok := byDev[b.Device.Index]; !ok {
			order = append(order, b.Device.Index)
		}
		byDev[b.Device.Index] = append(byDev[b.Device.Index], b)
	}
	peaks := map[string]*suitePeaks{}
	for _, dev := range order {
		list := byDev[dev]
		p := &suitePeaks{prof: profile.FromBenchmarks(list[0].Device, list, "this run", time.Time{}), image: map[string]float64{}}
		for _, b := range list {
			if s, ok := profile.BenchmarkSlot(b); ok && s.Figure == profile.FigureImageBandwidth && valid(b) {
				p.image[s.Region] = math.Max(p.image[s.Region], b.Measurement.Throughput.GBPerSecond)
			}
		}
		peaks[dev] = p
	}
	return peaks
}

// valid reports whether b carries a figure with a throughput that passed
// its check.
func valid(b results.Benchmark) bool {
	if !b.HasFigure() || b.Measurement.Throughput == nil {
		return false
	}
	return b.Measurement.Valid == nil || *b.Measurement.Valid
}

// percentOf is v as a percentage of the ceiling c; "" without one.
func percentOf(v float64, c *profile.Ceiling) string {
	if c == nil || c.Value <= 0 || v <= 0 {
		return ""
	}
	return fmt.Sprintf("%.0f%%", 100*v/c.Value)
}

// peakPercent is a benchmark's throughput as a percentage of its device's
// peak in the benchmark's slot (profile.SlotOf): "" when there is no
// comparable peak (transfers and launches have none), and for a benchmark
// that carries no figure (failed, invalid or interrupted). A bandwidth
// measured within the caches is a percentage of the caches' peak, marked
// "(cache)", never of the memory's.
func peakPercent(b results.Benchmark, peaks map[string]*suitePeaks) string {
	p := peaks[b.Device.Index]
	s, ok := profile.BenchmarkSlot(b)
	if p == nil || !ok || !b.HasFigure() || b.Measurement.Throughput == nil {
		return ""
	}
	t := b.Measurement.Throughput
	var pct string
	switch s.Figure {
	case profile.FigureImageBandwidth:
		pct = percentOf(t.GBPerSecond, &profile.Ceiling{Value: p.image[s.Region]})
	case profile.FigureBandwidth, profile.FigureLocalBandwidth:
		pct = percentOf(t.GBPerSecond, p.prof.Ceiling(s))
	case profile.FigureCompute:
		pct = percentOf(t.GOpsPerSecond, p.prof.Ceiling(s))
	}
	if pct != "" && s.Region == profile.RegionCache {
		pct += " (cache)"
	}
	return pct
}

// writeSuiteReport prints a table per suite and device fitted to width, each
// warning a numbered note under its table, then the quick summary when there
// is one.
func writeSuiteReport(w io.Writer, bs []results.Benchmark, width int) {
	peaks := devicePeaks(bs)
	type group struct{ kind, dev string }
	var order []group
	byGroup := map[group][]results.Benchmark{}
	for _, b := range bs {
		g := group{b.Kind, b.Device.Index + " " + b.Device.Name}
		if _, ok := byGroup[g]; !ok {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], b)
	}
	for i, g := range order {
		if i > 0 {
			fmt.Fprintln(w)
		}
		name := strings.TrimPrefix(g.kind, "suite:")
		table.WriteWrapped(w, fmt.Sprintf("== %s on %s", name, g.dev), width, "", "   ")
		if writeExperiment(w, name, byGroup[g], peaks, width) {
			continue
		}
		t := suiteTable(true)
		for _, b := range byGroup[g] {
			if b.Name == clkernels.QuickSummaryName {
				continue
			}
			t.Row(b.Name, suiteParams(b), suiteMedian(b), suiteThroughput(b), peakPercent(b, peaks), suiteCV(b), suiteNotes(t, b))
		}
		for _, n := range suiteTimerNotes(byGroup[g]) {
			t.Note("timer: " + n)
		}
		t.Write(w, width)
		writeProbes(w, byGroup[g], width)
	}
	for _, b := range bs {
		if b.Name == clkernels.QuickSummaryName {
			writeQuickSummary(w, b, peaks[b.Device.Index], width)
		}
	}
}

// writeProbes writes the working-set search's probes of bs, if any, as a
// small table of size and rate: where the search found the memory figures'
// working set, and which sizes the reported cache holds.
func writeProbes(w io.Writer, bs []results.Benchmark, width int) {
	for _, b := range bs {
		if b.Name != clkernels.WorkingSetName || len(b.Figures) == 0 {
			continue
		}
		fmt.Fprintln(w)
		table.WriteWrapped(w, "working-set probes on "+b.Device.Name+" (read bandwidth by working set):", width, "", "  ")
		t := table.New(table.Column{Header: "SIZE", Right: true}, table.Column{Header: "RATE", Right: true}, table.Column{Header: "WHERE", Wrap: true})
		t.Indent = "  "
		for _, f := range b.Figures {
			t.Row(strings.TrimPrefix(f.Name, "probe at "), units.Quantity(f.Value, f.Unit), f.Note)
		}
		t.Write(w, width)
	}
}

// suiteTable is the common table of the suites (peak: with a % PEAK column).
func suiteTable(peak bool) *table.Table {
	cols := []table.Column{
		{Header: "BENCHMARK", Wrap: true},
		{Header: "PARAMS", Wrap: true},
		{Header: "MEDIAN", Right: true},
		{Header: "THROUGHPUT", Wrap: true},
	}
	if peak {
		cols = append(cols, table.Column{Header: "% PEAK", Short: "%PK", Right: true, Drop: 1})
	}
	cols = append(cols, table.Column{Header: "CV", Right: true, Drop: 2}, table.Column{Header: "NOTES", Wrap: true})
	return table.New(cols...)
}

func suiteParams(b results.Benchmark) string {
	var ps []string
	if s := results.ParamsBeyondName(&b); s != "" {
		ps = append(ps, s)
	}
	// The launch benchmarks' local size, settled by a race (not a param).
	if l, ok := b.Extra["local_size"].(string); ok {
		ps = append(ps, "local="+l)
	}
	return strings.Join(ps, " ")
}

func suiteMedian(b results.Benchmark) string {
	if !b.HasFigure() {
		return "-"
	}
	return fmtDur(b.Measurement.Summary.Median)
}

func suiteThroughput(b results.Benchmark) string {
	if b.Name == clkernels.WorkingSetName {
		// Its probes get a table of their own under the suite's.
		for _, f := range b.Figures {
			if strings.HasPrefix(f.Note, "the memory figures'") {
				return units.Quantity(f.Value, f.Unit) + " (probes below)"
			}
		}
		return ""
	}
	if b.Measurement == nil {
		var fs []string
		for _, f := range b.Figures {
			fs = append(fs, units.Quantity(f.Value, f.Unit))
		}
		return strings.Join(fs, ", ")
	}
	if !b.HasFigure() {
		return ""
	}
	return ThroughputText(b.Measurement.Throughput)
}

func suiteCV(b results.Benchmark) string {
	if !b.HasFigure() || b.Measurement.Summary.N < 2 {
		return ""
	}
	return fmt.Sprintf("%.1f%%", 100*b.Measurement.Summary.CV)
}

// suiteNotes adds b's error and warnings to t's notes and returns their numbers.
func suiteNotes(t *table.Table, b results.Benchmark) string {
	var ids []int
	if b.Error != "" {
		ids = append(ids, t.Note(b.Name+": ERROR: "+b.Error))
	}
	if m := b.Measurement; m != nil {
		for _, x := range m.AllWarnings() {
			if isTimerNote(x) {
				x = "host timer: see the timer note"
			}
			ids = append(ids, t.Note(x))
		}
	}
	if b.Params["device memory"] == "zero-copy" {
		ids = append(ids, t.Note("zero-copy device: a host memory copy, not a bus transfer"))
	}
	return table.Refs(ids)
}

// writeQuickSummary prints the quick suite's closing summary.
func writeQuickSummary(w io.Writer, b results.Benchmark, p *suitePeaks, width int) {
	fmt.Fprintln(w)
	table.WriteWrapped(w, fmt.Sprintf("Summary: %s (%s)", b.Device.Name, b.Device.Index), width, "", "  ")
	if p != nil && p.prof != nil {
		switch bw, cache := p.prof.Bandwidth, p.prof.CacheBandwidth; {
		case bw != nil:
			fmt.Fprintf(w, "  peak bandwidth    %s\n", units.Rate(bw.Value, "B"))
		case cache != nil:
			table.WriteWrapped(w, fmt.Sprintf("none measured beyond the caches (within them: %s); 'clmeter suite peaks' measures it", units.Rate(cache.Value, "B")), width, "  peak bandwidth    ", strings.Repeat(" ", 20))
		}
		if c := p.prof.Compute["float"]; c != nil {
			fmt.Fprintf(w, "  peak fp32         %s\n", units.Rate(c.Value, "FLOP"))
		}
	}
	var launch []string
	for _, f := range b.Figures {
		switch {
		case strings.HasPrefix(f.Name, "launch "):
			launch = append(launch, strings.TrimPrefix(f.Name, "launch ")+" "+units.Quantity(f.Value, "us"))
		case f.Name == "launches per second":
			launch = append(launch, units.Rate(f.Value/1e9, "launches"))
		}
	}
	if len(launch) > 0 {
		table.WriteWrapped(w, strings.Join(launch, ", "), width, "  launch overhead   ", strings.Repeat(" ", 20))
	}
	for _, f := range b.Figures {
		if strings.HasPrefix(f.Name, "program build ") {
			table.WriteWrapped(w, fmt.Sprintf("%s: %s, %s", f.Name, units.Quantity(f.Value, "ms"), f.Note), width, "  ", "    ")
		}
	}
	if zc, _ := b.Extra["zero_copy"].(bool); zc {
		fmt.Fprintln(w, "  transfers         zero-copy device: host and device share memory")
	}
}
