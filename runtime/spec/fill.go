package spec

import (
	"encoding/binary"
	"sync"
	"unsafe"

	"github.com/clmeter/clmeter/runtime"
)

// fillPiece is the number of scalars a fill generates at a time (its
// scratch stays in a core's cache); fillSpan the number one worker takes.
const (
	fillPiece = 4096
	fillSpan  = 1 << 16
)

// fillScalars writes gen's values into every scalar of b (t's scalar type),
// on every core: gen(from, dst) writes scalars from, from+1, ... into dst, a
// piece at a time, and each piece is stored over a typed slice (no
// per-element call or switch).
func fillScalars(b []byte, t ElemType, gen func(from int64, dst []float64)) {
	es := int64(t.size)
	n := int64(len(b)) / es
	runtime.ParallelSpans(n, fillSpan, func(lo, hi int64) {
		vp := piecePool.Get().(*[fillPiece]float64)
		defer piecePool.Put(vp)
		v := vp[:]
		for from := lo; from < hi; from += fillPiece {
			dst := v[:min(fillPiece, hi-from)]
			gen(from, dst)
			storeScalars(b[from*es:(from+int64(len(dst)))*es], t, dst)
		}
	})
}

var piecePool = sync.Pool{New: func() any { return new([fillPiece]float64) }}

// storeScalars stores v as scalars of t into b (len(b) == len(v)*size).
func storeScalars(b []byte, t ElemType, v []float64) {
	n := len(v)
	p := unsafe.Pointer(&b[0])
	switch {
	case t.Scalar == "float" && littleEndian:
		s := unsafe.Slice((*float32)(p), n)
		for i, x := range v {
			s[i] = float32(x)
		}
	case t.Scalar == "double" && littleEndian:
		copy(unsafe.Slice((*float64)(p), n), v)
	case (t.Scalar == "int" || t.Scalar == "uint") && littleEndian:
		s := unsafe.Slice((*uint32)(p), n)
		for i, x := range v {
			s[i] = uint32(int64(x))
		}
	default:
		for i, x := range v {
			t.putScalar(b[i*t.size:], x)
		}
	}
}

// littleEndian: the host stores numbers as the buffers hold them.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// splitMix64 is element k's random 64 bits of the fill of seed: SplitMix64
// over the index, so a fill is the same on any number of cores.
func splitMix64(seed, k uint64) uint64 {
	z := seed*0xbf58476d1ce4e5b9 + (k+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// randGen is the rand fill's generator: uniform in [0, 1) for floating-point
// types, whole numbers 0 to 99 otherwise.
func randGen(seed uint64, float bool) func(from int64, dst []float64) {
	return func(from int64, dst []float64) {
		k := uint64(from)
		if float {
			for i := range dst {
				dst[i] = float64(splitMix64(seed, k+uint64(i))>>11) * 0x1p-53
			}
			return
		}
		for i := range dst {
			dst[i] = float64(splitMix64(seed, k+uint64(i)) % 100)
		}
	}
}

// constGen fills every scalar with v; seqGen with its index.
func constGen(v float64) func(int64, []float64) {
	return func(_ int64, dst []float64) {
		for i := range dst {
			dst[i] = v
		}
	}
}

func seqGen(from int64, dst []float64) {
	for i := range dst {
		dst[i] = float64(from + int64(i))
	}
}
