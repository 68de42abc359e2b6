package profile

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
)

var gpu = results.DeviceInfo{Index: "1:0", Platform: "NVIDIA CUDA", PlatformVersion: "OpenCL 3.0 CUDA 12.4", Name: "NVIDIA H100 80GB HBM3", DriverVersion: "550.54", ComputeUnits: 132}

// h100 is a profile shaped like an H100's: 3 TB/s, 50 TFLOP/s fp32, 4 µs a launch.
func h100() *Profile {
	o := Origin{Source: "test", Measured: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	at := func(from string) Origin { o := o; o.From = from; return o }
	return &Profile{Format: FormatVersion, Key: KeyOf(gpu), Device: gpu, Updated: o.Measured,
		Bandwidth: &Ceiling{Value: 3000, Unit: "GB/s", Origin: at("peaks/bandwidth/copy/float4"), Pattern: "copy"},
		Compute: map[string]*Ceiling{"float": {Value: 50000, Unit: "GFLOP/s", Origin: at("peaks/compute/float/4")},
			"double": {Value: 25000, Unit: "GFLOP/s", Origin: at("peaks/compute/double/4")}},
		Launch: &Latency{Value: 4 * time.Microsecond, Origin: at("launch/throughput")}}
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
			LaunchBound, 0, []string{"1.0x the device's launch time", "1 work-item for 132 compute units"}},
		{"small triad is launch-bound", Kernel{BytesPerLaunch: 12 << 10, Median: 9 * time.Microsecond, WorkGroups: 4},
			LaunchBound, 0, []string{"2.2x"}},
		{"few work-groups", Kernel{BytesPerLaunch: 1 << 30, Median: 5 * time.Millisecond, WorkGroups: 16},
			UnderFilled, 7, []string{"16 work-groups for 132 compute units: 116 units idle"}},
		{"nothing known", Kernel{Median: time.Millisecond, WorkGroups: 1000},
			Unknown, 0, []string{"give --bytes and --flops"}},
		{"far below the roof", Kernel{BytesPerLaunch: 1 << 30, Median: dur(1<<30, 300e9), WorkGroups: 4096},
			MemoryBound, 10, []string{"far below it"}},
		{"above the ceiling", Kernel{BytesPerLaunch: 1 << 30, Median: dur(1<<30, 3600e9), WorkGroups: 4096},
			MemoryBound, 0, []string{"the ceiling is too low", "above the measured memory ceiling 3.00 TB/s"}},
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
	st := Folder{Dir: filepath.Join(t.TempDir(), "profiles")}
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
	if err != nil || q.Bandwidth.Value != 3000 || q.Compute["float"].Value != 50000 || q.LaunchLatency() != 4*time.Microsecond ||
		q.Bandwidth.Source != "test" || q.Bandwidth.From != "peaks/bandwidth/copy/float4" || !q.Bandwidth.Measured.Equal(p.Bandwidth.Measured) {
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

// TestMerge checks that folding a measurement into a profile keeps the best
// of each figure with its origin: a later, smaller, weaker or cache-sized
// suite, a full 'suite peaks' included, never lowers a ceiling or raises the
// launch floor; a better figure replaces the old one with its own origin.
func TestMerge(t *testing.T) {
	later := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	from := func(src, bench string) Origin { return Origin{From: bench, Source: src, Measured: later} }
	tests := []struct {
		name string
		n    *Profile
		// want: the bandwidth, float compute, launch floor and their sources.
		bw, float   float64
		launch      time.Duration
		bwSource    string
		floatSource string
		notes       []string
	}{
		{"a higher bandwidth from streams replaces the old one",
			&Profile{Bandwidth: &Ceiling{Value: 3100, Unit: "GB/s", Origin: from("clmeter suite streams", "streams/copy/float"), Pattern: "copy"}},
			3100, 50000, 4 * time.Microsecond, "clmeter suite streams", "test", nil},
		{"a weaker, noisier partial run changes nothing and says so",
			&Profile{Bandwidth: &Ceiling{Value: 2000, Unit: "GB/s", Origin: from("clmeter suite quick", "streams/triad/float")},
				Compute: map[string]*Ceiling{"float": {Value: 40000, Unit: "GFLOP/s", Origin: from("clmeter suite quick", "peaks/compute/float/4")}},
				Launch:  &Latency{Value: 10 * time.Microsecond, Origin: from("clmeter suite quick", "launch/throughput")}},
			3000, 50000, 4 * time.Microsecond, "test", "test",
			[]string{"global memory bandwidth: kept 3.00 TB/s (peaks/bandwidth/copy/float4; test, ", "float compute: kept 50.0 TFLOP/s", "launch: kept 4.000 µs"}},
		{"a full suite peaks measuring less does not lower the ceilings either",
			&Profile{Bandwidth: &Ceiling{Value: 2950, Unit: "GB/s", Origin: from("clmeter suite peaks", "peaks/bandwidth/stride/float4")},
				Compute: map[string]*Ceiling{"float": {Value: 49000, Unit: "GFLOP/s", Origin: from("clmeter suite peaks", "peaks/compute/float/8")}}},
			3000, 50000, 4 * time.Microsecond, "test", "test", nil},
		{"a cache-sized figure becomes the cache bandwidth, not the memory ceiling",
			&Profile{CacheBandwidth: &Ceiling{Value: 9000, Unit: "GB/s", Origin: from("clmeter suite quick", "streams/copy/float")}},
			3000, 50000, 4 * time.Microsecond, "test", "test", nil},
		{"a faster launch and a higher compute figure win with their origin",
			&Profile{Compute: map[string]*Ceiling{"float": {Value: 52000, Unit: "GFLOP/s", Origin: from("clmeter suite peaks", "peaks/compute/float/16")}},
				Launch: &Latency{Value: 3 * time.Microsecond, Origin: from("clmeter suite launch", "launch/throughput")}},
			3000, 52000, 3 * time.Microsecond, "test", "clmeter suite peaks", nil},
	}
	for _, tt := range tests {
		old := h100()
		n := tt.n
		n.Key, n.Device, n.Updated = old.Key, gpu, later
		m, notes := Merge(old, n)
		if m.Bandwidth.Value != tt.bw || m.Compute["float"].Value != tt.float || m.LaunchLatency() != tt.launch {
			t.Errorf("%s: bandwidth %g float %g launch %v, want %g %g %v", tt.name, m.Bandwidth.Value, m.Compute["float"].Value, m.LaunchLatency(), tt.bw, tt.float, tt.launch)
		}
		if m.Bandwidth.Source != tt.bwSource || m.Compute["float"].Source != tt.floatSource {
			t.Errorf("%s: sources %q %q, want %q %q", tt.name, m.Bandwidth.Source, m.Compute["float"].Source, tt.bwSource, tt.floatSource)
		}
		if m.Compute["double"] == nil || m.Compute["double"].Value != 25000 {
			t.Errorf("%s: a figure the measurement lacks was lost: %+v", tt.name, m.Compute["double"])
		}
		if !m.Updated.Equal(later) {
			t.Errorf("%s: updated %v", tt.name, m.Updated)
		}
		all := strings.Join(notes, "\n")
		for _, want := range tt.notes {
			if !strings.Contains(all, want) {
				t.Errorf("%s: notes lack %q:\n%s", tt.name, want, all)
			}
		}
		if tt.notes == nil && len(notes) > 0 {
			t.Errorf("%s: unexpected notes %q", tt.name, notes)
		}
		if c := n.CacheBandwidth; c != nil && (m.CacheBandwidth != c || m.Bandwidth == c) {
			t.Errorf("%s: cache bandwidth %+v, memory %+v", tt.name, m.CacheBandwidth, m.Bandwidth)
		}
	}
	old := h100()
	if old.Short() {
		t.Error("a full profile reads as short")
	}
	short := &Profile{Key: old.Key, Compute: map[string]*Ceiling{}, Bandwidth: &Ceiling{Value: 3200, Origin: Origin{Source: ShortSource}}}
	m, _ := Merge(old, short)
	if !m.Short() || !strings.Contains(m.Describe(), "short profile") {
		t.Errorf("a short bandwidth kept: Short %v, %q", m.Short(), m.Describe())
	}
	if got := strings.Join(m.Sources(), ","); got != "short profile,test" {
		t.Errorf("sources %q", got)
	}
	if old.Bandwidth.Value != 3000 || old.Compute["float"].Value != 50000 {
		t.Error("Merge changed its input")
	}
	// Another device's measurement is a profile of its own.
	other := h100()
	other.Key.DriverVersion = "560.1"
	if m, _ := Merge(old, other); m.Key != other.Key {
		t.Error("a measurement of another driver merged into this one")
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
	p.Bandwidth = &Ceiling{Value: 95, Unit: "GB/s", Origin: Origin{From: "peaks/bandwidth/rmw/float1"}, Pattern: "read-modify-write"}
	p.Patterns = map[string]*Ceiling{
		"read-modify-write": p.Bandwidth,
		"copy":              {Value: 50, Unit: "GB/s", Origin: Origin{From: "streams/copy/float"}, Pattern: "copy"},
		"read-only":         {Value: 65, Unit: "GB/s", Origin: Origin{From: "peaks/bandwidth/chunk/float16"}, Pattern: "read-only"},
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

// TestPlaceMissingCeiling checks that a kernel judged against a ceiling the
// profile lacks gets that said, with what to run, never a verdict of 0%.
func TestPlaceMissingCeiling(t *testing.T) {
	noCompute := h100()
	noCompute.Compute = map[string]*Ceiling{}
	noBandwidth := h100()
	noBandwidth.Bandwidth = nil
	noBandwidth.CacheBandwidth = &Ceiling{Value: 9000, Unit: "GB/s"}
	heavy := Kernel{BytesPerLaunch: 1 << 20, OpsPerLaunch: 1 << 30, OpsUnit: "FLOP", Median: dur(1<<30, 40000e9), WorkGroups: 4096} // 1024 FLOP/byte
	for _, tt := range []struct {
		name    string
		p       *Profile
		k       Kernel
		verdict string
		say     []string
	}{
		{"1024 FLOP/byte without a compute ceiling", noCompute, heavy, NoComputeCeiling,
			[]string{"no float compute ceiling in the profile: run 'clmeter suite peaks'", "at 1.02e+03 FLOP/byte"}},
		{"operations only, no compute ceiling", noCompute, Kernel{OpsPerLaunch: 1 << 30, OpsUnit: "FLOP", Median: time.Millisecond, WorkGroups: 4096}, NoComputeCeiling,
			[]string{"no float compute ceiling"}},
		{"a stream without a memory ceiling", noBandwidth, Kernel{BytesPerLaunch: 1 << 30, OpsPerLaunch: 1 << 27, OpsUnit: "FLOP", Median: time.Millisecond, WorkGroups: 4096}, NoBandwidthCeiling,
			[]string{"no global memory bandwidth ceiling (only a cache bandwidth of 9.00 TB/s, measured within the caches) in the profile: run 'clmeter suite peaks'"}},
		{"bytes only, no memory ceiling", noBandwidth, Kernel{BytesPerLaunch: 1 << 30, Median: time.Millisecond, WorkGroups: 4096}, NoBandwidthCeiling,
			[]string{"no global memory bandwidth ceiling"}},
	} {
		r := Place(tt.p, tt.k, Settings{})
		if r.Verdict != tt.verdict || r.Roof != 0 || r.PercentOfRoof != 0 {
			t.Errorf("%s: verdict %q, roof %g, %.0f%%; want %q without a roof", tt.name, r.Verdict, r.Roof, r.PercentOfRoof, tt.verdict)
		}
		all := strings.Join(r.Evidence, "\n")
		for _, s := range tt.say {
			if !strings.Contains(all, s) {
				t.Errorf("%s: evidence lacks %q:\n%s", tt.name, s, all)
			}
		}
		if strings.Contains(all, "0%") {
			t.Errorf("%s: a percentage of a missing roof:\n%s", tt.name, all)
		}
	}
}

// TestPlaceInCache checks that a kernel whose working set fits in the caches
// (the one ceiling rule, SlotOf) is placed under the cache bandwidth where
// the profile has one, and is never called faster than a ceiling that is
// too low when it has none (PoCL's saxpy over 12 MiB read 196% of a memory
// ceiling).
func TestPlaceInCache(t *testing.T) {
	cpu := gpu
	cpu.GlobalCacheBytes, cpu.ComputeUnits = 32<<20, 2
	p := h100()
	p.Device = cpu
	p.Bandwidth = &Ceiling{Value: 7.76, Unit: "GB/s", Origin: Origin{From: "peaks/bandwidth/rmw/float16"}, Pattern: "read-modify-write"}
	saxpy := Kernel{BytesPerLaunch: 12 << 20, OpsPerLaunch: 2 << 20, OpsUnit: "FLOP", Median: dur(12<<20, 15.2e9), WorkGroups: 4096, Traffic: "read-modify-write"}
	r := Place(p, saxpy, Settings{})
	all := strings.Join(r.Evidence, "\n")
	if r.Verdict != MemoryBound || !strings.Contains(all, "may run from the caches") || strings.Contains(all, "ceiling is too low") {
		t.Errorf("in cache, no cache bandwidth: %s %.0f%%:\n%s", r.Verdict, r.PercentOfRoof, all)
	}
	p.CacheBandwidth = &Ceiling{Value: 34.6, Unit: "GB/s", Origin: Origin{From: "peaks/bandwidth/chunk/float16"}}
	r = Place(p, saxpy, Settings{})
	all = strings.Join(r.Evidence, "\n")
	if r.Verdict != MemoryBound || r.PercentOfRoof < 43 || r.PercentOfRoof > 45 || !strings.Contains(all, "the bandwidth roof is the cache bandwidth 34.6 GB/s") {
		t.Errorf("in cache: %s %.1f%%:\n%s", r.Verdict, r.PercentOfRoof, all)
	}
	// Beyond the caches the memory ceiling is the roof.
	big := saxpy
	big.BytesPerLaunch, big.Median = 192<<20, dur(192<<20, 7e9)
	if r = Place(p, big, Settings{}); r.BandwidthGBPerSecond != 7.76 || r.PercentOfRoof < 89 || r.PercentOfRoof > 91 {
		t.Errorf("beyond the caches: roof %g, %.1f%%: %q", r.BandwidthGBPerSecond, r.PercentOfRoof, r.Evidence)
	}
}

// TestStoreListRemove checks List (usable profiles only, others named as
// skipped), Remove and RemoveAll (profiles of any format, nothing else).
func TestStoreListRemove(t *testing.T) {
	st := Folder{Dir: t.TempDir()}
	if ps, skipped, err := st.List(); err != nil || len(ps) != 0 || len(skipped) != 0 {
		t.Fatalf("empty store: %v %v %v", ps, skipped, err)
	}
	if _, err := st.Save(h100()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(st.Dir, "old-1.json"), []byte(`{"format": 1, "key": {"device": "old"}}`), 0o644)
	os.WriteFile(filepath.Join(st.Dir, "notes.json"), []byte(`{"mine": true}`), 0o644)
	ps, skipped, err := st.List()
	if err != nil || len(ps) != 1 || ps[0].Bandwidth.Value != 3000 || len(skipped) != 2 || !strings.Contains(strings.Join(skipped, "\n"), "old-1.json: of format 1") {
		t.Errorf("List: %v %q %v", ps, skipped, err)
	}
	if gone, err := st.Remove(KeyOf(gpu)); !gone || err != nil {
		t.Errorf("Remove: %v %v", gone, err)
	}
	if gone, err := st.Remove(KeyOf(gpu)); gone || err != nil {
		t.Errorf("Remove again: %v %v", gone, err)
	}
	st.Save(h100())
	removed, err := st.RemoveAll()
	if err != nil || len(removed) != 2 {
		t.Errorf("RemoveAll: %q %v", removed, err)
	}
	if _, err := os.Stat(filepath.Join(st.Dir, "notes.json")); err != nil {
		t.Error("RemoveAll removed a file that is no profile")
	}
}

func TestBeatsOffPlateau(t *testing.T) {
	on := &Ceiling{Value: 90, WorkingSet: 4 << 30}
	offSmall := &Ceiling{Value: 131, WorkingSet: 512 << 20, OffPlateau: true}
	offLarge := &Ceiling{Value: 96, WorkingSet: 2 << 30, OffPlateau: true}
	for _, c := range []struct {
		name     string
		new, old *Ceiling
		want     bool
	}{
		{"a plateau figure beats a faster one short of it", on, offSmall, true},
		{"short of the plateau never beats a plateau figure", offSmall, on, false},
		// The 16-core host's 300 MiB L3: 512 MiB read 131 GB/s, 2 GiB 96.
		{"short of the plateau, the larger working set wins", offLarge, offSmall, true},
		{"a smaller working set does not replace a larger one", offSmall, offLarge, false},
		{"same working set: the higher value", &Ceiling{Value: 100, WorkingSet: 2 << 30, OffPlateau: true}, offLarge, true},
		{"both on the plateau: the higher value", &Ceiling{Value: 91, WorkingSet: 1 << 30}, on, true},
		// A triad over three larger arrays is another traffic pattern: its
		// working set says nothing of how near a read is to memory's figure.
		{"across patterns short of the plateau: the higher value", &Ceiling{Value: 80, Pattern: "triad", WorkingSet: 3 << 30, OffPlateau: true}, offLarge, false},
		{"across patterns, a faster one wins", &Ceiling{Value: 120, Pattern: "triad", WorkingSet: 3 << 30, OffPlateau: true}, offLarge, true},
	} {
		if got := c.new.Beats(c.old); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
