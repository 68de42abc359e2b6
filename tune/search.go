package tune

import (
	"math"
	"math/rand/v2"
)

// Strategies a search can use.
const (
	// StrategyAuto is brute force when the space has at most
	// MaxExhaustive configurations, else annealing.
	StrategyAuto = "auto"
	// StrategyBrute tries every configuration in order.
	StrategyBrute = "brute-force"
	// StrategyRandom tries configurations in a random order (sampling without
	// replacement) until the budget ends.
	StrategyRandom = "random"
	// StrategyAnneal is simulated annealing over neighbouring configurations
	// (one axis one step away), as Kernel Tuner's simulated_annealing: a worse
	// neighbour is taken with probability exp(-(worse-better)/better/T), T
	// falling with the budget spent.
	StrategyAnneal = "annealing"
)

// Strategies are the strategy names Run takes.
var Strategies = []string{StrategyAuto, StrategyBrute, StrategyRandom, StrategyAnneal}

// MaxExhaustive is the largest space StrategyAuto searches exhaustively.
const MaxExhaustive = 64

// A Space is the product of axes, each a list of values; a configuration is one
// index into each axis.
type Space struct {
	// Sizes are the number of values of each axis.
	Sizes []int
}

// Len is the number of configurations.
func (s Space) Len() int {
	n := 1
	for _, k := range s.Sizes {
		n *= k
	}
	return n
}

// Config returns configuration i (0 <= i < Len) as axis indexes, the first
// axis varying slowest.
func (s Space) Config(i int) []int {
	c := make([]int, len(s.Sizes))
	for a := len(s.Sizes) - 1; a >= 0; a-- {
		c[a] = i % s.Sizes[a]
		i /= s.Sizes[a]
	}
	return c
}

// Index is the inverse of Config.
func (s Space) Index(c []int) int {
	i := 0
	for a, v := range c {
		i = i*s.Sizes[a] + v
	}
	return i
}

// Neighbours are the configurations one step away from i on one axis.
func (s Space) Neighbours(i int) []int {
	c := s.Config(i)
	var out []int
	for a := range c {
		for _, d := range []int{-1, 1} {
			v := c[a] + d
			if v < 0 || v >= s.Sizes[a] {
				continue
			}
			n := append([]int{}, c...)
			n[a] = v
			out = append(out, s.Index(n))
		}
	}
	return out
}

// An Evaluator measures configuration i: its cost (lower is better) and
// whether it is valid. Search calls it at most once per configuration.
type Evaluator func(i int) (cost float64, ok bool)

// SearchSpace runs strategy over s, calling eval until every configuration is tried
// or spent returns a fraction of the budget of 1 or more. It returns the
// configurations tried, in order, and the strategy it used (auto resolved).
func SearchSpace(s Space, strategy string, seed uint64, eval Evaluator, spent func() float64) (tried []int, used string) {
	n := s.Len()
	if strategy == StrategyAuto || strategy == "" {
		strategy = StrategyBrute
		if n > MaxExhaustive {
			strategy = StrategyAnneal
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	seen := map[int]float64{}
	valid := map[int]bool{}
	try := func(i int) (float64, bool) {
		if c, ok := seen[i]; ok {
			return c, valid[i]
		}
		c, ok := eval(i)
		seen[i], valid[i] = c, ok
		tried = append(tried, i)
		return c, ok
	}
	switch strategy {
	case StrategyBrute:
		for i := 0; i < n && spent() < 1; i++ {
			try(i)
		}
	case StrategyRandom:
		for _, i := range rng.Perm(n) {
			if spent() >= 1 {
				break
			}
			try(i)
		}
	case StrategyAnneal:
		anneal(s, rng, try, spent)
	}
	return tried, strategy
}

// anneal is simulated annealing with restarts from random untried
// configurations when a walk has tried all its neighbours.
func anneal(s Space, rng *rand.Rand, try func(int) (float64, bool), spent func() float64) {
	n := s.Len()
	tried := map[int]bool{}
	mark := func(i int) (float64, bool) {
		tried[i] = true
		return try(i)
	}
	randomUntried := func() int {
		for k := 0; k < 4*n; k++ {
			if i := rng.IntN(n); !tried[i] {
				return i
			}
		}
		for i := 0; i < n; i++ {
			if !tried[i] {
				return i
			}
		}
		return -1
	}
	cur := randomUntried()
	curCost, ok := mark(cur)
	for !ok && spent() < 1 && len(tried) < n {
		cur = randomUntried()
		curCost, ok = mark(cur)
	}
	for spent() < 1 && len(tried) < n {
		temp := math.Max(1-spent(), 0.01)
		var fresh []int
		for _, nb := range s.Neighbours(cur) {
			if !tried[nb] {
				fresh = append(fresh, nb)
			}
		}
		if len(fresh) == 0 {
			// A local minimum whose neighbourhood is known: restart elsewhere.
			nxt := randomUntried()
			if nxt < 0 {
				return
			}
			c, ok := mark(nxt)
			if ok && (!isFinite(curCost) || c < curCost || rng.Float64() < accept(curCost, c, temp)) {
				cur, curCost = nxt, c
			}
			continue
		}
		nb := fresh[rng.IntN(len(fresh))]
		c, ok := mark(nb)
		if !ok {
			continue
		}
		if c < curCost || rng.Float64() < accept(curCost, c, temp) {
			cur, curCost = nb, c
		}
	}
}

// accept is the probability of moving from cost cur to a worse cost c at
// temperature temp (relative difference, as Kernel Tuner does).
func accept(cur, c, temp float64) float64 {
	if cur <= 0 || !isFinite(cur) {
		return 1
	}
	return math.Exp(-((c - cur) / cur) / temp)
}

func isFinite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }
