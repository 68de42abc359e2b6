package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/svgchart"
	"github.com/clmeter/clmeter/units"
)

// preciseTicks labels ticks with as many significant digits as the axis's
// range [min, max] needs, so that a tight distribution (11.215 to 11.225 us)
// does not show the same label at every tick.
func preciseTicks(ticks []svgchart.Tick, min, max float64) []svgchart.Tick {
	span := max - min
	if span <= 0 {
		return ticks
	}
	// Digits after the point: enough to tell ticks a tenth of the span apart.
	dec := int(math.Ceil(-math.Log10(span / 10)))
	if dec < 0 {
		dec = 0
	}
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', dec, 64)
		}
	}
	return ticks
}

// rateTicks labels ticks placed on rates in G<unit>/s in scaled units
// ("500 MB/s", "2 TB/s") rather than bare numbers.
func rateTicks(ticks []svgchart.Tick, unit string) []svgchart.Tick {
	return relabel(ticks, func(v float64) string { return trimZeros(units.Rate(v, unit)) })
}

// relabel writes each labelled tick's value with f, a zero as "0".
func relabel(ticks []svgchart.Tick, f func(float64) string) []svgchart.Tick {
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = f(ticks[i].Value)
			if ticks[i].Value == 0 {
				ticks[i].Label = "0"
			}
		}
	}
	return ticks
}

// sweepUnit is the rate unit of a sweep's metric label ("B" for bandwidth).
func sweepUnit(label string) string {
	if strings.HasPrefix(label, "bandwidth") {
		return "B"
	}
	u, _, _ := strings.Cut(label, "/s")
	return u
}

// timeTicks labels ticks placed on nanoseconds as times ("250 µs", "1.5 ms").
func timeTicks(ticks []svgchart.Tick) []svgchart.Tick {
	return relabel(ticks, func(v float64) string { return trimZeros(units.Nanoseconds(v)) })
}

// trimZeros drops the trailing zeros of a quantity's number, for tick labels:
// "10.0 GB/s" is "10 GB/s", "2.50 ms" is "2.5 ms".
func trimZeros(q string) string {
	num, unit, ok := strings.Cut(q, " ")
	if !ok || !strings.Contains(num, ".") {
		return q
	}
	num = strings.TrimRight(strings.TrimRight(num, "0"), ".")
	return num + " " + unit
}
