package units

import (
	"math"
	"strconv"
	"strings"
)

// Scale chooses one scale for several figures of one unit that are shown
// side by side under a shared unit (a table row of devices): the multiplier
// that turns a figure into the number to write, and the unit written once
// for all of them, picked so that ref (a typical figure of the row) reads
// as Rate and Duration would write it. It takes the units Quantity takes:
// times in "ns" (12345 ns: 1e-3, "µs"), rates in G<unit>/s (45.4 GB/s:
// 1, "GB/s"; 2.25e-4 Glaunch/s: 1e6, "klaunches/s"). Other units come back
// unscaled.
func Scale(ref float64, unit string) (mult float64, shown string) {
	a := math.Abs(ref)
	if math.IsNaN(a) || math.IsInf(a, 0) {
		a = 0
	}
	if unit == "ns" {
		switch {
		case a < 1e3:
			return 1, "ns"
		case a < 1e6:
			return 1e-3, "µs"
		case a < 1e9:
			return 1e-6, "ms"
		}
		return 1e-9, "s"
	}
	base, ok := strings.CutSuffix(unit, "/s")
	if !ok || !strings.HasPrefix(base, "G") || len(base) < 2 {
		return 1, unit
	}
	base = base[1:]
	if base == "launch" {
		base = "launches"
	}
	v := a * 1e9
	for _, x := range []struct {
		p string
		m float64
	}{{"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if v >= x.m {
			return 1e9 / x.m, x.p + base + "/s"
		}
	}
	return 1e9, base + "/s"
}

// Sig3 writes v with three significant digits (two decimals below 10, one
// below 100, none above), as Rate writes its numbers: "9.10", "45.4", "268",
// "1234".
func Sig3(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}
