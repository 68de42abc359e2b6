package clkernels

import (
	"fmt"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/sizing"
)

func peaksSteps(p *plan) {
	ws, ok := p.memoryBytes()
	if ok {
		widths := p.peakBandwidth(map[string][]int{PatternStride: VectorWidths, PatternChunk: VectorWidths, PatternBlock: {4, 16}, PatternCopy: {1, 4, 16}, PatternRMW: {1, 4, 16}}, ws.Memory.Bytes)
		p.cacheBandwidth(ws, widths)
	}
	p.peakLocalBandwidth(VectorWidths)
	if ImageSupported(p.dev) && ok {
		p.peakImageBandwidth(ws.Memory.Bytes)
	}
	p.peakCompute(ComputeTypes, VectorWidths)
}

// cacheBandwidth declares each pattern at its best width (widths tells it
// from the records that ran) over the fastest working set inside the reported
// cache (ws.Cache), named peaks/cache-bandwidth/PATTERN/floatW with region
// "cache" (declared, and listed, as peaks/cache-bandwidth/PATTERN), and
// peaks/cache-bandwidth-best, the best of them: the in-cache figure clpeak's
// buffers give on a large cache, never a memory figure.
func (p *plan) cacheBandwidth(ws sizing.Plateau, widths func(ran map[string]results.Benchmark, pattern string) (int, bool)) {
	if ws.Cache.Bytes == 0 || p.o.Small {
		return
	}
	var names []string
	for _, pat := range BandwidthPatterns {
		bytes := ws.Cache.Bytes
		if pat == PatternCopy {
			bytes /= 2
		}
		name := "peaks/cache-bandwidth/" + pat
		def := func(w int) (results.Identity, []param) {
			id, ps := regionDef(p.dev, ws.Cache.Bytes, bandwidthID(pat, w), param{"pattern", pat}, param{"width", fmt.Sprint(w)})
			id.Kind = results.KindCacheBandwidth
			return id, ps
		}
		id, ps := def(0)
		width := 0
		p.add(harness.Step{Base: p.base(name, &id, append(ps[:1:1], param{"width", "the pattern's best"})), Modes: harness.Modes{NoPhases: true},
			When: func(ran map[string]results.Benchmark) bool {
				w, ok := widths(ran, pat)
				width = w
				return ok
			},
			Make: func() (harness.Bench, error) {
				kb, err := BandwidthBenchmark(p.dev, pat, width, bytes)
				return harness.Kernel(kb), err
			},
			Finish: func(b *results.Benchmark) {
				id, ps := def(width)
				b.Name, b.Identity.Width = fmt.Sprintf("%s/float%d", name, width), id.Width
				for _, x := range ps {
					b.SetParam(x.name, x.value)
				}
			}})
		names = append(names, name)
	}
	p.best("cache-bandwidth", results.Identity{Kind: results.KindCacheBandwidth}, "peak in-cache global memory bandwidth", names)
}

// peakImageBandwidth declares the image walks over an image of size bytes
// and the best of them (clpeak's "image memory bandwidth").
func (p *plan) peakImageBandwidth(size int64) {
	var names []string
	for _, walk := range ImageWalks {
		names = append(names, p.sized("peaks/image-bandwidth/"+walk, size, func(n int64) (results.Identity, []param) {
			return regionDef(p.dev, n, results.Identity{Kind: results.KindImageBandwidth, Pattern: walk}, param{"walk", walk})
		}, func(n int64) (*runtime.KernelBenchmark, error) {
			return ImageBandwidthBenchmark(p.dev, n, walk)
		}))
	}
	p.best("image-bandwidth", results.Identity{Kind: results.KindImageBandwidth}, "peak image bandwidth", names)
}

// peakLocalBandwidth declares local memory bandwidth at each width and the
// best of them (clpeak's "local memory bandwidth").
func (p *plan) peakLocalBandwidth(widths []int) {
	var names []string
	for _, w := range widths {
		id := &results.Identity{Kind: results.KindLocalBandwidth, Type: "float", Width: w}
		names = append(names, p.kernel(fmt.Sprintf("peaks/local-bandwidth/float%d", w), id, []param{{"width", fmt.Sprint(w)}}, func() (*runtime.KernelBenchmark, error) {
			return LocalBandwidthBenchmark(p.dev, w, p.iters())
		}))
	}
	p.best("local-bandwidth", results.Identity{Kind: results.KindLocalBandwidth}, "peak local memory bandwidth", names)
}

// best declares peaks/KIND-best: the best valid median bandwidth of the
// benchmarks names, of identity id marked Best (nothing when none gave one).
func (p *plan) best(kind string, id results.Identity, figure string, names []string) {
	id.Best = true
	p.derived("peaks/"+kind+"-best", &id, nil, names, func(ran map[string]results.Benchmark) ([]results.Figure, map[string]any, bool) {
		best, bestName := bestOf(ran, names, false)
		if best == 0 {
			return nil, nil, false
		}
		bestName = ran[bestName].Name // a cache-bandwidth benchmark is renamed with its width
		return []results.Figure{{Name: figure, Value: best, Unit: "GB/s", Note: "best median of " + bestName}}, map[string]any{ExtraPeak: kind, "from": bestName}, true
	})
}

// peakBandwidth declares each pattern of BandwidthPatterns found in widths
// at the widths given over a working set of bytes (a copy splits it between
// its two buffers), then the best as the bandwidth peak, naming the pattern
// that set it. It returns what tells, once they ran, the best width of each
// pattern.
func (p *plan) peakBandwidth(widths map[string][]int, bytes int64) func(ran map[string]results.Benchmark, pattern string) (int, bool) {
	var all []string
	byPattern := map[string][]string{}
	for _, pat := range BandwidthPatterns {
		for _, w := range widths[pat] {
			name := p.sized(fmt.Sprintf("peaks/bandwidth/%s/float%d", pat, w), bytes, func(n int64) (results.Identity, []param) {
				return regionDef(p.dev, n, bandwidthID(pat, w), param{"pattern", pat}, param{"width", fmt.Sprint(w)})
			}, func(n int64) (*runtime.KernelBenchmark, error) {
				if pat == PatternCopy {
					n = p.bufferBytes(n, 2)
				}
				return BandwidthBenchmark(p.dev, pat, w, n)
			})
			all = append(all, name)
			byPattern[pat] = append(byPattern[pat], name)
		}
	}
	p.derived("peaks/bandwidth-best", &results.Identity{Kind: results.KindBandwidth, Best: true}, nil, all, func(ran map[string]results.Benchmark) ([]results.Figure, map[string]any, bool) {
		best, bestName := bestOf(ran, all, false)
		if best == 0 {
			return nil, nil, false
		}
		traffic := PatternTraffic(ran[bestName].Identity.Pattern)
		return []results.Figure{{Name: "peak global memory bandwidth", Value: best, Unit: "GB/s", Note: "best median of " + bestName + " (" + traffic + ")"}},
			map[string]any{ExtraPeak: "bandwidth", "from": bestName, "pattern": traffic}, true
	})
	return func(ran map[string]results.Benchmark, pattern string) (int, bool) {
		_, name := bestOf(ran, byPattern[pattern], false)
		if name == "" {
			return 0, false
		}
		return ran[name].Identity.Width, true
	}
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

func (p *plan) peakCompute(types []string, widths []int) {
	for _, typ := range types {
		if !ComputeSupported(p.dev, typ) {
			continue
		}
		unit := "GFLOP/s"
		if integerType(typ) {
			unit = "GIOP/s"
		}
		var names []string
		for _, w := range widths {
			id := computeID(typ, w, false)
			names = append(names, p.kernel(fmt.Sprintf("peaks/compute/%s/%d", typ, w), &id, []param{{"type", typ}, {"width", fmt.Sprint(w)}}, func() (*runtime.KernelBenchmark, error) {
				return ComputeBenchmark(p.dev, typ, w, p.iters())
			}))
		}
		p.computeBest(typ, unit, names)
	}
}

// computeBest declares peaks/compute-best/TYPE: the best valid median of the
// compute benchmarks names.
func (p *plan) computeBest(typ, unit string, names []string) {
	id := computeID(typ, 0, true)
	p.derived("peaks/compute-best/"+typ, &id, []param{{"type", typ}}, names, func(ran map[string]results.Benchmark) ([]results.Figure, map[string]any, bool) {
		best, bestName := bestOf(ran, names, true)
		if best == 0 {
			return nil, nil, false
		}
		return []results.Figure{{Name: "peak " + typ + " compute", Value: best, Unit: unit, Note: "best median of " + bestName}},
			map[string]any{ExtraPeak: "compute", "type": typ, "from": bestName}, true
	})
}
