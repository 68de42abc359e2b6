package runner

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// suitePeaks are one device's measured peaks: the best bandwidth in GB/s and
// the best compute rate per type ("float", "int" ...) in G operations/s.
type suitePeaks struct {
	bandwidth float64
	compute   map[string]float64
}

// devicePeaks takes each device's peaks from the peak benchmarks the suites
// emitted; a device with none falls back to the best figure of its own
// benchmarks (the suite's own measured peak).
func devicePeaks(bs []results.Benchmark) map[string]*suitePeaks {
	peaks := map[string]*suitePeaks{}
	get := func(dev string) *suitePeaks {
		p := peaks[dev]
		if p == nil {
			p = &suitePeaks{compute: map[string]float64{}}
			peaks[dev] = p
		}
		return p
	}
	marked := map[string]bool{}
	for _, b := range bs {
		kind, ok := clkernels.IsPeakBenchmark(b)
		if !ok || len(b.Figures) == 0 {
			continue
		}
		p := get(b.Device.Index)
		v := b.Figures[0].Value
		if kind == "bandwidth" {
			p.bandwidth = math.Max(p.bandwidth, v)
			marked[b.Device.Index+"|bw"] = true
		} else {
			t := strings.TrimPrefix(kind, "compute:")
			p.compute[t] = math.Max(p.compute[t], v)
			marked[b.Device.Index+"|"+t] = true
		}
	}
	for _, b := range bs {
		m := b.Measurement
		if m == nil || m.Throughput == nil || b.Error != "" || suiteSkipPeak(b) {
			continue
		}
		p := get(b.Device.Index)
		if m.Throughput.GBPerSecond > 0 && !marked[b.Device.Index+"|bw"] {
			p.bandwidth = math.Max(p.bandwidth, m.Throughput.GBPerSecond)
		}
		t := suiteOpsType(b)
		if m.Throughput.GOpsPerSecond > 0 && t != "" && !marked[b.Device.Index+"|"+t] {
			p.compute[t] = math.Max(p.compute[t], m.Throughput.GOpsPerSecond)
		}
	}
	return peaks
}

// suiteSkipPeak: transfers and launches are not measured against the device's
// memory or compute peak.
func suiteSkipPeak(b results.Benchmark) bool {
	return b.Kind == "suite:transfers" || b.Kind == "suite:launch" || strings.HasPrefix(b.Name, "transfers/") || strings.HasPrefix(b.Name, "launch/")
}

// suiteOpsType is the type whose compute peak a benchmark's operations compare
// with ("float" when it does not say).
func suiteOpsType(b results.Benchmark) string {
	m := b.Measurement
	if m == nil || m.Throughput == nil || (m.Throughput.OpsUnit != "FLOP" && m.Throughput.OpsUnit != "IOP") {
		return ""
	}
	if t := b.Params["type"]; t != "" {
		return t
	}
	return "float"
}

// peakPercent is a benchmark's throughput as a percentage of its device's
// peak; "" when there is no comparable peak.
func peakPercent(b results.Benchmark, peaks map[string]*suitePeaks) string {
	m := b.Measurement
	p := peaks[b.Device.Index]
	if m == nil || m.Throughput == nil || p == nil || suiteSkipPeak(b) {
		return ""
	}
	// Memory-bound kernels compare with the bandwidth peak, the compute
	// kernels with the compute peak of their type.
	// Local and image bandwidth compare with their own peaks (devicePeaks
	// keeps them beside the compute peaks, by kind).
	for _, kind := range []string{"local-bandwidth", "image-bandwidth"} {
		if strings.HasPrefix(b.Name, "peaks/"+kind) {
			if peak := p.compute[kind]; peak > 0 && m.Throughput.GBPerSecond > 0 {
				return fmt.Sprintf("%.0f%%", 100*m.Throughput.GBPerSecond/peak)
			}
			return ""
		}
	}
	if strings.HasPrefix(b.Name, "peaks/compute/") {
		if peak := p.compute[suiteOpsType(b)]; peak > 0 {
			return fmt.Sprintf("%.0f%%", 100*m.Throughput.GOpsPerSecond/peak)
		}
		return ""
	}
	if m.Throughput.GBPerSecond > 0 && p.bandwidth > 0 {
		return fmt.Sprintf("%.0f%%", 100*m.Throughput.GBPerSecond/p.bandwidth)
	}
	return ""
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
	}
	for _, b := range bs {
		if b.Name == clkernels.QuickSummaryName {
			writeQuickSummary(w, b, peaks[b.Device.Index], width)
		}
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
	for _, p := range b.OrderedParams() {
		ps = append(ps, p.Name+"="+p.Value)
	}
	return strings.Join(ps, " ")
}

func suiteMedian(b results.Benchmark) string {
	if b.Measurement == nil || len(b.Measurement.Samples) == 0 {
		return "-"
	}
	return fmtDur(b.Measurement.Summary.Median)
}

func suiteThroughput(b results.Benchmark) string {
	if b.Measurement == nil {
		var fs []string
		for _, f := range b.Figures {
			fs = append(fs, units.Quantity(f.Value, f.Unit))
		}
		return strings.Join(fs, ", ")
	}
	if len(b.Measurement.Samples) == 0 {
		return ""
	}
	return ThroughputText(b.Measurement.Throughput)
}

func suiteCV(b results.Benchmark) string {
	if b.Measurement == nil || b.Measurement.Summary.N < 2 {
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
	if p != nil && p.bandwidth > 0 {
		fmt.Fprintf(w, "  peak bandwidth    %s\n", units.Rate(p.bandwidth, "B"))
	}
	if p != nil && p.compute["float"] > 0 {
		fmt.Fprintf(w, "  peak fp32         %s\n", units.Rate(p.compute["float"], "FLOP"))
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
