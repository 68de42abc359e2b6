package clkernels

import (
	"encoding/binary"
	goruntime "runtime"
	"sync"
	"unsafe"
)

// littleEndian: the host stores numbers as the buffers hold them, so floats
// can be written in place.
var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// fillChunk is the number of elements one random stream fills: the data depend
// on the seed and the element index only, never on how many cores ran.
const fillChunk = 1 << 16

// parallelChunks calls f(lo, hi) over [0, n) in chunks of chunk elements on
// every core, and returns when all are done.
func parallelChunks(n, chunk int64, f func(lo, hi int64)) {
	chunks := (n + chunk - 1) / chunk
	workers := int64(goruntime.GOMAXPROCS(0))
	if chunks <= 1 || workers <= 1 {
		for c := int64(0); c < chunks; c++ {
			f(c*chunk, min(n, (c+1)*chunk))
		}
		return
	}
	workers = min(workers, chunks)
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := int64(0)
	for w := int64(0); w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				c := next
				next++
				mu.Unlock()
				if c >= chunks {
					return
				}
				f(c*chunk, min(n, (c+1)*chunk))
			}
		}()
	}
	wg.Wait()
}

// splitMix is SplitMix64: a tiny, fast generator (a nanosecond a number),
// good enough for benchmark inputs; each fill chunk starts its own stream.
type splitMix uint64

func chunkRand(seed uint64, chunk int64) *splitMix {
	s := splitMix(seed*0x9e3779b97f4a7c15 ^ uint64(chunk)*0xbf58476d1ce4e5b9)
	s.Uint64()
	return &s
}

// Uint64 returns the next 64 random bits.
func (s *splitMix) Uint64() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Float64 returns a uniform value in [0, 1).
func (s *splitMix) Float64() float64 { return float64(s.Uint64()>>11) * 0x1p-53 }

// Uint32 returns 32 random bits.
func (s *splitMix) Uint32() uint32 { return uint32(s.Uint64() >> 32) }

// fillUniform returns an Init that fills a buffer of t with uniform values in
// [lo, hi) from a fixed seed, so every run sees the same data. Chunks of
// fillChunk elements have streams of their own and fill on every core.
func fillUniform(t elemType, seed uint64, lo, hi float64) func([]byte) {
	at := fillUniformAt(t, seed, lo, hi)
	return func(b []byte) { at(b, 0) }
}

// fillUniformAt is fillUniform for a piece of the buffer: b is its bytes
// from off on (off a multiple of t.Size), filled as the whole buffer's
// would be (runtime.Arg.InitAt).
func fillUniformAt(t elemType, seed uint64, lo, hi float64) func(b []byte, off int64) {
	return func(b []byte, off int64) {
		n, base := int64(len(b))/t.Size, off/t.Size
		parallelChunks(n, fillChunk, func(from, to int64) {
			for from < to {
				k := base + from
				end := min(to, from+fillChunk-k%fillChunk)
				uniformSpan(t, chunkRand(seed, k/fillChunk).skip(k%fillChunk), lo, hi, b[from*t.Size:end*t.Size])
				from = end
			}
		})
	}
}

// uniformSpan writes uniform values in [lo, hi) of t from r into b, one an
// element, over a typed slice where the host's byte order allows.
func uniformSpan(t elemType, r splitMix, lo, hi float64, b []byte) {
	n := int64(len(b)) / t.Size
	if n == 0 {
		return
	}
	switch {
	case t.Name == "float" && littleEndian:
		f := unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n)
		for i := range f {
			f[i] = float32(lo + (hi-lo)*r.Float64())
		}
	case t.Name == "double" && littleEndian:
		f := unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), n)
		for i := range f {
			f[i] = lo + (hi-lo)*r.Float64()
		}
	default:
		for i := int64(0); i < n; i++ {
			t.put(b, i, lo+(hi-lo)*r.Float64())
		}
	}
}

// fillRandomBytes returns an Init that fills a buffer with random bytes (for
// bandwidth tests, where only the traffic matters, not the values), on every core.
func fillRandomBytes(seed uint64) func([]byte) {
	return func(b []byte) {
		words := int64(len(b)) / 8
		parallelChunks(words, fillChunk, func(from, to int64) {
			r := chunkRand(seed, from/fillChunk)
			for i := from; i < to; i++ {
				binary.LittleEndian.PutUint64(b[i*8:], r.Uint64())
			}
		})
		r := chunkRand(seed, -1)
		for i := words * 8; i < int64(len(b)); i++ {
			b[i] = byte(r.Uint32())
		}
	}
}
