package spec

import (
	"math"
	"testing"
)

func TestToleranceWithin(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		tol       Tolerance
		got, want float64
		ok        bool
	}{
		{Tolerance{Abs: 1e-3}, 1.0009, 1, true},
		{Tolerance{Abs: 1e-3}, 1.0011, 1, false},
		{Tolerance{Rel: 1e-2}, 100.9, 100, true},
		{Tolerance{Rel: 1e-2}, 101.1, 100, false},
		{Tolerance{Abs: 1, Rel: 1e-2}, 101.9, 100, true}, // Abs + Rel*|want|
		{RelTolerance(1e-5), 1e-6, 0, true},
		{RelTolerance(1e-5), 2e-5, 0, false},
		{RelTolerance(0), nan, nan, true},
		{RelTolerance(1), nan, 1, false},
		{RelTolerance(1), 1, nan, false},
		{RelTolerance(0), inf, inf, true},
		{RelTolerance(1), -inf, inf, false},
	} {
		if got := c.tol.Within(c.got, c.want); got != c.ok {
			t.Errorf("%+v.Within(%g, %g) = %v, want %v", c.tol, c.got, c.want, got, c.ok)
		}
	}
}
