package profile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// bench is a finished benchmark of identity id on dev; its name is only a
// label (the origin of the figure it sets).
func bench(name string, id results.Identity, dev results.DeviceInfo, median time.Duration, gbps, gops float64) results.Benchmark {
	m := &measure.Result{Samples: []measure.Sample{{PerLaunch: median}}, Summary: measure.Summary{Median: median}}
	if gbps > 0 || gops > 0 {
		m.Throughput = &measure.Throughput{GBPerSecond: gbps, GOpsPerSecond: gops}
	}
	return results.Benchmark{Name: name, Identity: &id, Device: dev, Measurement: m}
}

// Identities of the suites' benchmarks, as clkernels sets them.
func globalID(traffic, region string) results.Identity {
	return results.Identity{Kind: results.KindBandwidth, Traffic: traffic, Region: region}
}

func computeID(typ string) results.Identity {
	return results.Identity{Kind: results.KindCompute, Type: typ, Width: 4}
}

func launchID(mode string) results.Identity {
	return results.Identity{Kind: results.KindLaunch, Mode: mode}
}

func transferID(memory, dir string) results.Identity {
	return results.Identity{Kind: results.KindTransfer, Memory: memory, Direction: dir, WorkingSetBytes: 64 << 20}
}

// TestSlotOf checks the one ceiling rule: which figure of the device each
// identity measures, and where a bandwidth's figure comes from (the
// suite's region when set, any value but memory being a cache; else under
// four times the last-level cache a launch is the cache's).
func TestSlotOf(t *testing.T) {
	const cache = 32 << 20
	bw := func(region string) *results.Identity { id := globalID(results.TrafficCopy, region); return &id }
	for _, tt := range []struct {
		name         string
		id           *results.Identity
		bytes, cache int64
		want         Slot
		ok           bool
	}{
		{"region memory wins over a small size", bw("memory"), 1 << 20, cache, Slot{Figure: FigureBandwidth, Region: RegionMemory, Traffic: "copy"}, true},
		{"region cache wins over a large size", bw("cache"), 1 << 30, cache, Slot{Figure: FigureBandwidth, Region: RegionCache, Traffic: "copy"}, true},
		{"an unknown region is never memory", bw("l2"), 1 << 30, cache, Slot{Figure: FigureBandwidth, Region: RegionCache, Traffic: "copy"}, true},
		{"no region: under 4x the cache", bw(""), 96 << 20, cache, Slot{Figure: FigureBandwidth, Region: RegionCache, Traffic: "copy"}, true},
		{"no region: just under 4x", bw(""), 128<<20 - 1, cache, Slot{Figure: FigureBandwidth, Region: RegionCache, Traffic: "copy"}, true},
		{"no region: 4x the cache", bw(""), 128 << 20, cache, Slot{Figure: FigureBandwidth, Region: RegionMemory, Traffic: "copy"}, true},
		{"no region, cache size unknown", bw(""), 1 << 20, 0, Slot{Figure: FigureBandwidth, Region: RegionMemory, Traffic: "copy"}, true},
		{"no region, bytes unknown", bw(""), 0, cache, Slot{Figure: FigureBandwidth, Region: RegionMemory, Traffic: "copy"}, true},
		{"the in-cache race is the caches' whatever its size", &results.Identity{Kind: results.KindCacheBandwidth, Traffic: "read-only", Region: "memory"}, 1 << 30, cache, Slot{Figure: FigureBandwidth, Region: RegionCache, Traffic: "read-only"}, true},
		{"image in the cache", &results.Identity{Kind: results.KindImageBandwidth, Region: "cache"}, 1 << 30, cache, Slot{Figure: FigureImageBandwidth, Region: RegionCache}, true},
		{"image by size", &results.Identity{Kind: results.KindImageBandwidth}, 1 << 30, cache, Slot{Figure: FigureImageBandwidth, Region: RegionMemory}, true},
		{"local", &results.Identity{Kind: results.KindLocalBandwidth, Width: 8}, 1 << 20, cache, Slot{Figure: FigureLocalBandwidth}, true},
		{"compute", &results.Identity{Kind: results.KindCompute, Type: "int24", Width: 2}, 0, cache, Slot{Figure: FigureCompute, Type: "int24"}, true},
		{"launch throughput", &results.Identity{Kind: results.KindLaunch, Mode: "throughput"}, 0, cache, Slot{Figure: FigureLaunch}, true},
		{"launch round trip", &results.Identity{Kind: results.KindLaunch, Mode: "round-trip"}, 0, cache, Slot{Figure: FigureLaunchRoundTrip}, true},
		{"launch dispatch sets nothing", &results.Identity{Kind: results.KindLaunch, Mode: "dispatch"}, 0, cache, Slot{}, false},
		{"pinned write", &results.Identity{Kind: results.KindTransfer, Memory: "pinned", Direction: "write"}, 1 << 20, cache, Slot{Figure: FigurePinned, Direction: "write"}, true},
		{"pageable sets nothing", &results.Identity{Kind: results.KindTransfer, Memory: "pageable", Direction: "write"}, 1 << 20, cache, Slot{}, false},
		{"a race's best row sets nothing", &results.Identity{Kind: results.KindBandwidth, Best: true}, 0, cache, Slot{}, false},
		{"the working set sets nothing", &results.Identity{Kind: results.KindWorkingSet}, 0, cache, Slot{}, false},
		{"no identity (a user's kernel)", nil, 1 << 30, cache, Slot{}, false},
	} {
		got, ok := SlotOf(tt.id, tt.bytes, tt.cache)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %+v %v, want %+v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// TestFromBenchmarks checks each figure of a profile from typed identities:
// the names are arbitrary labels, and what other devices, invalid, failed
// or pageable benchmarks measured is left out.
func TestFromBenchmarks(t *testing.T) {
	other := gpu
	other.Index, other.Name = "0:0", "pthread-cpu"
	invalid := bench("invalid", globalID("read-only", "memory"), gpu, time.Millisecond, 9000, 0)
	f := false
	invalid.Measurement.Valid = &f
	failed := bench("failed", globalID("read-only", "memory"), gpu, time.Millisecond, 8000, 0)
	failed.Error = "boom"
	bs := []results.Benchmark{
		bench("stride", globalID("read-only", "memory"), gpu, time.Millisecond, 2500, 0),
		bench("rmw", globalID("read-modify-write", "memory"), gpu, time.Millisecond, 2700, 0),
		bench("copy", globalID("copy", "memory"), gpu, time.Millisecond, 2900, 0),
		bench("dot", globalID("read-only", "memory"), gpu, time.Millisecond, 2800, 0),
		invalid, failed,
		bench("other device", globalID("copy", "memory"), other, time.Millisecond, 9999, 0),
		bench("local", results.Identity{Kind: results.KindLocalBandwidth, Width: 4}, gpu, time.Millisecond, 30000, 0),
		bench("float1", computeID("float"), gpu, time.Millisecond, 0, 40000),
		bench("float4", computeID("float"), gpu, time.Millisecond, 0, 51000),
		bench("int4", computeID("int"), gpu, time.Millisecond, 0, 20000),
		bench("short4", computeID("short"), gpu, time.Millisecond, 0, 20000),
		bench("best row", results.Identity{Kind: results.KindCompute, Type: "float", Best: true}, gpu, time.Millisecond, 0, 99999),
		bench("launches", launchID("throughput"), gpu, 3*time.Microsecond, 0, 0.0003),
		bench("round trip", launchID("round-trip"), gpu, 12*time.Microsecond, 0, 0),
		bench("pinned write", transferID("pinned", "write"), gpu, time.Millisecond, 25, 0),
		bench("pinned read", transferID("pinned", "read"), gpu, time.Millisecond, 26, 0),
		bench("pageable read", transferID("pageable", "read"), gpu, time.Millisecond, 12, 0),
	}
	p := FromBenchmarks(gpu, bs, "clmeter suite all", time.Now())
	if p == nil {
		t.Fatal("no profile")
	}
	if p.Bandwidth.Value != 2900 || p.Bandwidth.Pattern != "copy" || p.Bandwidth.From != "copy" || p.Patterns["read-only"].Value != 2800 {
		t.Errorf("bandwidth %+v patterns %+v", p.Bandwidth, p.Patterns)
	}
	if p.LocalBandwidth.Value != 30000 || p.Compute["float"].Value != 51000 || p.Compute["int"].Unit != "GIOP/s" || p.Compute["short"].Unit != "GIOP/s" || p.Compute["float"].Unit != "GFLOP/s" {
		t.Errorf("local %+v compute %+v", p.LocalBandwidth, p.Compute)
	}
	if p.LaunchLatency() != 3*time.Microsecond || p.LaunchRoundTrip.Value != 12*time.Microsecond || p.Launch.Source != "clmeter suite all" || p.Launch.From != "launches" {
		t.Errorf("launch %+v %+v", p.Launch, p.LaunchRoundTrip)
	}
	if p.PinnedToDevice.Value != 25 || p.PinnedToHost.Value != 26 {
		t.Errorf("pinned %+v %+v", p.PinnedToDevice, p.PinnedToHost)
	}
	if !p.Complete() {
		t.Error("not complete")
	}
	if FromBenchmarks(gpu, bs[6:7], "x", time.Now()) != nil {
		t.Error("a profile from another device's benchmarks")
	}
	unnamed := bs[0]
	unnamed.Identity = nil
	if FromBenchmarks(gpu, []results.Benchmark{unnamed}, "x", time.Now()) != nil {
		t.Error("a profile from a benchmark without an identity")
	}
}

// TestFromBenchmarksCacheSized checks that a cache-sized bandwidth never
// becomes a memory ceiling: it is the profile's cache bandwidth, by either
// side of the rule, and the memory ceilings come only from the rest.
func TestFromBenchmarksCacheSized(t *testing.T) {
	cpu := gpu
	cpu.Index, cpu.Name, cpu.GlobalCacheBytes = "0:0", "pthread-cpu", 32<<20
	sized := func(name, traffic string, gbps float64, bytes int64, region string) results.Benchmark {
		b := bench(name, globalID(traffic, region), cpu, time.Millisecond, gbps, 0)
		b.Measurement.Throughput.BytesPerLaunch = bytes
		return b
	}
	bs := []results.Benchmark{
		sized("triad 32MiB", "copy", 76, 96<<20, ""),                   // 3 arrays of 32 MiB: partly in the L3
		sized("triad 64MiB", "copy", 49, 192<<20, ""),                  // 3 arrays of 64 MiB
		sized("rmw 48MiB", "read-modify-write", 106, 96<<20, ""),       // 2 x 48 MiB
		sized("rmw 256MiB", "read-modify-write", 60, 512<<20, ""),      // beyond
		sized("chunk said cache", "read-only", 300, 1<<30, "cache"),    // the suite says cache
		sized("stride said memory", "read-only", 40, 64<<20, "memory"), // the suite says memory (a plateau)
	}
	p := FromBenchmarks(cpu, bs, "test", time.Now())
	if p == nil {
		t.Fatal("no profile")
	}
	if c := p.Patterns["copy"]; c == nil || c.Value != 49 || c.BytesPerLaunch != 192<<20 {
		t.Errorf("copy ceiling %+v, want 49 GB/s from the 64 MiB arrays", c)
	}
	if c := p.Patterns["read-modify-write"]; c == nil || c.Value != 60 {
		t.Errorf("read-modify-write ceiling %+v, want 60 GB/s from 512 MiB", c)
	}
	if c := p.Patterns["read-only"]; c == nil || c.Value != 40 {
		t.Errorf("read-only ceiling %+v, want 40 GB/s (region memory)", c)
	}
	if p.Bandwidth.Value != 60 || p.CacheBandwidth == nil || p.CacheBandwidth.Value != 300 || p.CacheBandwidth.From != "chunk said cache" {
		t.Errorf("bandwidth %+v cache %+v", p.Bandwidth, p.CacheBandwidth)
	}
	// Alone, a cache-sized figure gives no memory ceiling at all; merged
	// into a profile it leaves the memory ceilings alone.
	small := FromBenchmarks(cpu, bs[:1], "quick", time.Now())
	if small == nil || small.Bandwidth != nil || len(small.Patterns) != 0 || small.CacheBandwidth == nil || small.CacheBandwidth.Value != 76 {
		t.Fatalf("cache-sized alone: %+v", small)
	}
	if l := strings.Join(small.Lines(), "\n"); !strings.Contains(l, "none measured beyond the device's caches") || !strings.Contains(l, "cache bandwidth 76.0 GB/s") {
		t.Errorf("lines of a cache-only profile:\n%s", l)
	}
	m, _ := Merge(p, small)
	if m.Patterns["copy"].Value != 49 || m.Bandwidth.Value != 60 || m.CacheBandwidth.Value != 300 {
		t.Errorf("a cache-sized figure changed the memory ceilings: %+v %+v", m.Patterns["copy"], m.Bandwidth)
	}
}

// TestFromBenchmarksSkipsUnfinished checks that an interrupted or failed
// benchmark read from an older file (it still holds samples) sets no figure.
func TestFromBenchmarksSkipsUnfinished(t *testing.T) {
	b := bench("interrupted", computeID("float"), gpu, time.Millisecond, 0, 99999)
	b.Error = "context canceled"
	ok := bench("finished", computeID("float"), gpu, time.Millisecond, 0, 100)
	p := FromBenchmarks(gpu, []results.Benchmark{b, ok}, "test", time.Now())
	if p == nil || p.Compute["float"].Value != 100 {
		t.Errorf("compute %+v", p)
	}
}

// TestLegacyProfile checks that result files written before benchmarks had
// a typed identity (version 2: the reader derives it from their names)
// give the profile they gave when the profile read the names itself: the
// goldens in testdata were made by that code from the same files.
func TestLegacyProfile(t *testing.T) {
	for _, tt := range []struct{ file, golden string }{
		{"../results/testdata/pocl-peaks.json", "testdata/legacy-pocl-peaks.profile.json"},
		{"../results/testdata/pocl-quick.json", "testdata/legacy-pocl-quick.profile.json"},
		{"testdata/legacy-quick.json", "testdata/legacy-quick.profile.json"},
	} {
		f, err := results.Read(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if f.Version != 2 {
			t.Fatalf("%s: version %d, want a version 2 file", tt.file, f.Version)
		}
		p := FromBenchmarks(f.Benchmarks[0].Device, f.Benchmarks, "legacy", time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC))
		got, _ := json.MarshalIndent(p, "", " ")
		want, err := os.ReadFile(tt.golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != strings.TrimSpace(string(want)) {
			out := filepath.Join(t.TempDir(), filepath.Base(tt.golden))
			os.WriteFile(out, got, 0o644)
			t.Errorf("%s: the profile differs from %s (got: %s)", tt.file, tt.golden, out)
		}
	}
}
