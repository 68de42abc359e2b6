package clkernels

import (
	"fmt"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// QuickSummaryName names the quick suite's last benchmark: its launch and
// build figures.
const QuickSummaryName = "quick/summary"

func quickSteps(p *plan) {
	if ws, ok := p.memoryBytes(); ok {
		p.peakBandwidth(map[string][]int{PatternStride: {4, 16}, PatternChunk: {4, 16}}, ws.Memory.Bytes)
	}
	kbs := map[string]*runtime.KernelBenchmark{}
	var computes []string
	for _, w := range []int{4, 16} {
		name := fmt.Sprintf("peaks/compute/%s/%d", "float", w)
		id := computeID("float", w, false)
		computes = append(computes, p.kernel(name, &id, []param{{"type", "float"}, {"width", fmt.Sprint(w)}}, func() (*runtime.KernelBenchmark, error) {
			kb, err := ComputeBenchmark(p.dev, "float", w, p.iters())
			kbs[name] = kb // its build, read once it ran
			return kb, err
		}))
	}
	p.computeBest("float", "GFLOP/s", computes)
	p.streams([]string{StreamCopy, StreamTriad, StreamDot}, []string{"float"}, 0)
	var launches []string
	for _, mode := range LaunchModes {
		launches = append(launches, p.launch(mode))
	}
	tsize := int64(16 << 20)
	if p.o.Small {
		tsize = 64 << 10
	}
	if p.o.MaxSize > 0 && tsize > p.o.MaxSize {
		tsize = p.o.MaxSize
	}
	p.transfers([]string{TransferPageable, TransferPinned}, []int64{tsize})
	p.derived(QuickSummaryName, &results.Identity{Kind: results.KindSummary}, nil, append(launches, computes...), func(ran map[string]results.Benchmark) ([]results.Figure, map[string]any, bool) {
		figs := launchFigures(ran, launches)
		for _, n := range computes {
			if kb := kbs[n]; kb != nil && kb.Build.Total > 0 {
				figs = append(figs, buildFigure(n, kb.Build))
			}
		}
		return figs, map[string]any{"device": p.dev.Info.Name, "zero_copy": ZeroCopy(p.dev)}, true
	})
}

// buildFigure is the build time of the program of benchmark name.
func buildFigure(name string, b runtime.BuildInfo) results.Figure {
	note := "built from source"
	if b.FromCache {
		note = "from the binary cache"
	} else if b.CacheNote != "" {
		note += " (cache: " + b.CacheNote + ")"
	}
	return results.Figure{Name: "program build " + name, Value: ms(b.Total), Unit: "ms", Note: note}
}

// launchFigures are the quick summary's launch figures from the launch
// benchmarks names that ran.
func launchFigures(ran map[string]results.Benchmark, names []string) []results.Figure {
	var figs []results.Figure
	for _, n := range names {
		b, ok := ran[n]
		res := b.Measurement
		if !ok || res == nil || len(res.Samples) == 0 {
			continue
		}
		mode := b.Identity.Mode
		if mode == LaunchDispatch && res.Timer != measure.TimerDevice {
			continue // only the device timer sees dispatch; its row says why it was not used
		}
		if mode == LaunchThroughput {
			figs = append(figs, results.Figure{Name: "launches per second", Value: throughput(res, true) * 1e9, Unit: "launches/s", Note: "empty kernel, back to back"})
		} else {
			figs = append(figs, results.Figure{Name: "launch " + mode, Value: us(res.Summary.Median), Unit: "us", Note: "empty kernel, median"})
		}
	}
	return figs
}
