package tune

import (
	"math"
	"slices"
	"testing"
)

func TestSpaceIndexing(t *testing.T) {
	s := Space{Sizes: []int{3, 4, 2}}
	if s.Len() != 24 {
		t.Fatalf("Len %d", s.Len())
	}
	for i := 0; i < s.Len(); i++ {
		if j := s.Index(s.Config(i)); j != i {
			t.Errorf("Index(Config(%d)) = %d", i, j)
		}
	}
	if c := s.Config(23); !slices.Equal(c, []int{2, 3, 1}) {
		t.Errorf("Config(23) = %v", c)
	}
	nb := s.Neighbours(s.Index([]int{0, 1, 1}))
	if len(nb) != 4 { // axis 0 up, axis 1 down and up, axis 2 down
		t.Errorf("neighbours %v", nb)
	}
}

// bowl is a cost with one minimum at (7, 3) over a 16x8 space; configurations
// with x == 15 are invalid.
func bowl(s Space) Evaluator {
	return func(i int) (float64, bool) {
		c := s.Config(i)
		if c[0] == 15 {
			return math.Inf(1), false
		}
		dx, dy := float64(c[0]-7), float64(c[1]-3)
		return 1 + dx*dx + dy*dy, true
	}
}

func TestBruteForceTriesAll(t *testing.T) {
	s := Space{Sizes: []int{4, 3}}
	tried, used := SearchSpace(s, StrategyAuto, 1, func(i int) (float64, bool) { return float64(i), true }, func() float64 { return 0 })
	if used != StrategyBrute || len(tried) != 12 {
		t.Errorf("auto on 12: %s tried %d", used, len(tried))
	}
	n := 0
	tried, _ = SearchSpace(s, StrategyBrute, 1, func(i int) (float64, bool) { n++; return 0, true }, func() float64 { return float64(n) / 5 })
	if len(tried) != 5 {
		t.Errorf("budget of 5 evaluations tried %d", len(tried))
	}
}

func TestRandomTriesEachOnce(t *testing.T) {
	s := Space{Sizes: []int{16, 8}}
	tried, _ := SearchSpace(s, StrategyRandom, 3, bowl(s), func() float64 { return 0 })
	if len(tried) != 128 {
		t.Errorf("tried %d", len(tried))
	}
	sorted := slices.Clone(tried)
	slices.Sort(sorted)
	if slices.Equal(tried, sorted) {
		t.Error("random order was not shuffled")
	}
	if len(slices.Compact(sorted)) != 128 {
		t.Error("random order repeated a configuration")
	}
}

// Annealing finds the bowl's minimum well before trying every configuration.
func TestAnnealingFindsMinimum(t *testing.T) {
	s := Space{Sizes: []int{16, 8}}
	found := 0
	for seed := uint64(1); seed <= 20; seed++ {
		n := 0
		eval := bowl(s)
		best, bestCost := -1, math.Inf(1)
		counting := func(i int) (float64, bool) {
			n++
			c, ok := eval(i)
			if ok && c < bestCost {
				best, bestCost = i, c
			}
			return c, ok
		}
		tried, used := SearchSpace(s, StrategyAuto, seed, counting, func() float64 { return float64(n) / 64 })
		if used != StrategyAnneal || len(tried) > 64 {
			t.Fatalf("seed %d: %s tried %d", seed, used, len(tried))
		}
		if best == s.Index([]int{7, 3}) {
			found++
		}
	}
	if found < 16 {
		t.Errorf("annealing found the minimum in %d of 20 runs with half the space", found)
	}
}
