package profile

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

var gpu = results.DeviceInfo{Index: "1:0", Platform: "NVIDIA CUDA", PlatformVersion: "OpenCL 3.0 CUDA 12.4", Name: "NVIDIA H100 80GB HBM3", DriverVersion: "550.54", ComputeUnits: 132}

// h100 is a profile shaped like an H100's: 3 TB/s, 50 TFLOP/s fp32, 4 µs a launch.
func h100() *Profile {
	return &Profile{Format: FormatVersion, Key: KeyOf(gpu), Device: gpu, Sources: []string{"test"},
		Bandwidth:     &Ceiling{Value: 3000, Unit: "GB/s", From: "peaks/bandwidth/copy/float4", Pattern: "copy"},
		Compute:       map[string]*Ceiling{"float": {Value: 50000, Unit: "GFLOP/s"}, "double": {Value: 25000, Unit: "GFLOP/s"}},
		LaunchLatency: 4 * time.Microsecond}
}

// dur is the time to move or do n at rate per second.
func dur(n, rate float64) time.Duration { return time.Duration(n / rate * 1e9) }

func TestPlaceVerdicts(t *testing.T) {
	p := h100()
	tests := []struct {
		name    string
		k       Kernel
		verdict string
		pct     float64 // want PercentOfRoof within 1
		say     []string
	}{
		{"triad streams at 95% of bandwidth", Kernel{BytesPerLaunch: 3 * 4 << 27, OpsPerLaunch: 2 << 27, OpsUnit: "FLOP", Median: dur(3*4<<27, 2850e9), WorkGroups: 1 << 19},
			MemoryBound, 95, []string{"below the ridge point", "95% of the roof"}},
		{"bytes only", Kernel{BytesPerLaunch: 1 << 30, Median: dur(1<<30, 1500e9), WorkGroups: 4096},
			MemoryBound, 50, []string{"operations per launch unknown", "copy pattern"}},
		{"compute kernel", Kernel{BytesPerLaunch: 1 << 20, OpsPerLaunch: 1 << 36, OpsUnit: "FLOP", Median: dur(1<<36, 49000e9), WorkGroups: 1056},
			ComputeBound, 98, []string{"above the ridge point", "float compute roof"}},
		{"double uses the double ceiling", Kernel{OpsPerLaunch: 1 << 36, OpsUnit: "FLOP", Precision: "double", Median: dur(1<<36, 20000e9), WorkGroups: 1056},
			ComputeBound, 80, []string{"double compute ceiling"}},
		{"empty kernel", Kernel{Median: 4100 * time.Nanosecond, WorkItems: 1},
			LaunchBound, 0, []string{"1.0x the device's launch time", "1 work-item(s) for 132 compute units"}},
		{"small triad is launch-bound", Kernel{BytesPerLaunch: 12 << 10, Median: 9 * time.Microsecond, WorkGroups: 4},
			LaunchBound, 0, []string{"2.2x"}},
		{"few work-groups", Kernel{BytesPerLaunch: 1 << 30, Median: 5 * time.Millisecond, WorkGroups: 16},
			UnderFilled, 7, []string{"16 work-group(s) for 132 compute units: 116 units idle"}},
		{"nothing known", Kernel{Median: time.Millisecond, WorkGroups: 1000},
			Unknown, 0, []string{"give --bytes and --flops"}},
		{"far below the roof", Kernel{BytesPerLaunch: 1 << 30, Median: dur(1<<30, 300e9), WorkGroups: 4096},
			MemoryBound, 10, []string{"far below it"}},
		{"above the ceiling", Kernel{BytesPerLaunch: 1 << 30, Median: dur(1<<30, 3600e9), WorkGroups: 4096},
			MemoryBound, 120, []string{"the ceiling is too low"}},
	}
	for _, tt := range tests {
		r := Place(p, tt.k, Settings{})
		if r == nil {
			t.Fatalf("%s: no placement", tt.name)
		}
		if r.Verdict != tt.verdict {
			t.Errorf("%s: verdict %s, want %s (evidence %q)", tt.name, r.Verdict, tt.verdict, r.Evidence)
		}
		if tt.pct > 0 && (r.PercentOfRoof < tt.pct-1 || r.PercentOfRoof > tt.pct+1) {
			t.Errorf("%s: %.1f%% of the roof, want %.0f%%", tt.name, r.PercentOfRoof, tt.pct)
		}
		all := strings.Join(r.Evidence, "\n")
		for _, s := range tt.say {
			if !strings.Contains(all, s) {
				t.Errorf("%s: evidence lacks %q:\n%s", tt.name, s, all)
			}
		}
	}
}

func TestPlaceRoofMath(t *testing.T) {
	// Intensity 1 FLOP/byte, ridge 50000/3000 = 16.7: the roof is 3000 GFLOP/s.
	r := Place(h100(), Kernel{BytesPerLaunch: 1e9, OpsPerLaunch: 1e9, OpsUnit: "FLOP", Median: time.Second, WorkGroups: 1e6}, Settings{})
	if r.IntensityFLOPPerByte != 1 || r.Roof != 3000 || r.RoofUnit != "GFLOP/s" || r.GOpsPerSecond != 1 || r.GBPerSecond != 1 {
		t.Errorf("roofline %+v", r)
	}
	if d := r.RidgeOpsPerByte - 50000.0/3000; d > 1e-9 || d < -1e-9 {
		t.Errorf("ridge %g", r.RidgeOpsPerByte)
	}
	if Place(nil, Kernel{Median: 1}, Settings{}) != nil || Place(h100(), Kernel{}, Settings{}) != nil {
		t.Error("a placement without a profile or a median")
	}
}

func TestParsePtxas(t *testing.T) {
	// The format of NVIDIA's OpenCL driver with -cl-nv-verbose (ptxas of CUDA 11
	// and later: spills on the "Function properties" line after it).
	newer := `ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'matmul_tiled' for 'sm_90'
ptxas info    : Function properties for matmul_tiled
    0 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, 2048 bytes smem, 400 bytes cmem[0]
ptxas info    : Compiling entry function 'matmul_naive' for 'sm_90'
ptxas info    : Function properties for matmul_naive
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 30 registers, 400 bytes cmem[0]
`
	got := ParsePtxas(newer)
	want := map[string]PtxasUsage{
		"matmul_tiled": {Registers: 40, SpillStores: 8, SpillLoads: 12, HasRegisters: true, HasSpillCounts: true},
		"matmul_naive": {Registers: 30, HasRegisters: true, HasSpillCounts: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParsePtxas(newer) = %+v\nwant %+v", got, want)
	}
	// The one-line form.
	older := "ptxas info    : Compiling entry function 'saxpy' for 'sm_70'\nptxas info    : Used 255 registers, 96 bytes spill stores, 128 bytes spill loads, 360 bytes cmem[0]\n"
	u := ParsePtxas(older)["saxpy"]
	if !u.HasRegisters || u.Registers != 255 || u.SpillStores != 96 || u.SpillLoads != 128 {
		t.Errorf("ParsePtxas(older) = %+v", u)
	}
	if len(ParsePtxas("warning: something\n")) != 0 {
		t.Error("a log without ptxas lines gave usage")
	}
	r := &results.Resources{}
	applyLog(r, got, "matmul_tiled", true)
	if r.Registers == nil || *r.Registers != 40 || *r.SpillStoresBytes != 8 || *r.SpillLoadsBytes != 12 {
		t.Errorf("applyLog: %+v", r)
	}
	if s := ResourcesText(r); !strings.Contains(s, "40 registers") || !strings.Contains(s, "spills 8 B stored / 12 B loaded") {
		t.Errorf("ResourcesText = %q", s)
	}
	r = &results.Resources{}
	applyLog(r, nil, "k", false)
	if r.Registers != nil || !strings.Contains(r.Note, "does not report registers") {
		t.Errorf("no log: %+v", r)
	}
}

func TestStoreRoundTrip(t *testing.T) {
	st := Store{Dir: filepath.Join(t.TempDir(), "profiles")}
	if _, err := st.Load(KeyOf(gpu)); err == nil || !strings.Contains(err.Error(), "no device profile") {
		t.Fatalf("empty store: %v", err)
	}
	p := h100()
	path, err := st.Save(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(path), "NVIDIA-H100-80GB-HBM3-") {
		t.Errorf("file name %s", path)
	}
	q, err := st.Load(KeyOf(gpu))
	if err != nil || q.Bandwidth.Value != 3000 || q.Compute["float"].Value != 50000 || q.LaunchLatency != 4*time.Microsecond {
		t.Fatalf("Load = %+v, %v", q, err)
	}
	// Another driver is another profile.
	other := gpu
	other.DriverVersion = "560.1"
	if _, err := st.Load(KeyOf(other)); err == nil {
		t.Error("a profile of another driver version was used")
	}
	// A damaged file or another format is not used.
	os.WriteFile(path, []byte(`{"format": 99}`), 0o644)
	if _, err := st.Load(KeyOf(gpu)); err == nil || !strings.Contains(err.Error(), "format 99") {
		t.Errorf("format 99: %v", err)
	}
	os.WriteFile(path, []byte(`{`), 0o644)
	if _, err := st.Load(KeyOf(gpu)); err == nil {
		t.Error("a damaged file was used")
	}
	entries, _ := os.ReadDir(st.Dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".profile-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestMerge(t *testing.T) {
	old := h100()
	old.Short = true
	n := &Profile{Key: old.Key, Device: gpu, Sources: []string{"clmeter suite streams"}, Compute: map[string]*Ceiling{},
		Bandwidth: &Ceiling{Value: 3100, Pattern: "copy"}}
	m := Merge(old, n, false)
	if m.Bandwidth.Value != 3100 || m.Compute["float"].Value != 50000 || m.LaunchLatency != 4*time.Microsecond || !m.Short {
		t.Errorf("merge kept the wrong figures: %+v", m)
	}
	if strings.Join(m.Sources, ",") != "test,clmeter suite streams" {
		t.Errorf("sources %v", m.Sources)
	}
	// A lower ceiling from a partial, noisier run does not lower the profile's;
	// a full measurement (replace) does.
	low := &Profile{Key: old.Key, Device: gpu, Compute: map[string]*Ceiling{"float": {Value: 40000}}, Bandwidth: &Ceiling{Value: 2000}, LaunchLatency: 5 * time.Microsecond}
	if m := Merge(old, low, false); m.Bandwidth.Value != 3000 || m.Compute["float"].Value != 50000 || m.LaunchLatency != 5*time.Microsecond {
		t.Errorf("a lower partial measurement changed the ceilings: bandwidth %g float %g launch %v", m.Bandwidth.Value, m.Compute["float"].Value, m.LaunchLatency)
	}
	if m := Merge(old, low, true); m.Bandwidth.Value != 2000 || m.Compute["float"].Value != 40000 {
		t.Errorf("a full measurement did not replace the ceilings: %g %g", m.Bandwidth.Value, m.Compute["float"].Value)
	}
	full := h100()
	full.Sources = []string{"clmeter suite peaks"}
	if Merge(old, full, true).Short {
		t.Error("a full profile did not clear Short")
	}
	if old.Bandwidth.Value != 3000 {
		t.Error("Merge changed its input")
	}
}

func bench(name string, dev results.DeviceInfo, median time.Duration, gbps, gops float64) results.Benchmark {
	m := &measure.Result{Samples: []measure.Sample{{PerLaunch: median}}, Summary: measure.Summary{Median: median}}
	if gbps > 0 || gops > 0 {
		m.Throughput = &measure.Throughput{GBPerSecond: gbps, GOpsPerSecond: gops}
	}
	return results.Benchmark{Name: name, Device: dev, Measurement: m}
}

func TestFromBenchmarks(t *testing.T) {
	other := gpu
	other.Index, other.Name = "0:0", "pthread-cpu"
	invalid := bench("peaks/bandwidth/chunk/float16", gpu, time.Millisecond, 9000, 0)
	f := false
	invalid.Measurement.Valid = &f
	failed := bench("peaks/bandwidth/stride/float8", gpu, time.Millisecond, 8000, 0)
	failed.Error = "boom"
	bs := []results.Benchmark{
		bench("peaks/bandwidth/stride/float4", gpu, time.Millisecond, 2500, 0),
		bench("peaks/bandwidth/rmw/float4", gpu, time.Millisecond, 2700, 0),
		bench("streams/copy/float", gpu, time.Millisecond, 2900, 0),
		bench("streams/dot/float", gpu, time.Millisecond, 2800, 0),
		invalid, failed,
		bench("peaks/bandwidth/copy/float4", other, time.Millisecond, 9999, 0),
		bench("peaks/local-bandwidth/float4", gpu, time.Millisecond, 30000, 0),
		bench("peaks/compute/float/1", gpu, time.Millisecond, 0, 40000),
		bench("peaks/compute/float/4", gpu, time.Millisecond, 0, 51000),
		bench("peaks/compute/int/4", gpu, time.Millisecond, 0, 20000),
		bench("peaks/compute/short/4", gpu, time.Millisecond, 0, 20000),
		bench("launch/throughput", gpu, 3*time.Microsecond, 0, 0.0003),
		bench("launch/round-trip", gpu, 12*time.Microsecond, 0, 0),
		bench("transfers/pinned/write/64MiB", gpu, time.Millisecond, 25, 0),
		bench("transfers/pinned/read/64MiB", gpu, time.Millisecond, 26, 0),
		bench("transfers/pageable/read/64MiB", gpu, time.Millisecond, 12, 0),
	}
	p := FromBenchmarks(gpu, bs, "clmeter suite all", time.Now())
	if p == nil {
		t.Fatal("no profile")
	}
	if p.Bandwidth.Value != 2900 || p.Bandwidth.Pattern != "copy" || p.Bandwidth.From != "streams/copy/float" {
		t.Errorf("bandwidth %+v", p.Bandwidth)
	}
	if p.LocalBandwidth.Value != 30000 || p.Compute["float"].Value != 51000 || p.Compute["int"].Unit != "GIOP/s" || p.Compute["short"].Unit != "GIOP/s" {
		t.Errorf("local %+v compute %+v", p.LocalBandwidth, p.Compute)
	}
	if p.LaunchLatency != 3*time.Microsecond || p.LaunchRoundTrip != 12*time.Microsecond {
		t.Errorf("launch %v %v", p.LaunchLatency, p.LaunchRoundTrip)
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
}

func TestComputeTheory(t *testing.T) {
	th := ComputeTheory(DeviceFacts{Name: "NVIDIA H100 80GB HBM3", ComputeUnits: 132, ClockMHz: 1980, NVComputeCapability: "9.0", NativeWidthFloat: 1})
	if v := th["float"].Value; v < 66908 || v > 66909 {
		t.Errorf("H100 fp32 %g GFLOP/s, want 66908.2 (132 x 128 x 1.98 x 2)", v)
	}
	if v := th["double"].Value; v < 33454 || v > 33455 {
		t.Errorf("H100 fp64 %g", v)
	}
	cpu := ComputeTheory(DeviceFacts{CPU: true, ComputeUnits: 2, ClockMHz: 2000, NativeWidthFloat: 16, NativeWidthDouble: 8})
	if cpu["float"].Value != 256 || cpu["double"].Value != 128 || !strings.Contains(cpu["float"].Note, "2 FMA units x 2000 MHz (the driver's clock)") {
		t.Errorf("CPU theory %+v", cpu)
	}
	// A core measured above the driver's base clock: the measured clock counts
	// when the OS's figures accept it, and the note says why.
	vm := OSClock{CPUInfoMHz: 2000}
	accepted := CheckCoreClock(MeasuredClock{MHz: 4000, AddMHz: 3990, Uncertainty: 0.01}, vm)
	boost := ComputeTheory(DeviceFacts{CPU: true, ComputeUnits: 2, ClockMHz: 2000, CoreClock: &accepted, NativeWidthFloat: 16, NativeWidthDouble: 8})
	if boost["float"].Value != 512 || !strings.Contains(boost["float"].Note, "4000 MHz (measured ±1.0%, 100% above the 2000 MHz /proc/cpuinfo reports") ||
		!strings.Contains(boost["float"].Note, "; the driver reports 2000 MHz)") {
		t.Errorf("CPU theory at a measured clock %+v", boost)
	}
	// A refused clock: the driver's, and the note says why the measured one
	// was refused.
	refused := CheckCoreClock(MeasuredClock{MHz: 16242, AddMHz: 16242, Uncertainty: 0.01}, vm)
	th = ComputeTheory(DeviceFacts{CPU: true, ComputeUnits: 2, ClockMHz: 2000, CoreClock: &refused, NativeWidthFloat: 16, NativeWidthDouble: 8})
	if th["float"].Value != 256 || !strings.Contains(th["float"].Note, "x 2000 MHz (the driver's clock; the measured core clock was refused: 16242 MHz ±1.0% is above 4x the 2000 MHz") {
		t.Errorf("CPU theory with a refused clock %+v", th)
	}
	// A clock accepted below the driver's: the driver's counts.
	slow := CheckCoreClock(MeasuredClock{MHz: 1900, AddMHz: 1900, Uncertainty: 0.01}, vm)
	th = ComputeTheory(DeviceFacts{CPU: true, ComputeUnits: 2, ClockMHz: 2000, CoreClock: &slow, NativeWidthFloat: 16, NativeWidthDouble: 8})
	if th["float"].Value != 256 || !strings.Contains(th["float"].Note, "x 2000 MHz (the driver's clock; the core was measured at 1900 MHz)") {
		t.Errorf("CPU theory with a clock below the driver's %+v", th)
	}
	if len(ComputeTheory(DeviceFacts{Name: "gfx90a", ComputeUnits: 104, ClockMHz: 1700})) != 0 {
		t.Error("a theory for a device of unknown make-up")
	}
	if th, ok := DatasheetBandwidth("NVIDIA H100 80GB HBM3"); !ok || th.Value != 3352 {
		t.Errorf("datasheet %+v", th)
	}
	p := h100()
	ApplyTheory(p, th, &Theory{Value: 3352, Note: "n"})
	if pc := p.Bandwidth.Percent(); pc < 89 || pc > 90 {
		t.Errorf("bandwidth %.1f%% of theory", pc)
	}
}

// TestPlaceTrafficRoof checks that a kernel of known traffic is placed under
// its pattern's bandwidth ceiling (a CPU's copy pattern is below its
// read-modify-write one: writes read their line first), and one of unknown
// traffic under the best.
func TestPlaceTrafficRoof(t *testing.T) {
	p := h100()
	p.Bandwidth = &Ceiling{Value: 95, Unit: "GB/s", From: "peaks/bandwidth/rmw/float1", Pattern: "read-modify-write"}
	p.Patterns = map[string]*Ceiling{
		"read-modify-write": p.Bandwidth,
		"copy":              {Value: 50, Unit: "GB/s", From: "streams/copy/float", Pattern: "copy"},
		"read-only":         {Value: 65, Unit: "GB/s", From: "peaks/bandwidth/chunk/float16", Pattern: "read-only"},
	}
	triad := Kernel{BytesPerLaunch: 3 * 4 << 24, OpsPerLaunch: 2 << 24, OpsUnit: "FLOP", Median: dur(3*4<<24, 49e9), WorkGroups: 1 << 16}
	for _, tt := range []struct {
		traffic string
		pct     float64
		say     string
	}{
		{"copy", 98, "the bandwidth roof is the copy pattern's ceiling 50.0 GB/s"},
		{"read-only", 75, "the read-only pattern's ceiling 65.0 GB/s"},
		{"", 52, "95.0 GB/s"},
		{"read-modify-write", 52, "95.0 GB/s"},
	} {
		k := triad
		k.Traffic = tt.traffic
		r := Place(p, k, Settings{})
		if r.Verdict != MemoryBound || r.PercentOfRoof < tt.pct-1 || r.PercentOfRoof > tt.pct+1 {
			t.Errorf("traffic %q: %s at %.1f%% of the roof, want memory-bound at %.0f%%: %q", tt.traffic, r.Verdict, r.PercentOfRoof, tt.pct, r.Evidence)
		}
		if all := strings.Join(r.Evidence, "\n"); !strings.Contains(all, tt.say) {
			t.Errorf("traffic %q: evidence lacks %q:\n%s", tt.traffic, tt.say, all)
		}
	}
}

// TestFromBenchmarksSkipsCacheSized checks that a bandwidth benchmark moving
// less than four times the device's last-level cache a launch sets no ceiling.
func TestFromBenchmarksSkipsCacheSized(t *testing.T) {
	cpu := gpu
	cpu.Index, cpu.Name, cpu.GlobalCacheBytes = "0:0", "pthread-cpu", 32<<20
	sized := func(name string, gbps float64, bytes int64) results.Benchmark {
		b := bench(name, cpu, time.Millisecond, gbps, 0)
		b.Measurement.Throughput.BytesPerLaunch = bytes
		return b
	}
	bs := []results.Benchmark{
		sized("streams/triad/float", 76, 96<<20),          // 3 arrays of 32 MiB: partly in the L3
		sized("streams/triad/float", 49, 192<<20),         // 3 arrays of 64 MiB
		sized("peaks/bandwidth/rmw/float16", 106, 96<<20), // 2 x 48 MiB
		sized("peaks/bandwidth/rmw/float16", 60, 512<<20),
	}
	p := FromBenchmarks(cpu, bs, "test", time.Now())
	if p == nil {
		t.Fatal("no profile")
	}
	if c := p.Patterns["copy"]; c == nil || c.Value != 49 {
		t.Errorf("copy ceiling %+v, want 49 GB/s from the 64 MiB arrays", c)
	}
	if c := p.Patterns["read-modify-write"]; c == nil || c.Value != 60 || c.CacheSized {
		t.Errorf("read-modify-write ceiling %+v, want 60 GB/s from 512 MiB", c)
	}
	// Alone, a cache-sized figure stands in, marked; a later figure measured
	// beyond the cache replaces it in a merge even when lower.
	small := FromBenchmarks(cpu, bs[:1], "quick", time.Now())
	if small == nil || small.Patterns["copy"] == nil || !small.Patterns["copy"].CacheSized || small.Patterns["copy"].Value != 76 {
		t.Fatalf("cache-sized alone: %+v", small)
	}
	m := Merge(small, FromBenchmarks(cpu, bs[1:2], "streams", time.Now()), false)
	if c := m.Patterns["copy"]; c.Value != 49 || c.CacheSized {
		t.Errorf("merged copy ceiling %+v, want 49 GB/s measured beyond the cache", c)
	}
	if m2 := Merge(m, small, false); m2.Patterns["copy"].Value != 49 {
		t.Errorf("a cache-sized figure raised a memory one: %+v", m2.Patterns["copy"])
	}
}
