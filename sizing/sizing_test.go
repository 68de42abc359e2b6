package sizing

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

const (
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// machine is a machine shape and a model of its bandwidth: a working set
// inside the cache runs at cacheGBps; beyond it a falling share of it still
// hits (hit share = cache/W, halved: a sweep larger than the cache evicts what
// it will read next), the rest runs at memGBps.
type machine struct {
	name               string
	shape              Shape
	cacheGBps, memGBps float64
}

func (m machine) gbps(w int64) float64 {
	c := float64(m.shape.Cache)
	if float64(w) <= c {
		return m.cacheGBps
	}
	hit := 0.5 * c / float64(w)
	return 1 / (hit/m.cacheGBps + (1-hit)/m.memGBps)
}

// The machine shapes of issue #23, item 7.
var machines = []machine{
	{"2-core VM reporting 480 MiB L3, 24 GiB", Shape{MaxAlloc: 2 * gib, GlobalMem: 4608 * mib, Cache: 480 * mib, HostAvailable: 22 * gib, CPU: true}, 60, 12},
	{"16-core host, 300 MiB L3, 128 GiB", Shape{MaxAlloc: 1 * gib, GlobalMem: 3700 * mib, Cache: 300 * mib, HostAvailable: 120 * gib, CPU: true}, 300, 120},
	{"128-core host, 512 MiB L3", Shape{MaxAlloc: 64 * gib, GlobalMem: 500 * gib, Cache: 512 * mib, HostAvailable: 480 * gib, CPU: true}, 1500, 400},
	{"80 GB GPU, 50 MiB L2", Shape{MaxAlloc: 20 * gib, GlobalMem: 80 * gib, Cache: 50 * mib, HostAvailable: 120 * gib}, 7000, 3000},
	{"4 GB GPU", Shape{MaxAlloc: 1 * gib, GlobalMem: 4 * gib, Cache: 2 * mib, HostAvailable: 14 * gib}, 900, 300},
	{"2-core CI machine, 32 MiB L3", Shape{MaxAlloc: 2 * gib, GlobalMem: 4608 * mib, Cache: 32 * mib, HostAvailable: 22 * gib, CPU: true}, 80, 25},
	{"a host nearly out of memory", Shape{MaxAlloc: 2 * gib, GlobalMem: 4608 * mib, Cache: 32 * mib, HostAvailable: 300 * mib, CPU: true}, 80, 25},
}

func TestBudgetShapes(t *testing.T) {
	for _, m := range machines {
		t.Run(m.name, func(t *testing.T) {
			b := NewBudget(m.shape)
			smallest := min(m.shape.GlobalMem, m.shape.HostAvailable)
			if b.Total > smallest/BudgetFraction || b.Total < smallest/BudgetFraction-mib {
				t.Errorf("total %d, want 1/%d of %d", b.Total, BudgetFraction, smallest)
			}
			if b.PerBuffer > b.Total || b.PerBuffer > m.shape.MaxAlloc {
				t.Errorf("per buffer %d over total %d or max alloc %d", b.PerBuffer, b.Total, m.shape.MaxAlloc)
			}
			if b.Buffer(3)*3 > b.Total {
				t.Errorf("three buffers of %d exceed the total %d", b.Buffer(3), b.Total)
			}
			if !strings.Contains(b.String(), "1/4 of the smallest of") {
				t.Errorf("budget says %q", b)
			}
		})
	}
}

func TestBudgetUnknown(t *testing.T) {
	b := NewBudget(Shape{})
	if b.Total != 256*mib || b.PerBuffer != 256*mib || !strings.Contains(b.Reason, "no memory size known") {
		t.Errorf("%+v", b)
	}
}

func TestSearchShapes(t *testing.T) {
	for _, m := range machines {
		t.Run(m.name, func(t *testing.T) {
			b := NewBudget(m.shape)
			limit := b.Buffer(1)
			var probed int64
			p, err := Search(context.Background(), m.shape.Cache, limit, b, func(_ context.Context, w int64) (float64, error) {
				if w > limit {
					t.Fatalf("probed %d over the limit %d", w, limit)
				}
				probed += w
				return m.gbps(w), nil
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %v", m.name, p.Note())
			if len(p.Steps) > 12 {
				t.Errorf("%d steps", len(p.Steps))
			}
			if probed > 2*limit {
				t.Errorf("probed %d bytes in all, over twice the limit %d", probed, limit)
			}
			beyond := floorPow2(limit) > m.shape.Cache
			switch {
			case beyond && p.Region != RegionMemory:
				t.Errorf("the budget reaches past the cache, but the region is %s", p.Region)
			case !beyond && p.Region != RegionCache:
				t.Errorf("the budget ends inside the cache, but the region is %s", p.Region)
			}
			if p.Found {
				// On a plateau the figure is within the tolerance of memory's
				// and the working set beyond the cache.
				if p.Memory.Bytes <= m.shape.Cache || p.Memory.GBps > m.memGBps*(1+2*PlateauTolerance) {
					t.Errorf("plateau at %d (%.1f GB/s) is not memory's (%.1f GB/s)", p.Memory.Bytes, p.Memory.GBps, m.memGBps)
				}
			} else if p.Memory.Bytes != floorPow2(limit) {
				t.Errorf("no plateau, so the largest size %d should be used, got %d", floorPow2(limit), p.Memory.Bytes)
			}
			if p.Cache.Bytes > 0 && (p.Cache.GBps <= p.Memory.GBps*(1+PlateauTolerance) || p.Cache.Bytes >= p.Memory.Bytes) {
				t.Errorf("cache figure %+v is no faster than memory's %+v", p.Cache, p.Memory)
			}
			if p.Steps[0].Bytes <= m.shape.Cache && p.Cache.GBps != m.cacheGBps {
				t.Errorf("cache figure %.1f, want %.1f", p.Cache.GBps, m.cacheGBps)
			}
		})
	}
}

func TestSearchFindsPlateauOnLargeBudget(t *testing.T) {
	// The 128-core host and the 80 GB GPU have room: both must end on a plateau.
	for _, m := range []machine{machines[2], machines[3]} {
		b := NewBudget(m.shape)
		p, err := Search(context.Background(), m.shape.Cache, b.Buffer(1), b, func(_ context.Context, w int64) (float64, error) { return m.gbps(w), nil })
		if err != nil || !p.Found || p.Region != RegionMemory {
			t.Errorf("%s: found %v region %s err %v: %s", m.name, p.Found, p.Region, err, p.Note())
		}
	}
}

func TestSearchInsideCacheIsNeverMemory(t *testing.T) {
	// A flat figure inside a reported cache is a cache plateau: the search goes
	// on past the cache.
	var sizes []int64
	p, err := Search(context.Background(), 480*mib, 4*gib, Budget{Total: 4 * gib, PerBuffer: 4 * gib}, func(_ context.Context, w int64) (float64, error) {
		sizes = append(sizes, w)
		return 50, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Found || p.Memory.Bytes <= 480*mib || sizes[len(sizes)-3] <= 480*mib {
		t.Errorf("plateau %+v after sizes %v: the three plateau sizes must be beyond the cache", p.Memory, sizes)
	}
}

func TestSearchErrors(t *testing.T) {
	boom := errors.New("boom")
	_, err := Search(context.Background(), 32*mib, gib, Budget{}, func(context.Context, int64) (float64, error) { return 0, boom })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "bandwidth probe at") {
		t.Errorf("err %v", err)
	}
	if _, err := Search(context.Background(), 32*mib, 1000, Budget{}, nil); err == nil {
		t.Error("a limit under 1 MiB was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, 32*mib, gib, Budget{}, func(context.Context, int64) (float64, error) { return 1, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}

func TestParseMemAvailable(t *testing.T) {
	in := "MemTotal:       24576000 kB\nMemFree:        20000000 kB\nMemAvailable:   22000000 kB\n"
	if got := parseMemAvailable(strings.NewReader(in)); got != 22000000<<10 {
		t.Errorf("got %d", got)
	}
	if got := parseMemAvailable(strings.NewReader("MemTotal: 1 kB\n")); got != 0 {
		t.Errorf("missing field: %d", got)
	}
	if HostAvailable() <= 0 {
		t.Error("this host's MemAvailable could not be read")
	}
}

func TestStartBytes(t *testing.T) {
	for _, c := range []struct{ cache, want int64 }{{0, 4 * mib}, {32 * mib, 4 * mib}, {480 * mib, 32 * mib}, {2 * mib, mib}, {50 * mib, 4 * mib}} {
		if got := StartBytes(c.cache); got != c.want {
			t.Errorf("cache %d: start %d, want %d", c.cache, got, c.want)
		}
	}
}

func TestSearchFindsAnUnreportedCache(t *testing.T) {
	// The H100's driver reports 4 MiB of cache; 32 MiB is still served by its
	// 50 MiB L2 at 1.6x memory's figure. The fast step is the cache's figure.
	figs := map[int64]float64{1 * mib: 200, 2 * mib: 400, 4 * mib: 800, 8 * mib: 1700, 16 * mib: 2700, 32 * mib: 4900, 64 * mib: 2600, 128 * mib: 2700, 256 * mib: 2900, 512 * mib: 3000, gib: 3050, 2 * gib: 3080}
	p, err := Search(context.Background(), 4*mib, 20*gib, Budget{}, func(_ context.Context, w int64) (float64, error) { return figs[w], nil })
	if err != nil {
		t.Fatal(err)
	}
	if !p.Found || p.Memory.Bytes < 256*mib || p.Cache.Bytes != 32*mib {
		t.Errorf("memory %+v, cache %+v; want a plateau at 256 MiB or more and the cache at 32 MiB", p.Memory, p.Cache)
	}
}

func TestSearchWithinTime(t *testing.T) {
	// The 2-core VM of issue #23 (480 MiB reported, 12 GB/s from memory):
	// 512 MiB, the first size beyond the cache, takes 45 ms a read.
	vm := machines[0]
	b := NewBudget(vm.shape)
	p, err := SearchWithin(context.Background(), vm.shape.Cache, b.Buffer(1), 20*time.Millisecond, b, func(_ context.Context, w int64) (float64, error) { return vm.gbps(w), nil })
	if err != nil {
		t.Fatal(err)
	}
	if !p.TimeBound || p.Found || p.Region != RegionMemory || p.Memory.Bytes != 512*mib || !strings.Contains(p.Note(), "longer than a sample") {
		t.Errorf("%+v: %s", p, p.Note())
	}
	// Inside the cache the bound does not apply: a slow cache is still a cache.
	p, err = SearchWithin(context.Background(), 480*mib, 2*gib, time.Millisecond, b, func(_ context.Context, w int64) (float64, error) { return 1, nil })
	if err != nil || p.Memory.Bytes <= 480*mib {
		t.Errorf("stopped inside the cache: %+v %v", p.Memory, err)
	}
	// A fast device never meets it (the H100: 2 GiB in 0.7 ms).
	gpu := machines[3]
	gb := NewBudget(gpu.shape)
	p, _ = SearchWithin(context.Background(), gpu.shape.Cache, gb.Buffer(1), 20*time.Millisecond, gb, func(_ context.Context, w int64) (float64, error) { return gpu.gbps(w), nil })
	if p.TimeBound || !p.Found {
		t.Errorf("GPU: %+v", p)
	}
}

func TestSearchConfirmsAPlateauWithoutACache(t *testing.T) {
	// The 2-core EPYC VM reports no cache; its last-level cache serves 8-32
	// MiB at about 100 GB/s, memory from 128 MiB at 38-40.
	figs := map[int64]float64{4 * mib: 91, 8 * mib: 104, 16 * mib: 101, 32 * mib: 100, 64 * mib: 51, 128 * mib: 40, 256 * mib: 39, 512 * mib: 38.5, gib: 38.3}
	var sizes []int64
	p, err := Search(context.Background(), 0, gib+gib/4, Budget{}, func(_ context.Context, w int64) (float64, error) {
		sizes = append(sizes, w)
		return figs[w], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Found || p.Memory.Bytes < 128*mib || p.Memory.GBps > 40 || p.Cache.Bytes != 8*mib {
		t.Errorf("memory %+v, cache %+v after sizes %v; want memory's plateau (128 MiB or more, 40 GB/s or less) and the cache at 8 MiB", p.Memory, p.Cache, sizes)
	}
	// The same curve with the cache reported needs no confirmation.
	p, err = Search(context.Background(), 32*mib, gib+gib/4, Budget{}, func(_ context.Context, w int64) (float64, error) { return figs[w], nil })
	if err != nil || !p.Found || p.Memory.Bytes != 256*mib || len(p.Steps) != 8 {
		t.Errorf("reported cache: memory %+v after %d steps, %v", p.Memory, len(p.Steps), err)
	}
	// A flat device without a cache: the plateau holds at 8 times its middle.
	sizes = nil
	p, err = Search(context.Background(), 0, 4*gib, Budget{}, func(_ context.Context, w int64) (float64, error) {
		sizes = append(sizes, w)
		return 300, nil
	})
	if err != nil || !p.Found || p.Memory.Bytes != 8*mib || sizes[len(sizes)-1] != 64*mib {
		t.Errorf("flat: memory %+v after sizes %v, %v", p.Memory, sizes, err)
	}
	// Within the time bound: no confirmation beyond what one launch may read.
	sizes = nil
	p, err = SearchWithin(context.Background(), 0, 4*gib, time.Millisecond, Budget{}, func(_ context.Context, w int64) (float64, error) {
		sizes = append(sizes, w)
		return 1, nil // 1 GB/s: 1 MiB takes 1 ms
	})
	if err != nil || p.Found || !p.TimeBound || sizes[0] != 4*mib || len(sizes) != 1 {
		t.Errorf("time bound: %+v after sizes %v, %v", p, sizes, err)
	}
}

// TestNoteNamesAMissingCache: a device that reports no cache size reads "the
// cache of unreported size", never "the 0 B cache".
func TestNoteNamesAMissingCache(t *testing.T) {
	p := Plateau{Found: true, Region: RegionMemory, Memory: Step{Bytes: 256 * mib, GBps: 10}}
	if n := p.Note(); strings.Contains(n, "0 B cache") || !strings.Contains(n, "beyond the cache of unreported size") {
		t.Errorf("no cache: %q", n)
	}
	p.CacheBytes = 32 * mib
	if n := p.Note(); !strings.Contains(n, "beyond the 32 MiB cache") {
		t.Errorf("32 MiB cache: %q", n)
	}
}
