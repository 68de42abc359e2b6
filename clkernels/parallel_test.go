package clkernels

import (
	"bytes"
	"runtime"
	"testing"
)

// The data must not depend on how many cores filled it.
func TestFillSameOnAnyCoreCount(t *testing.T) {
	n := 3*fillChunk + 17
	a, b := make([]byte, n*8), make([]byte, n*8)
	old := runtime.GOMAXPROCS(1)
	fillUniform(tDouble, 5, 0, 1)(a)
	runtime.GOMAXPROCS(4)
	fillUniform(tDouble, 5, 0, 1)(b)
	runtime.GOMAXPROCS(old)
	if !bytes.Equal(a, b) {
		t.Fatal("fillUniform differs with the core count")
	}
	fillUniform(tDouble, 6, 0, 1)(b)
	if bytes.Equal(a, b) {
		t.Fatal("fillUniform ignores the seed")
	}
}

func TestCheckElemsFindsFirstMismatch(t *testing.T) {
	n := int64(1 << 20)
	got := make([]byte, n*4)
	fillUniform(tFloat, 1, 0, 1)(got)
	want := func(i int64) float64 { return tFloat.get(got, i) }
	if err := checkElems(tFloat, "x", got, n, want); err != nil {
		t.Fatal(err)
	}
	tFloat.put(got, 700000, 5)
	tFloat.put(got, 300001, 5)
	err := checkElems(tFloat, "x", got, n, func(i int64) float64 {
		if i == 700000 || i == 300001 {
			return 1
		}
		return want(i)
	})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("2 of 1048576 elements differ")) || !bytes.Contains([]byte(err.Error()), []byte("first at 300001")) {
		t.Fatalf("got %v", err)
	}
}

// BenchmarkFillTriadDouble generates triad-double's three inputs at 2^24
// elements (the 2^27 of a GPU is 8 times this).
func BenchmarkFillTriadDouble(b *testing.B) {
	bufs := [3][]byte{}
	for i := range bufs {
		bufs[i] = make([]byte, 8<<24)
	}
	b.SetBytes(3 * 8 << 24)
	for range b.N {
		for i := range bufs {
			fillUniform(tDouble, uint64(i), 0, 1)(bufs[i])
		}
	}
}
