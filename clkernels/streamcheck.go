package clkernels

import (
	"math"
	"sync"
	"unsafe"
)

// skip returns the generator k numbers further on: SplitMix64's state moves
// by a constant a number, so any element of a fill is one step away.
func (s splitMix) skip(k int64) splitMix { return s + splitMix(uint64(k)*0x9e3779b97f4a7c15) }

// uniformAt is element k of a buffer of t that fillUniform(t, seed, lo, hi)
// filled, as the buffer holds it (float and double): a check regenerates any
// input from its seed instead of keeping a host copy of it.
func uniformAt(t elemType, seed uint64, lo, hi float64, k int64) float64 {
	r := chunkRand(seed, k/fillChunk).skip(k % fillChunk)
	return t.round(lo + (hi-lo)*r.Float64())
}

// inputVals gives the values of one input array of a stream kernel as the
// device holds them, chunk by chunk: from its seed (fillUniform over [0, 1))
// or from its device fill pattern. No host copy is read.
type inputVals struct {
	t    elemType
	seed uint64
	pat  *pattern
}

// chunk writes elements from, from+1, ... of the array into dst.
func (v inputVals) chunk(from int64, dst []float64) {
	if v.pat != nil {
		period := int64(len(v.pat.vals))
		for i := range dst {
			dst[i] = v.pat.vals[(from+int64(i))%period]
		}
		return
	}
	f32 := v.t.Name == "float"
	for i := 0; i < len(dst); {
		k := from + int64(i)
		r := chunkRand(v.seed, k/fillChunk).skip(k % fillChunk)
		end := min(len(dst), i+int(fillChunk-k%fillChunk))
		part := dst[i:end]
		if f32 {
			for j := range part {
				part[j] = float64(float32(r.Float64()))
			}
		} else {
			for j := range part {
				part[j] = r.Float64()
			}
		}
		i = end
	}
}

// checkChunk is the number of elements a stream check regenerates and
// compares at a time (its scratch stays in a core's cache).
const checkChunk = 1 << 14

var scratchPool = sync.Pool{New: func() any { s := make([]float64, 4*checkChunk); return &s }}

// checkStream compares n elements of got (element type t) with the CPU
// reference of a stream kernel, on every core: for each chunk it regenerates
// the inputs (at most three), lets ref write the reference into want from
// them, and compares over typed slices, no per-element call.
func checkStream(t elemType, what string, got []byte, n int64, ins []inputVals, ref func(want []float64, in [3][]float64)) error {
	var mu sync.Mutex
	bad, first := int64(0), int64(-1)
	var fg, fw float64
	parallelChunks(n, checkChunk, func(from, to int64) {
		sp := scratchPool.Get().(*[]float64)
		defer scratchPool.Put(sp)
		s := *sp
		m := int(to - from)
		var in [3][]float64
		for k, v := range ins {
			in[k] = s[(k+1)*checkChunk : (k+1)*checkChunk+m]
			v.chunk(from, in[k])
		}
		want := s[:m]
		ref(want, in)
		cb, cf, g0, w0 := compareChunk(t, got, from, want)
		if cb == 0 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		bad += cb
		if first < 0 || cf < first {
			first, fg, fw = cf, g0, w0
		}
	})
	return mismatch(t, what, n, bad, first, fg, fw)
}

// compareChunk compares got's elements from, from+1, ... with want and
// returns how many differ, the first (an index of got) and its two values.
func compareChunk(t elemType, got []byte, from int64, want []float64) (bad, first int64, g0, w0 float64) {
	first = -1
	miss := func(i int, g float64) {
		if near(g, want[i], t) {
			return
		}
		if first < 0 {
			first, g0, w0 = from+int64(i), g, want[i]
		}
		bad++
	}
	switch {
	case t.Name == "float" && littleEndian:
		gs := unsafe.Slice((*float32)(unsafe.Pointer(&got[from*4])), len(want))
		for i, w := range want {
			g := float64(gs[i])
			if math.Abs(g-w) > t.AbsTol+t.RelTol*math.Abs(w) || g != g {
				miss(i, g)
			}
		}
	case t.Name == "double" && littleEndian:
		gs := unsafe.Slice((*float64)(unsafe.Pointer(&got[from*8])), len(want))
		for i, w := range want {
			g := gs[i]
			if math.Abs(g-w) > t.AbsTol+t.RelTol*math.Abs(w) || g != g {
				miss(i, g)
			}
		}
	default:
		for i := range want {
			miss(i, t.get(got, from+int64(i)))
		}
	}
	return bad, first, g0, w0
}

// sumProductsOf is the sum of a[i]*b[i] over n elements of two regenerated
// inputs, in float64, on every core (chunk sums added in chunk order: the
// same result whatever the core count).
func sumProductsOf(a, b inputVals, n int64) float64 {
	sums := make([]float64, (n+checkChunk-1)/checkChunk)
	parallelChunks(n, checkChunk, func(from, to int64) {
		sp := scratchPool.Get().(*[]float64)
		defer scratchPool.Put(sp)
		s := *sp
		m := int(to - from)
		x, y := s[:m], s[checkChunk:checkChunk+m]
		a.chunk(from, x)
		b.chunk(from, y)
		var sum float64
		for i := range x {
			sum += x[i] * y[i]
		}
		sums[from/checkChunk] = sum
	})
	var s float64
	for _, v := range sums {
		s += v
	}
	return s
}

// roundAll rounds every value of w to what t holds (float32 for float).
func roundAll(t elemType, w []float64) {
	switch t.Name {
	case "double":
	case "float":
		for i, v := range w {
			w[i] = float64(float32(v))
		}
	default:
		for i, v := range w {
			w[i] = t.round(v)
		}
	}
}
