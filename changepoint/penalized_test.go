package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDriftIsOneDrift: a steady slowdown of 0.3% a run over 60 runs at 0.5%
// noise is one drift with its slope, not a staircase of changes; E-Divisive
// makes it a staircase.
func TestDriftIsOneDrift(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	x := make([]float64, 60)
	for i := range x {
		x[i] = 100 * (1 + 0.003*float64(i)) * (1 + 0.005*rng.NormFloat64())
	}
	a := Analyze(x, Settings{})
	if len(a.Changes) != 0 || len(a.Drifts) != 1 {
		t.Fatalf("changes %+v drifts %+v, want one drift", a.Changes, a.Drifts)
	}
	d := a.Drifts[0]
	if d.Start != 0 || d.N != 60 || math.Abs(d.Slope-0.3) > 0.05 || math.Abs(d.Level-100) > 1.5 || d.PValue > 1e-6 {
		t.Errorf("drift %+v, want from 0 over 60 runs, slope 0.3 a run from 100", d)
	}
	if math.Abs(d.Size-d.Slope*59/d.Level) > 1e-9 || d.Confidence != 1-d.PValue {
		t.Errorf("size %g confidence %g", d.Size, d.Confidence)
	}
	if n := len(Detect(x, Settings{Method: EDivisive})); n < 3 {
		t.Errorf("E-Divisive: %d changes, expected a staircase", n)
	}
}

// TestStepThenDrift: flat, then a drift from run 30: one drift from there
// (a change where it starts is allowed), nothing before.
func TestStepThenDrift(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	x := make([]float64, 60)
	for i := range x {
		x[i] = 100 * (1 + 0.01*math.Max(0, float64(i-30))) * (1 + 0.005*rng.NormFloat64())
	}
	a := Analyze(x, Settings{})
	if len(a.Drifts) != 1 || math.Abs(float64(a.Drifts[0].Start-30)) > 2 || a.Drifts[0].Start+a.Drifts[0].N != 60 {
		t.Fatalf("drifts %+v, want one from about run 30 to the end", a.Drifts)
	}
	if len(a.Changes) > 1 || len(a.Changes) == 1 && a.Changes[0].Index != a.Drifts[0].Start {
		t.Errorf("changes %+v", a.Changes)
	}
	if len(a.Changes) == 1 && (a.Changes[0].After.Slope <= 0 || a.Changes[0].Before.Slope != 0 || math.Abs(a.Changes[0].Size) > 0.03) {
		t.Errorf("change into the drift: %+v", a.Changes[0])
	}
}

// TestBlipIsOutlier: one run 40% slow and a three-run excursion that come
// back are outliers at MinSize 4, not changes; the same excursion kept for
// good is a change. At the default MinSize 3, a two-run excursion is an
// outlier and a three-run one two changes.
func TestBlipIsOutlier(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	x := make([]float64, 50)
	for i := range x {
		x[i] = 100 * (1 + 0.005*rng.NormFloat64())
	}
	x[12] *= 1.4
	for i := 30; i < 33; i++ {
		x[i] *= 1.2
	}
	if a := Analyze(x, Settings{}); len(a.Changes) != 2 || a.Changes[0].Index != 30 || a.Changes[1].Index != 33 || len(a.Outliers) != 1 {
		t.Errorf("MinSize 3, three-run excursion: changes %+v outliers %+v, want two changes and one outlier", a.Changes, a.Outliers)
	}
	y := slices.Clone(x)
	y[32] /= 1.2
	if a := Analyze(y, Settings{}); len(a.Changes) != 0 || len(a.Outliers) != 2 || a.Outliers[1].Index != 30 || a.Outliers[1].N != 2 {
		t.Errorf("MinSize 3, two-run excursion: changes %+v outliers %+v, want two outliers", a.Changes, a.Outliers)
	}
	four := Settings{MinSize: 4}
	a := Analyze(x, four)
	if len(a.Changes) != 0 || len(a.Drifts) != 0 || len(a.Outliers) != 2 {
		t.Fatalf("changes %+v drifts %+v outliers %+v, want two outliers", a.Changes, a.Drifts, a.Outliers)
	}
	if o := a.Outliers[0]; o.Index != 12 || o.N != 1 || math.Abs(o.Size-0.4) > 0.03 || math.Abs(o.Level-100) > 1 {
		t.Errorf("first outlier %+v", o)
	}
	if o := a.Outliers[1]; o.Index != 30 || o.N != 3 || math.Abs(o.Size-0.2) > 0.03 {
		t.Errorf("second outlier %+v", o)
	}
	for i := 33; i < 50; i++ {
		x[i] *= 1.2
	}
	a = Analyze(x, four)
	if len(a.Changes) != 1 || a.Changes[0].Index != 30 || len(a.Outliers) != 1 {
		t.Errorf("kept for good: changes %+v outliers %+v", a.Changes, a.Outliers)
	}
}

// TestMinSizeAndSignificance: the settings a user has: with 3 runs after a
// step, MinSize 4 sees outliers and MinSize 3 (the default) a change; a
// stricter significance level drops a marginal change.
func TestMinSizeAndSignificance(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	x := make([]float64, 30)
	for i := range x {
		x[i] = 100 * (1 + 0.005*rng.NormFloat64())
		if i >= 27 {
			x[i] *= 1.1
		}
	}
	if a := Analyze(x, Settings{MinSize: 4}); len(a.Changes) != 0 || len(a.Outliers) != 1 || a.Outliers[0].N != 3 {
		t.Errorf("MinSize 4: changes %+v outliers %+v", a.Changes, a.Outliers)
	}
	if a := Analyze(x, Settings{}); len(a.Changes) != 1 || a.Changes[0].Index != 27 {
		t.Errorf("MinSize 3: changes %+v outliers %+v", a.Changes, a.Outliers)
	}
	y := make([]float64, 40)
	for i := range y {
		y[i] = 100 * (1 + 0.01*rng.NormFloat64())
		if i >= 20 {
			y[i] *= 1.03
		}
	}
	loose, strict := Detect(y, Settings{MaxPValue: 0.05}), Detect(y, Settings{MaxPValue: 1e-9})
	if len(loose) != 1 || len(strict) != 0 {
		t.Errorf("p <= 0.05: %+v; p <= 1e-9: %+v", loose, strict)
	}
}

// TestSeasonalIsNotChange: a weekly pattern of ±3% over 10 weeks is neither
// a change nor a drift.
func TestSeasonalIsNotChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	x := make([]float64, 70)
	for i := range x {
		x[i] = 100 * (1 + 0.03*math.Sin(2*math.Pi*float64(i)/7)) * (1 + 0.003*rng.NormFloat64())
	}
	if a := Analyze(x, Settings{}); len(a.Changes)+len(a.Drifts) != 0 {
		t.Errorf("changes %+v drifts %+v", a.Changes, a.Drifts)
	}
}

// TestDegenerate: constant, exactly linear, short and quantised series.
func TestDegenerate(t *testing.T) {
	lin := make([]float64, 30)
	for i := range lin {
		lin[i] = 10 + 2*float64(i)
	}
	a := Analyze(lin, Settings{})
	if len(a.Changes) != 0 || len(a.Drifts) != 1 || a.Drifts[0].Slope != 2 || a.Drifts[0].Level != 10 {
		t.Errorf("a line: %+v %+v", a.Changes, a.Drifts)
	}
	q := make([]float64, 40) // a timer of 1000 ns resolution: two values
	for i := range q {
		q[i] = 5000
		if i%5 == 0 {
			q[i] = 6000
		}
	}
	if a := Analyze(q, Settings{}); len(a.Changes)+len(a.Drifts) != 0 {
		t.Errorf("quantised: %+v %+v", a.Changes, a.Drifts)
	}
	for _, x := range [][]float64{nil, {1}, {1, 2}, {3, 3, 3, 3, 3, 3, 3, 3, 3, 3}} {
		if a := Analyze(x, Settings{}); a.Changes == nil || a.Drifts == nil || a.Outliers == nil || len(a.Changes)+len(a.Drifts)+len(a.Outliers) != 0 {
			t.Errorf("%v: %+v", x, a)
		}
	}
	if Penalized.String() != "penalized" || EDivisive.String() != "e-divisive" {
		t.Error("method names")
	}
}

// TestTrendStatistics checks Theil-Sen and Mann-Kendall against values
// worked by hand.
func TestTrendStatistics(t *testing.T) {
	// Slopes between pairs of 1 3 2 5: 2 0.5 1.33 -1 1 3: median (1+1.33)/2.
	if got := theilSen([]float64{1, 3, 2, 5}); math.Abs(got-(1+4.0/3)/2) > 1e-12 {
		t.Errorf("Theil-Sen %g", got)
	}
	// S = 6 for 1 2 3 4 (n = 4, var = 4·3·13/18 = 8.667), z = 5/2.944.
	want := 2 * (1 - 0.5*(1+math.Erf(5/math.Sqrt(26.0/3)/math.Sqrt2)))
	if got := mannKendallP([]float64{1, 2, 3, 4}); math.Abs(got-want) > 1e-9 {
		t.Errorf("Mann-Kendall p %g, want %g", got, want)
	}
	if got := mannKendallP([]float64{1, 1, 1, 1, 1}); got != 1 {
		t.Errorf("ties only: p %g", got)
	}
	long := make([]float64, 3000)
	for i := range long {
		long[i] = 0.5 * float64(i)
	}
	if got := theilSen(long); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("thinned Theil-Sen %g", got)
	}
}

// BenchmarkAnalyze400: one series of 400 runs with two steps and a blip, as
// 'history NAME --regressions' analyses it.
func BenchmarkAnalyze400(b *testing.B) {
	rng := rand.New(rand.NewPCG(31, 32))
	x := make([]float64, 400)
	for i := range x {
		x[i] = 100 * (1 + 0.005*rng.NormFloat64())
		if i >= 150 {
			x[i] *= 1.05
		}
		if i >= 300 {
			x[i] *= 0.9
		}
	}
	x[77] *= 1.5
	for b.Loop() {
		Analyze(x, Settings{})
	}
}

// BenchmarkAnalyze400EDivisive: the same with E-Divisive, for comparison.
func BenchmarkAnalyze400EDivisive(b *testing.B) {
	rng := rand.New(rand.NewPCG(31, 32))
	x := make([]float64, 400)
	for i := range x {
		x[i] = 100 * (1 + 0.005*rng.NormFloat64())
		if i >= 150 {
			x[i] *= 1.05
		}
		if i >= 300 {
			x[i] *= 0.9
		}
	}
	x[77] *= 1.5
	for b.Loop() {
		Analyze(x, Settings{Method: EDivisive})
	}
}

// TestMedian checks the quickselect median against sorting.
func TestMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for n := 1; n < 300; n++ {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.IntN(20)) // with ties
		}
		s := slices.Clone(v)
		slices.Sort(s)
		want := s[n/2]
		if n%2 == 0 {
			want = (s[n/2-1] + s[n/2]) / 2
		}
		if got := median(v); got != want {
			t.Fatalf("n %d: median %g, want %g", n, got, want)
		}
	}
}
