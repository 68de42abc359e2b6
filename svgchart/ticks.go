package svgchart

import (
	"math"
	"strconv"
)

// A Tick is a mark on an axis at Value; a tick without a Label is a minor
// one, drawn shorter.
type Tick struct {
	Value float64
	Label string
}

// NiceTicks returns about n round tick values covering [lo, hi] with a 5%
// margin, and the range they span.
func NiceTicks(lo, hi float64, n int) ([]float64, float64, float64) {
	if hi <= lo {
		d := math.Max(math.Abs(lo)*0.05, 1)
		lo, hi = lo-d, hi+d
	}
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad
	step := niceStep((hi - lo) / float64(n))
	start := math.Ceil(lo/step) * step
	var ticks []float64
	for v := start; v <= hi+step*1e-9; v += step {
		ticks = append(ticks, v)
	}
	return ticks, lo, hi
}

// niceStep is the least of 1, 2, 2.5, 5 and 10 times a power of ten that is
// at least raw.
func niceStep(raw float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// LinearTicks returns about n (and at least three, where a round step
// gives them) labelled ticks at round values within [min, max], labelled
// with the digits their step needs, and unlabelled minor ticks between them.
func LinearTicks(min, max float64, n int) []Tick {
	if !(max > min) || n < 1 {
		return nil
	}
	step := niceStep((max - min) / float64(n))
	for range 3 {
		if math.Floor(max/step)-math.Ceil(min/step) >= 2 {
			break
		}
		step = smallerStep(step)
	}
	e := math.Floor(math.Log10(step))
	m := math.Round(step/math.Pow(10, e)*10) / 10
	minor := step / 5
	if m == 2 || m == 5 {
		minor = step / m
	}
	dec := max0(int(-e))
	if m == 2.5 {
		dec = max0(int(1 - e))
	}
	var out []Tick
	for k := math.Ceil(min/minor - 1e-9); k*minor <= max+(max-min)*1e-9; k++ {
		t := Tick{Value: k * minor}
		if q := t.Value / step; math.Abs(q-math.Round(q)) < 1e-6 {
			t.Value = math.Round(q) * step
			t.Label = strconv.FormatFloat(t.Value, 'f', dec, 64)
		}
		if t.Value == 0 {
			t.Value = 0 // not -0
			if t.Label != "" {
				t.Label = "0"
			}
		}
		out = append(out, t)
	}
	return out
}

// smallerStep is the round step below step (5 to 2.5 to 2 to 1 to 0.5).
func smallerStep(step float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(step)))
	switch m := math.Round(step/mag*10) / 10; {
	case m >= 5:
		return 2.5 * mag
	case m >= 2.5:
		return 2 * mag
	case m >= 2:
		return mag
	}
	return mag / 2
}

func max0(i int) int {
	if i < 0 {
		return 0
	}
	return i
}

// LogTicks returns a labelled tick at each power of ten within [min, max]
// and unlabelled ones at its 2 to 9 multiples; both must be positive.
func LogTicks(min, max float64) []Tick {
	if !(min > 0 && max > min) {
		return nil
	}
	var out []Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		dec := math.Pow(10, e)
		for i := 1; i < 10; i++ {
			v := dec * float64(i)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := Tick{Value: v}
			if i == 1 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			out = append(out, t)
		}
	}
	return out
}
