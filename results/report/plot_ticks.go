package report

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/clmeter/clmeter/units"
)

// preciseTicks are gonum's default ticks labelled with as many significant
// digits as the axis's range needs, so that a tight distribution (11.215 to
// 11.225 us) does not show the same label at every tick.
type preciseTicks struct{}

func (preciseTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
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

// rateTicks label another marker's ticks, placed on rates in G<Unit>/s, in
// scaled units ("500 MB/s", "2 TB/s") rather than bare numbers.
type rateTicks struct {
	plot.Ticker
	Unit string
}

func (r rateTicks) Ticks(min, max float64) []plot.Tick {
	ticks := r.Ticker.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = trimZeros(units.Rate(ticks[i].Value, r.Unit))
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

// timeTicks label another marker's ticks, placed on nanoseconds, as times
// ("250 µs", "1.5 ms").
type timeTicks struct{ plot.Ticker }

func (t timeTicks) Ticks(min, max float64) []plot.Tick {
	ticks := t.Ticker.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = trimZeros(units.Nanoseconds(ticks[i].Value))
			if ticks[i].Value == 0 {
				ticks[i].Label = "0"
			}
		}
	}
	return ticks
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
