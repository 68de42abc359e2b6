package clkernels

import (
	"math"
	"testing"
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
	want := map[string]string{PatternStride: "read-only", PatternChunk: "read-only", PatternCopy: "copy", PatternRMW: "read-modify-write"}
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
