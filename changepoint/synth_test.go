package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// The synthetic benchmark histories of the power study (power_test.go).
// Each run is a set of samples, as clmeter stores them: the run's level is
// the series' level times (1 + σ·(signal + between-run noise)), and each of
// its samples is that level times (1 + within-run noise). A run is
// analysed as clmeter does: its median, with the standard error its
// order-statistic 95% CI gives (or, with fewer than 6 samples, 1.2533·sd/√n).
//
// σ is the run-to-run noise of the runs' medians, measured robustly: both
// noises of a kind are scaled so that 1.4826·MAD of the medians' deviations
// from the level is σ (noiseScale). For Gaussian noise that is the medians'
// standard deviation; for heavy tails it is the spread of the bulk of the
// runs, not a standard deviation that a few far runs inflate.

// noiseKind is the distribution of the between-run noise.
type noiseKind int

const (
	gaussian noiseKind = iota
	bimodal
	heavyTailed
	heteroscedastic
	correlated
)

var noiseNames = []string{"gaussian", "bimodal", "heavy-tailed (t3)", "heteroscedastic", "correlated (AR1 0.5)"}

// spec says what one synthetic history holds.
type spec struct {
	noise noiseKind
	// before and after: runs before the step and from it on; no step when
	// after is 0 (then before is the length).
	before, after int
	// step is the step's size in σ.
	step float64
	// drift is a slope in σ per run from run driftAt on (0: none).
	drift   float64
	driftAt int
	// blip is the size in σ of an excursion of blipRuns runs at run blipAt.
	blip            float64
	blipAt, blipLen int
	// missing is the share of runs left out; few the share of runs with
	// only 3 to 5 samples.
	missing, few float64
	// reused: every run holds the same samples (one row drawn for the
	// history, its median's SE 3σ) times the run's level, so the runs' CIs
	// are three times wider than their medians' scatter (issue 47's
	// histories: the run-to-run noise applied to every sample of a real
	// result row).
	reused bool
}

// planted is a generated history: its runs and where the step landed
// (-1: none) after the missing runs were left out.
type planted struct {
	runs []Run
	step int
	// driftAt is the drift's first run after the missing runs were left
	// out (-1: none).
	driftAt int
}

// sigma is the run-to-run noise (relative), between is its share of
// variance from the between-run noise (the rest is the median's sampling
// noise at a typical run's sample count).
const (
	sigma   = 0.005
	between = 0.6
)

// meanInvN is the mean of 1/n over the sample counts 10..100 a run has.
var meanInvN = func() float64 {
	s := 0.0
	for n := 10; n <= 100; n++ {
		s += 1 / float64(n)
	}
	return s / 91
}()

// noiseScale[reused][kind] scales the noise of that kind so that the
// robust spread (1.4826·MAD) of the runs' medians about their level is σ:
// measured once on 300 quiet histories of 40 runs generated unscaled.
var noiseScale = sync.OnceValue(func() [2][]float64 {
	var out [2][]float64
	for r := range 2 {
		for k := range noiseNames {
			rng := rand.New(rand.NewPCG(uint64(k), uint64(r)))
			var dev []float64
			for range 300 {
				h := generateScaled(rng, spec{noise: noiseKind(k), before: 40, reused: r == 1}, 1)
				for _, run := range h.runs {
					dev = append(dev, (run.Value/1e6-1)/sigma)
				}
			}
			out[r] = append(out[r], 1/robustSpread(dev))
		}
	}
	return out
})

// robustSpread is 1.4826·MAD of v about its median.
func robustSpread(v []float64) float64 {
	d := slices.Clone(v)
	m := median(d)
	for i := range d {
		d[i] = math.Abs(d[i] - m)
	}
	return 1.4826 * median(d)
}

// generate makes one history of sp from rng, σ the robust spread of its
// medians' noise.
func generate(rng *rand.Rand, sp spec) planted {
	r := 0
	if sp.reused {
		r = 1
	}
	return generateScaled(rng, sp, noiseScale()[r][sp.noise])
}

// generateScaled makes one history of sp with both noises scaled by c.
func generateScaled(rng *rand.Rand, sp spec, c float64) planted {
	n := sp.before + sp.after
	bn := betweenNoise(rng, sp.noise, n)
	share := between
	var row []float64
	if sp.reused {
		share, row = 1, reusedRow(rng)
	}
	// The within-run σ of one sample whose median's variance at the mean
	// 1/n is the rest of σ².
	sw := c * math.Sqrt((1-between)*sigma*sigma/meanInvN) / 1.2533
	var runs []Run
	p := planted{step: -1, driftAt: -1}
	for i := range n {
		sig := c * bn[i] * math.Sqrt(share)
		if sp.after > 0 && i >= sp.before {
			sig += sp.step
		}
		if sp.drift != 0 && i >= sp.driftAt {
			sig += sp.drift * float64(i-sp.driftAt)
		}
		if sp.blip != 0 && i >= sp.blipAt && i < sp.blipAt+sp.blipLen {
			sig += sp.blip
		}
		keep := i == sp.before || i == sp.driftAt || rng.Float64() >= sp.missing
		if !keep {
			continue
		}
		if sp.after > 0 && i == sp.before {
			p.step = len(runs)
		}
		if sp.drift != 0 && i == sp.driftAt {
			p.driftAt = len(runs)
		}
		level := 1e6 * (1 + sigma*sig)
		if row != nil {
			runs = append(runs, scaledRun(row, level/1e6))
			continue
		}
		ns := 10 + rng.IntN(91)
		if rng.Float64() < sp.few {
			ns = 3 + rng.IntN(3)
		}
		runs = append(runs, sampleRun(rng, level, sw, ns))
	}
	return p.with(runs)
}

func (p planted) with(runs []Run) planted { p.runs = runs; return p }

// reusedRow draws the one row of samples (10 to 100, sorted) a reused
// history repeats, its median 1e6 and its median's SE 3σ (relative).
func reusedRow(rng *rand.Rand) []float64 {
	ns := 10 + rng.IntN(91)
	row := make([]float64, ns)
	for j := range row {
		row[j] = rng.NormFloat64()
	}
	slices.Sort(row)
	m := median(row)
	for j := range row {
		row[j] -= m
	}
	a := 3 * sigma / sampleSE(row)
	for j := range row {
		row[j] = 1e6 * (1 + a*row[j])
	}
	return row
}

// scaledRun is the run whose samples are row's times f.
func scaledRun(row []float64, f float64) Run {
	s := make([]float64, len(row))
	for j, v := range row {
		s[j] = v * f
	}
	return Run{Value: median(s), SE: sampleSE(s)}
}

// betweenNoise returns n draws of unit variance of the kind k.
func betweenNoise(rng *rand.Rand, k noiseKind, n int) []float64 {
	out := make([]float64, n)
	prev := rng.NormFloat64()
	for i := range out {
		switch k {
		case gaussian:
			out[i] = rng.NormFloat64()
		case bimodal: // ±0.9 with a spread of 0.436: two modes, variance 1
			out[i] = 0.436 * rng.NormFloat64()
			if rng.IntN(2) == 0 {
				out[i] += 0.9
			} else {
				out[i] -= 0.9
			}
		case heavyTailed: // Student's t with 3 degrees of freedom, variance 1
			out[i] = distuv.StudentsT{Mu: 0, Sigma: 1 / math.Sqrt(3), Nu: 3, Src: rng}.Rand()
		case heteroscedastic: // σ swinging from 0.4 to 1.6 of its mean over the series
			out[i] = rng.NormFloat64() * (1 + 0.6*math.Sin(2*math.Pi*float64(i)/float64(n))) / math.Sqrt(1.18)
		case correlated: // AR(1), φ = 0.5, variance 1
			prev = 0.5*prev + math.Sqrt(0.75)*rng.NormFloat64()
			out[i] = prev
		}
	}
	return out
}

// sampleRun draws ns samples around level with relative spread sw and
// returns the run as clmeter analyses it.
func sampleRun(rng *rand.Rand, level, sw float64, ns int) Run {
	s := make([]float64, ns)
	for j := range s {
		s[j] = level * (1 + sw*rng.NormFloat64())
	}
	slices.Sort(s)
	return Run{Value: median(s), SE: sampleSE(s)}
}

// sampleSE is the standard error of the median of sorted samples s: from
// the order-statistic 95% CI and its exact coverage (as measure.MedianCI),
// or 1.2533·sd/√n below the 6 samples such a CI needs.
func sampleSE(s []float64) float64 {
	n := len(s)
	if n < 6 {
		m := mean(s)
		v := 0.0
		for _, x := range s {
			v += (x - m) * (x - m)
		}
		return 1.2533 * math.Sqrt(v/float64(n-1)/float64(n))
	}
	l, _ := medianCIRank(n)
	return SEFromCI(s[l-1], s[n-l], n)
}
