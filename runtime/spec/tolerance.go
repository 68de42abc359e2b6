package spec

import "math"

// A Tolerance is how far a floating-point element may be from its reference:
// |got - want| <= Abs + Rel*|want|, NaN matching only NaN. It is the one rule
// of every element comparison: a spec's expect, tune's check against the
// first valid configuration, and the built-ins' CPU references.
type Tolerance struct {
	// Abs is the absolute slack (what a reference near zero allows).
	Abs float64
	// Rel is the slack relative to the reference's magnitude.
	Rel float64
}

// RelTolerance is tol both relative and, for references below magnitude 1,
// absolute: a spec's 'tolerance' and tune's --tolerance.
func RelTolerance(tol float64) Tolerance { return Tolerance{Abs: tol, Rel: tol} }

// Within reports whether got matches want within t.
func (t Tolerance) Within(got, want float64) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	if got == want {
		return true // the same infinity
	}
	if math.IsInf(got, 0) || math.IsInf(want, 0) {
		return false
	}
	return math.Abs(got-want) <= t.Abs+t.Rel*math.Abs(want)
}
