package main

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

func TestParseClpeak(t *testing.T) {
	out := `
    Global memory bandwidth (GBPS)
      float   : 2.60
      float16 : 14.26

    Single-precision compute (GFLOPS)
      float   : 1.55
      float16 : 41.37

    Integer compute (GIOPS)
      int16 : 36.52

    Integer compute Fast 24bit (GIOPS)
      int16 : 65.90

    Transfer bandwidth (GBPS)
      enqueueWriteBuffer              : 15.16

    Kernel launch latency : 16.93 us
`
	f := parseClpeak(out)
	want := map[string]float64{"bandwidth": 14.26, "float": 41.37, "int": 36.52, "int24": 65.90, "latency": 16.93}
	for k, v := range want {
		if f[k] != v {
			t.Errorf("%s: got %g, want %g", k, f[k], v)
		}
	}
	if len(f) != len(want) {
		t.Errorf("extra figures: %v", f)
	}
}

func TestMedianCI(t *testing.T) {
	med, lo, hi := medianCI([]float64{9, 1, 8, 2, 7, 3, 6, 4, 5})
	// n = 9: the 2nd and 8th order statistics cover 96.1%.
	if med != 5 || lo != 2 || hi != 8 {
		t.Errorf("got %g [%g, %g]", med, lo, hi)
	}
	if _, lo, hi := medianCI([]float64{1, 2, 3}); lo != 1 || hi != 3 {
		t.Errorf("three values: [%g, %g]", lo, hi)
	}
}

func TestPeaksFilter(t *testing.T) {
	// clpeak 1.1.2's tests: no local, image, half, char or short.
	old := regexp.MustCompile(peaksFilter([]string{"--global-bandwidth", "--compute-sp", "--compute-dp", "--compute-integer", "--compute-intfast"}))
	all := regexp.MustCompile(peaksFilter(nil))
	for name, inOld := range map[string]bool{
		"peaks/bandwidth/stride/float1": true,
		"peaks/bandwidth/chunk/float16": true,
		"peaks/compute/float/8":         true,
		"peaks/compute/double/1":        true,
		"peaks/compute/int/2":           true,
		"peaks/compute/int24/16":        true,
		"peaks/compute/char/1":          false,
		"peaks/compute/short/4":         false,
		"peaks/compute/half/2":          false,
		"peaks/local-bandwidth/float4":  false,
		"peaks/image-bandwidth/chunk":   false,
		"peaks/bandwidth/copy/float4":   false,
		"peaks/cache-bandwidth/16KiB":   false,
		"streams/compute/float/8":       false,
	} {
		if got := old.MatchString(name); got != inOld {
			t.Errorf("clpeak 1.1.2's filter %s: %s matched %v, want %v", old, name, got, inOld)
		}
		if want := strings.HasPrefix(name, "peaks/") && !strings.Contains(name, "copy") && !strings.Contains(name, "cache-"); all.MatchString(name) != want {
			t.Errorf("the filter of every test %s: %s matched %v, want %v", all, name, !want, want)
		}
	}
}

func TestAppendBracket(t *testing.T) {
	// clmeter's 11 between the C loop's 10 and 12.1: their geometric mean is 11.
	r, c := appendBracket(nil, nil, 11, 10, 12.1)
	if len(r) != 1 || len(c) != 1 || math.Abs(r[0]-1) > 1e-12 || math.Abs(c[0]-1.21) > 1e-12 {
		t.Fatalf("appendBracket(11, 10, 12.1) = %v, %v; want [1], [1.21]", r, c)
	}
	r, c = appendBracket(r, c, 9, 9, 9)
	if len(r) != 2 || r[1] != 1 || c[1] != 1 {
		t.Fatalf("second round: %v, %v", r, c)
	}
}
