package clkernels

import (
	"math"
	"testing"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

func TestBandwidthValidates(t *testing.T) {
	dev := device(t)
	for _, p := range BandwidthPatterns {
		for _, w := range []int{1, 4, 16} {
			kb, err := BandwidthBenchmark(dev, p, w, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			runValid(t, kb)
		}
	}
	if _, err := BandwidthBenchmark(dev, "zigzag", 4, 1<<20); err == nil {
		t.Error("unknown pattern accepted")
	}
	if _, err := BandwidthBenchmark(dev, PatternStride, 3, 1<<20); err == nil {
		t.Error("width 3 accepted")
	}
}

func TestPatternTraffic(t *testing.T) {
	want := map[string]string{PatternStride: "read-only", PatternChunk: "read-only", PatternBlock: "read-only", PatternCopy: "copy", PatternRMW: "read-modify-write"}
	for p, w := range want {
		if got := PatternTraffic(p); got != w {
			t.Errorf("PatternTraffic(%s) = %s, want %s", p, got, w)
		}
	}
}

func TestComputeValidates(t *testing.T) {
	dev := device(t)
	for _, typ := range ComputeTypes {
		if !ComputeSupported(dev, typ) {
			if _, err := ComputeBenchmark(dev, typ, 4, 4); err == nil {
				t.Errorf("%s: unsupported type accepted", typ)
			}
			continue
		}
		for _, w := range []int{1, 16} {
			kb, err := ComputeBenchmark(dev, typ, w, 8)
			if err != nil {
				t.Fatal(err)
			}
			runValid(t, kb)
		}
	}
}

func TestLocalBandwidthValidates(t *testing.T) {
	dev := device(t)
	for _, w := range []int{1, 4, 16} {
		kb, err := LocalBandwidthBenchmark(dev, w, 8)
		if err != nil {
			t.Fatal(err)
		}
		runValid(t, kb)
	}
}

func TestImageBandwidthValidates(t *testing.T) {
	dev := device(t)
	if !ImageSupported(dev) {
		if _, err := ImageBandwidthBenchmark(dev, 1<<20, ImageLinear); err == nil {
			t.Error("image benchmark on a device without images")
		}
		t.Skip("no image support")
	}
	// 1 MiB and an image of a few rows (fewer rows than the tile walk's)
	for _, size := range []int64{1 << 20, 3 * 4096 * 16} {
		for _, walk := range ImageWalks {
			kb, err := ImageBandwidthBenchmark(dev, size, walk)
			if err != nil {
				t.Fatal(err)
			}
			runValid(t, kb)
		}
	}
	if _, err := ImageBandwidthBenchmark(dev, 1<<20, "zigzag"); err == nil {
		t.Error("an unknown walk was accepted")
	}
}

func TestIntegerReferenceWraps(t *testing.T) {
	// char: x*13 + 95 wraps at 8 bits.
	x, y := int64(100*13+95)&0xff, int64(101*13+95)&0xff
	if got := computeRef(tChar, 100, 1, 2, false); got != float64(int8(uint8(x))+int8(uint8(y))) {
		t.Errorf("char step: %g", got)
	}
	// mad24 drops the bits above 24 of its factors.
	if computeRef(tInt, 1<<24+3, 1, 2, true) == computeRef(tInt, 1<<24+3, 1, 2, false) {
		t.Error("mad24 reference ignores the 24-bit factor")
	}
}

func TestHalfRoundTrip(t *testing.T) {
	for _, f := range []float32{0, 1, -2, 0.9375, 0.0625, 65504, 1e-7, 3.14159} {
		g := halfFloat(halfBits(f))
		if math.Abs(float64(g-f)) > math.Abs(float64(f))*1e-3+6e-8 {
			t.Errorf("half(%g) = %g", f, g)
		}
	}
	if halfBits(1) != 0x3c00 || halfBits(-2) != 0xc000 || halfBits(1e6) != 0x7c00 {
		t.Errorf("halfBits: %x %x %x", halfBits(1), halfBits(-2), halfBits(1e6))
	}
}

// TestComputeChains: the chains of a compute lane fill the FMA pipes without
// spilling the vector registers, on machine shapes this machine is not.
func TestComputeChains(t *testing.T) {
	dev := func(typ string, nativeFloat int) *runtime.Device {
		return &runtime.Device{Info: cl.DeviceInfo{TypeName: typ, NativeVectorWidthFloat: nativeFloat}}
	}
	for _, c := range []struct {
		name        string
		dev         *runtime.Device
		vectorBytes int64
		want        int
	}{
		{"GPU double16", dev("GPU", 1), 128, 2},
		{"GPU float", dev("GPU", 1), 4, 2},
		{"AVX2 double", dev("CPU", 8), 8, 8},
		{"AVX2 double4 (one register)", dev("CPU", 8), 32, 8},
		{"AVX2 double8 (two registers)", dev("CPU", 8), 64, 4},
		{"AVX2 double16 (four registers)", dev("CPU", 8), 128, 2},
		{"AVX2 int16", dev("CPU", 8), 64, 4},
		{"AVX-512 float16 (one register)", dev("CPU", 16), 64, 16},
		{"AVX-512 double16 (two registers)", dev("CPU", 16), 128, 8},
		{"AVX-512 char", dev("CPU", 16), 1, 16},
		{"NEON float16 (four registers)", dev("CPU", 4), 64, 2},
		{"CPU reporting no native width", dev("CPU", 0), 128, 2},
	} {
		got := ComputeChains(c.dev, c.vectorBytes)
		if got != c.want {
			t.Errorf("%s: %d chains, want %d", c.name, got, c.want)
		}
		if c.dev.Info.TypeName == "CPU" {
			reg := max(int64(c.dev.Info.NativeVectorWidthFloat)*4, 32)
			if regs := int64(got) * max((c.vectorBytes+reg-1)/reg, 1); regs > 16 {
				t.Errorf("%s: %d chains hold %d registers, more than 16", c.name, got, regs)
			}
		}
	}
}
