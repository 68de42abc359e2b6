package clkernels

// A pattern is the content of a buffer filled in place (runtime.Arg.Fill: by
// the device, or through a map on every core where buffers are host memory):
// 128 bytes repeated, so its elements cycle through 128/size distinct values.
// The suites' memory benchmarks use it, as BabelStream fills its arrays on the
// device: no host copy of a buffer of a gigabyte is made or kept, and the
// check still knows every element.
type pattern struct {
	t    elemType
	fill []byte
	vals []float64
}

// patternBytes is the length of a fill pattern: the most clEnqueueFillBuffer takes.
const patternBytes = 128

// newPattern returns the pattern of seed for element type t (float or
// double): distinct values in [0.5, 1), exact in t, different for each seed.
func newPattern(t elemType, seed uint64) pattern {
	n := patternBytes / int(t.Size)
	p := pattern{t: t, fill: make([]byte, patternBytes), vals: make([]float64, n)}
	for k := 0; k < n; k++ {
		// A permutation of 0..n-1 by seed (n is a power of two, the step odd).
		j := (uint64(k)*(2*seed+1) + seed) % uint64(n)
		v := t.round(0.5 + float64(j)/float64(2*n) + float64(seed%7)/float64(64*n))
		p.vals[k] = v
		t.put(p.fill, int64(k), v)
	}
	return p
}

// at is element i of a buffer filled with p.
func (p pattern) at(i int64) float64 { return p.vals[i%int64(len(p.vals))] }

// sumProducts is the sum of p[i]*q[i] over n elements, in float64: whole
// periods at once, then the rest.
func (p pattern) sumProducts(q pattern, n int64) float64 {
	period := int64(len(p.vals))
	var per, rest float64
	for k := int64(0); k < period; k++ {
		v := p.vals[k] * q.vals[k]
		per += v
		if k < n%period {
			rest += v
		}
	}
	return float64(n/period)*per + rest
}
