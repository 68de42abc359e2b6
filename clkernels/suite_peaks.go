package clkernels

import (
	"fmt"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/sizing"
)

// A racer is one of the benchmarks a peak is the best of.
type racer struct {
	name   string
	id     results.Identity
	params []param
	make   func() (*runtime.KernelBenchmark, error)
}

func runPeaks(r *runner) error {
	ws, err := r.workingSet()
	if err != nil {
		return err
	}
	if ws.Memory.Bytes > 0 {
		best, err := r.peakBandwidth(map[string][]int{PatternStride: VectorWidths, PatternChunk: VectorWidths, PatternBlock: {4, 16}, PatternCopy: {1, 4, 16}, PatternRMW: {1, 4, 16}}, ws.Memory.Bytes)
		if err != nil {
			return err
		}
		if err := r.cacheBandwidth(ws, best); err != nil {
			return err
		}
	}
	if err := r.peakLocalBandwidth(VectorWidths); err != nil {
		return err
	}
	if ImageSupported(r.dev) && ws.Memory.Bytes > 0 {
		if err := r.peakImageBandwidth(ws.Memory.Bytes); err != nil {
			return err
		}
	}
	return r.peakCompute(ComputeTypes, VectorWidths)
}

// cacheBandwidth measures each pattern at its best width over the fastest
// working set inside the reported cache (ws.Cache), named
// peaks/cache-bandwidth/PATTERN/floatW with region "cache", and emits the best
// as peaks/cache-bandwidth-best: the in-cache figure clpeak's buffers give on
// a large cache, never a memory figure.
func (r *runner) cacheBandwidth(ws sizing.Plateau, widths map[string]int) error {
	if ws.Cache.Bytes == 0 || r.o.Small {
		return nil
	}
	var rs []racer
	for _, p := range BandwidthPatterns {
		w, ok := widths[p]
		if !ok {
			continue
		}
		bytes := ws.Cache.Bytes
		if p == PatternCopy {
			bytes /= 2
		}
		id, ps := regionDef(r.dev, ws.Cache.Bytes, bandwidthID(p, w), param{"pattern", p}, param{"width", fmt.Sprint(w)})
		id.Kind = results.KindCacheBandwidth
		rs = append(rs, racer{fmt.Sprintf("peaks/cache-bandwidth/%s/float%d", p, w), id, ps, func() (*runtime.KernelBenchmark, error) {
			return BandwidthBenchmark(r.dev, p, w, bytes)
		}})
	}
	best := results.Identity{Kind: results.KindCacheBandwidth}
	return r.bandwidthPeak("cache-bandwidth", best, "peak in-cache global memory bandwidth", rs)
}

// peakImageBandwidth races the image walks over an image of size bytes and
// emits the best (clpeak's "image memory bandwidth").
func (r *runner) peakImageBandwidth(size int64) error {
	best, bestName := 0.0, ""
	for _, walk := range ImageWalks {
		name := "peaks/image-bandwidth/" + walk
		res, err := r.kernelSized(name, size, func(n int64) (results.Identity, []param) {
			return regionDef(r.dev, n, results.Identity{Kind: results.KindImageBandwidth, Pattern: walk}, param{"walk", walk})
		}, func(n int64) (*runtime.KernelBenchmark, error) {
			return ImageBandwidthBenchmark(r.dev, n, walk)
		})
		if err != nil {
			return err
		}
		if v := throughput(res, false); v > best && validOK(res) {
			best, bestName = v, name
		}
	}
	return r.peakFigure("image-bandwidth", results.Identity{Kind: results.KindImageBandwidth}, "peak image bandwidth", best, bestName)
}

// peakLocalBandwidth measures local memory bandwidth at each width and emits
// the best (clpeak's "local memory bandwidth").
func (r *runner) peakLocalBandwidth(widths []int) error {
	iters := 0
	if r.o.Small {
		iters = 4
	}
	var rs []racer
	for _, w := range widths {
		id := results.Identity{Kind: results.KindLocalBandwidth, Type: "float", Width: w}
		rs = append(rs, racer{fmt.Sprintf("peaks/local-bandwidth/float%d", w), id, []param{{"width", fmt.Sprint(w)}}, func() (*runtime.KernelBenchmark, error) {
			return LocalBandwidthBenchmark(r.dev, w, iters)
		}})
	}
	return r.bandwidthPeak("local-bandwidth", results.Identity{Kind: results.KindLocalBandwidth}, "peak local memory bandwidth", rs)
}

// bandwidthPeak runs the racers and emits the best valid median bandwidth as
// the figure peaks/KIND-best of identity id (nothing when none gave one).
func (r *runner) bandwidthPeak(kind string, id results.Identity, figure string, racers []racer) error {
	best, bestName := 0.0, ""
	for _, c := range racers {
		res, err := r.with(c.id).kernel(c.name, c.params, c.make)
		if err != nil {
			return err
		}
		if v := throughput(res, false); v > best && validOK(res) {
			best, bestName = v, c.name
		}
	}
	return r.peakFigure(kind, id, figure, best, bestName)
}

// peakFigure emits the best median bandwidth of a race as peaks/KIND-best,
// of identity id marked Best (nothing when none gave one).
func (r *runner) peakFigure(kind string, id results.Identity, figure string, best float64, bestName string) error {
	if best == 0 {
		return nil
	}
	id.Best = true
	return r.with(id).figures("peaks/"+kind+"-best", nil, []results.Figure{{Name: figure, Value: best, Unit: "GB/s", Note: "best median of " + bestName}},
		map[string]any{ExtraPeak: kind, "from": bestName})
}

// peakBandwidth measures each pattern of BandwidthPatterns found in widths at
// the widths given over a working set of bytes (a copy splits it between its
// two buffers), then emits the best as the bandwidth peak, naming the pattern
// that set it. It returns the best width of each pattern.
func (r *runner) peakBandwidth(widths map[string][]int, bytes int64) (map[string]int, error) {
	best, bestName, bestPattern := 0.0, "", ""
	bestWidth := map[string]int{}
	for _, p := range BandwidthPatterns {
		pbest := 0.0
		for _, w := range widths[p] {
			name := fmt.Sprintf("peaks/bandwidth/%s/float%d", p, w)
			res, err := r.kernelSized(name, bytes, func(n int64) (results.Identity, []param) {
				return regionDef(r.dev, n, bandwidthID(p, w), param{"pattern", p}, param{"width", fmt.Sprint(w)})
			}, func(n int64) (*runtime.KernelBenchmark, error) {
				if p == PatternCopy {
					n = r.bufferBytes(n, 2)
				}
				return BandwidthBenchmark(r.dev, p, w, n)
			})
			if err != nil {
				return bestWidth, err
			}
			v := throughput(res, false)
			if !validOK(res) {
				continue
			}
			if v > pbest {
				pbest, bestWidth[p] = v, w
			}
			if v > best {
				best, bestName, bestPattern = v, name, p
			}
		}
	}
	if best == 0 {
		return bestWidth, nil
	}
	traffic := PatternTraffic(bestPattern)
	return bestWidth, r.with(results.Identity{Kind: results.KindBandwidth, Best: true}).figures("peaks/bandwidth-best", nil, []results.Figure{{Name: "peak global memory bandwidth", Value: best, Unit: "GB/s", Note: "best median of " + bestName + " (" + traffic + ")"}},
		map[string]any{ExtraPeak: "bandwidth", "from": bestName, "pattern": traffic})
}

// bandwidthID is the identity of the global bandwidth of pattern at width
// (floats).
func bandwidthID(pattern string, width int) results.Identity {
	return results.Identity{Kind: results.KindBandwidth, Pattern: pattern, Traffic: PatternTraffic(pattern), Type: "float", Width: width}
}

// computeID is the identity of the compute peak of typ at width; best:
// the race's best figure.
func computeID(typ string, width int, best bool) results.Identity {
	return results.Identity{Kind: results.KindCompute, Type: typ, Width: width, Best: best}
}

func validOK(res *measure.Result) bool {
	return res != nil && (res.Valid == nil || *res.Valid) && len(res.Samples) > 0
}

func (r *runner) peakCompute(types []string, widths []int) error {
	for _, typ := range types {
		if !ComputeSupported(r.dev, typ) {
			continue
		}
		best, bestName := 0.0, ""
		unit := "GFLOP/s"
		if integerType(typ) {
			unit = "GIOP/s"
		}
		for _, w := range widths {
			name := fmt.Sprintf("peaks/compute/%s/%d", typ, w)
			iters := 0
			if r.o.Small {
				iters = 4
			}
			res, err := r.with(computeID(typ, w, false)).kernel(name, []param{{"type", typ}, {"width", fmt.Sprint(w)}}, func() (*runtime.KernelBenchmark, error) {
				return ComputeBenchmark(r.dev, typ, w, iters)
			})
			if err != nil {
				return err
			}
			if v := throughput(res, true); v > best && validOK(res) {
				best, bestName = v, name
			}
		}
		if best > 0 {
			if err := r.with(computeID(typ, 0, true)).figures("peaks/compute-best/"+typ, []param{{"type", typ}}, []results.Figure{{Name: "peak " + typ + " compute", Value: best, Unit: unit, Note: "best median of " + bestName}},
				map[string]any{ExtraPeak: "compute", "type": typ, "from": bestName}); err != nil {
				return err
			}
		}
	}
	return nil
}
