package sizing

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/clmeter/clmeter/units"
)

// PlateauTolerance is how close the figures of three sizes, each double the
// last, must be to stand on one plateau: 5%, above the noise of a short probe on a busy machine and
// below the step from a last-level cache to memory (1.5-3x on the CPUs and GPUs
// seen).
const PlateauTolerance = 0.05

// Regions of a bandwidth figure: where its working set lives.
const (
	// RegionMemory: the working set is larger than every cache the device
	// reports, at a plateau or at the memory budget.
	RegionMemory = "memory"
	// RegionCache: the working set fits in the last-level cache the device
	// reports (the figure is that cache's, not memory's).
	RegionCache = "cache"
)

// A Step is one size the search measured and the figure it gave.
type Step struct {
	Bytes int64   `json:"bytes"`
	GBps  float64 `json:"gb_per_s"`
}

// A Probe measures the bandwidth of a working set of bytes, in GB/s.
type Probe func(ctx context.Context, bytes int64) (float64, error)

// A Plateau is what the search found: the working set a memory bandwidth figure
// is measured at, and how it was found.
type Plateau struct {
	// Steps are every size measured, in order.
	Steps []Step `json:"steps"`
	// Memory is the size memory figures are measured at: the middle of the
	// three sizes of the first plateau beyond the reported cache, or the
	// largest size the budget allowed when none was found.
	Memory Step `json:"memory"`
	// Found is true when Memory is on a plateau (else the budget ended the
	// search, or TimeBound).
	Found bool `json:"plateau_found"`
	// TimeBound is true when the search stopped, beyond the reported cache,
	// because one read of the working set took longer than SearchWithin's
	// bound.
	TimeBound bool `json:"time_bound,omitempty"`
	// Region is RegionMemory when Memory is beyond the reported cache, else
	// RegionCache (the budget did not reach past it).
	Region string `json:"region"`
	// Cache is the fastest size smaller than Memory whose figure beats
	// memory's by more than the tolerance (zero when none does): a cache's
	// figure, as clpeak's buffers give on large caches.
	Cache Step `json:"cache"`
	// CacheBytes is the cache size the device reported; Budget the budget.
	CacheBytes int64  `json:"cache_bytes"`
	Budget     Budget `json:"budget"`
}

// Note says for people where the plateau was found and what the budget
// allowed: "plateau at 256 MiB (128 MiB within 1.2%); budget ...".
func (p Plateau) Note() string {
	var s string
	switch {
	case p.Found:
		s = fmt.Sprintf("working set %s: a plateau beyond %s (two doublings within %.0f%%)", units.Bytes(p.Memory.Bytes), p.cacheText(), 100*PlateauTolerance)
	case p.TimeBound:
		s = fmt.Sprintf("working set %s: beyond %s, where one read took %s, longer than a sample: the search stopped before a plateau", units.Bytes(p.Memory.Bytes), p.cacheText(), units.Duration(time.Duration(float64(p.Memory.Bytes)/p.Memory.GBps)))
	case p.Region == RegionMemory:
		s = fmt.Sprintf("working set %s: beyond %s, where the memory budget ended the search before a plateau", units.Bytes(p.Memory.Bytes), p.cacheText())
	default:
		s = fmt.Sprintf("working set %s: the memory budget ends inside the %s cache the device reports, so this is the cache's figure", units.Bytes(p.Memory.Bytes), units.Bytes(p.CacheBytes))
	}
	return s + "; budget " + p.Budget.String()
}

// cacheText names the cache the search went beyond: "the 32 MiB cache", or
// "the cache of unreported size" where the driver reports none.
func (p Plateau) cacheText() string {
	if p.CacheBytes <= 0 {
		return "the cache of unreported size"
	}
	return "the " + units.Bytes(p.CacheBytes) + " cache"
}

// StartBytes is the first size the search measures: a power of two at most an
// eighth of the reported cache (4 MiB when none is reported), at least 1 MiB.
func StartBytes(cache int64) int64 {
	n := int64(4 << 20)
	if cache > 0 {
		n = max(cache/8, 1<<20)
	}
	return floorPow2(n)
}

// Search grows a working set from StartBytes(cache) by doubling, up to
// limit bytes, and measures each size with probe. It stops at the first
// plateau beyond the cache: three sizes, each double the last and all larger
// than the reported cache, whose figures are within PlateauTolerance of one
// another (a sweep just past a cache still hits it in part: two sizes can agree
// while both are a cache's). A plateau inside
// the cache is the cache's figure (Plateau.Cache), never memory's: the cache a
// device reports may be real, even at 480 MiB. Where no cache is reported,
// a plateau must also hold at a size well beyond it (confirmSize).
func Search(ctx context.Context, cache, limit int64, budget Budget, probe Probe) (Plateau, error) {
	return SearchWithin(ctx, cache, limit, 0, budget, probe)
}

// SearchWithin is Search that also stops growing, beyond the reported cache,
// once one read of the working set takes longer than maxLaunch (zero: no
// such bound): a larger one only costs time, each sample being a single
// launch already. Plateau.Memory is then that size, off the plateau.
func SearchWithin(ctx context.Context, cache, limit int64, maxLaunch time.Duration, budget Budget, probe Probe) (Plateau, error) {
	p := Plateau{CacheBytes: cache, Budget: budget, Region: RegionCache}
	if limit < 1<<20 {
		return p, fmt.Errorf("memory budget %s is under 1 MiB: no bandwidth can be measured", units.Bytes(limit))
	}
	size := min(StartBytes(cache), floorPow2(limit))
	// step measures a size and records it.
	step := func(size int64) (float64, error) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		gbps, err := probe(ctx, size)
		if err != nil {
			return 0, fmt.Errorf("bandwidth probe at %s: %w", units.Bytes(size), err)
		}
		p.Steps = append(p.Steps, Step{Bytes: size, GBps: gbps})
		return gbps, nil
	}
	for {
		gbps, err := step(size)
		if err != nil {
			return p, err
		}
		if n := len(p.Steps); n >= 3 {
			a, b, c := p.Steps[n-3], p.Steps[n-2], p.Steps[n-1]
			if a.Bytes > cache && b.Bytes == 2*a.Bytes && c.Bytes == 2*b.Bytes && close(a.GBps, b.GBps) && close(a.GBps, c.GBps) && close(b.GBps, c.GBps) {
				held := true
				if far := confirmSize(cache, limit, maxLaunch, b, c); far > 0 {
					// Where it does not hold, it was a cache's plateau:
					// the search goes on from far.
					if gbps, err = step(far); err != nil {
						return p, err
					}
					size, held = far, close(b.GBps, gbps)
				}
				if held {
					// The middle size: on the plateau, and half the largest's cost.
					p.Found, p.Memory = true, b
					break
				}
			}
		}
		if maxLaunch > 0 && size > cache && gbps > 0 && time.Duration(float64(size)/gbps) > maxLaunch {
			p.Memory, p.TimeBound = p.Steps[len(p.Steps)-1], true
			break
		}
		if size*2 > limit {
			p.Memory = p.Steps[len(p.Steps)-1]
			break
		}
		size *= 2
	}
	if p.Memory.Bytes > cache {
		p.Region = RegionMemory
	}
	// A cache is where the figure beats memory's: the fastest smaller size,
	// when it is faster than the tolerance allows (a driver may report a
	// cache smaller than the one that serves: docs/OWNCOST.md names one).
	for _, st := range p.Steps {
		if st.Bytes < p.Memory.Bytes && st.GBps > p.Cache.GBps && st.GBps > (1+PlateauTolerance)*p.Memory.GBps {
			p.Cache = st
		}
	}
	return p, nil
}

// confirmSize is the size that confirms a plateau (middle b, largest c) when
// the device reports no cache, or 0 when none is needed or possible. A
// machine that hides its caches (a VM: no sizes in the OS, none from the
// driver) can show a plateau inside its last-level cache (docs/OWNCOST.md
// has one measured). So the plateau must hold at 8 times its middle, or at the largest size
// the budget and maxLaunch allow beyond it; where it does not, it was a
// cache's, and the search goes on from that size.
func confirmSize(cache, limit int64, maxLaunch time.Duration, b, c Step) int64 {
	if cache > 0 {
		return 0
	}
	far := min(8*b.Bytes, floorPow2(limit))
	for maxLaunch > 0 && far > c.Bytes && b.GBps > 0 && time.Duration(float64(far)/b.GBps) > maxLaunch {
		far /= 2
	}
	if far <= c.Bytes {
		return 0
	}
	return far
}

// close reports whether two figures are within PlateauTolerance of the larger.
func close(a, b float64) bool {
	hi := math.Max(a, b)
	return hi > 0 && math.Abs(a-b) <= PlateauTolerance*hi
}

// floorPow2 is the largest power of two <= n (n >= 1).
func floorPow2(n int64) int64 {
	p := int64(1)
	for p*2 <= n {
		p *= 2
	}
	return p
}
