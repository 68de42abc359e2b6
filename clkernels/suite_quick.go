package clkernels

import (
	"fmt"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// QuickSummary names the figures of the quick suite's last benchmark.
const QuickSummaryName = "quick/summary"

func runQuick(r *runner) error {
	ws, err := r.workingSet()
	if err != nil {
		return err
	}
	if ws.Memory.Bytes > 0 {
		if _, err := r.peakBandwidth(map[string][]int{PatternStride: {4, 16}, PatternChunk: {4, 16}}, ws.Memory.Bytes); err != nil {
			return err
		}
	}
	var builds []results.Figure
	fp32, bestFP32 := 0.0, ""
	for _, w := range []int{4, 16} {
		name := fmt.Sprintf("peaks/compute/float/%d", w)
		var kb *runtime.KernelBenchmark
		iters := 0
		if r.o.Small {
			iters = 4
		}
		res, err := r.with(computeID("float", w, false)).kernel(name, []param{{"type", "float"}, {"width", fmt.Sprint(w)}}, func() (*runtime.KernelBenchmark, error) {
			var err error
			kb, err = ComputeBenchmark(r.dev, "float", w, iters)
			return kb, err
		})
		if err != nil {
			return err
		}
		if kb != nil && kb.Build.Total > 0 {
			note := "built from source"
			if kb.Build.FromCache {
				note = "from the binary cache"
			} else if kb.Build.CacheNote != "" {
				note += " (cache: " + kb.Build.CacheNote + ")"
			}
			builds = append(builds, results.Figure{Name: "program build " + name, Value: ms(kb.Build.Total), Unit: "ms", Note: note})
		}
		if v := throughput(res, true); v > fp32 && validOK(res) {
			fp32, bestFP32 = v, name
		}
	}
	if fp32 > 0 {
		if err := r.with(computeID("float", 0, true)).figures("peaks/compute-best/float", []param{{"type", "float"}}, []results.Figure{{Name: "peak float compute", Value: fp32, Unit: "GFLOP/s", Note: "best median of " + bestFP32}},
			map[string]any{ExtraPeak: "compute", "type": "float", "from": bestFP32}); err != nil {
			return err
		}
	}
	if err := r.streams([]string{StreamCopy, StreamTriad, StreamDot}, []string{"float"}, 0); err != nil {
		return err
	}
	var launch []results.Figure
	for _, mode := range LaunchModes {
		res, err := r.launch(mode)
		if err != nil {
			return err
		}
		if res == nil || len(res.Samples) == 0 {
			continue
		}
		if mode == LaunchDispatch && res.Timer != measure.TimerDevice {
			continue // only the device timer sees dispatch; its row says why it was not used
		}
		if mode == LaunchThroughput {
			launch = append(launch, results.Figure{Name: "launches per second", Value: throughput(res, true) * 1e9, Unit: "launches/s", Note: "empty kernel, back to back"})
		} else {
			launch = append(launch, results.Figure{Name: "launch " + mode, Value: us(res.Summary.Median), Unit: "us", Note: "empty kernel, median"})
		}
	}
	tsize := int64(16 << 20)
	if r.o.Small {
		tsize = 64 << 10
	}
	if r.o.MaxSize > 0 && tsize > r.o.MaxSize {
		tsize = r.o.MaxSize
	}
	if err := r.transfers([]string{TransferPageable, TransferPinned}, []int64{tsize}); err != nil {
		return err
	}
	figs := append(launch, builds...)
	return r.with(results.Identity{Kind: results.KindSummary}).figures(QuickSummaryName, nil, figs, map[string]any{"device": r.dev.Info.Name, "zero_copy": ZeroCopy(r.dev)})
}
