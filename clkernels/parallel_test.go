package clkernels

import (
	"bytes"
	"context"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
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

// uniformAt regenerates every element fillUniform wrote, across chunk
// boundaries, for float and double.
func TestUniformAtMatchesFill(t *testing.T) {
	n := int64(2*fillChunk + 333)
	for _, et := range []elemType{tFloat, tDouble} {
		b := make([]byte, n*et.Size)
		fillUniform(et, 7, -1, 1)(b)
		for i := int64(0); i < n; i++ {
			if got, want := uniformAt(et, 7, -1, 1, i), et.get(b, i); got != want {
				t.Fatalf("%s element %d: regenerated %g, filled %g", et.Name, i, got, want)
			}
		}
		piece := make([]byte, len(b))
		at := fillUniformAt(et, 7, -1, 1)
		for _, cut := range []int64{0, 5, fillChunk - 1, fillChunk + 7, n} {
			lo := cut * et.Size
			at(piece[lo:], lo) // from cut on, then the part before it
			at(piece[:lo], 0)
			if !bytes.Equal(piece, b) {
				t.Fatalf("%s: filled in two pieces cut at %d differs from one fill", et.Name, cut)
			}
			clear(piece)
		}
		v := inputVals{t: et, seed: 7}
		dst := make([]float64, fillChunk+10)
		v.chunk(fillChunk-5, dst)
		for i, w := range dst {
			if g := uniformAt(et, 7, 0, 1, fillChunk-5+int64(i)); g != w {
				t.Fatalf("%s chunk element %d: %g, want %g", et.Name, i, w, g)
			}
		}
	}
}

// checkStream passes the output the reference makes and counts, with the
// first, every wrong element, for float and double.
func TestCheckStreamFindsFirstMismatch(t *testing.T) {
	n := int64(1<<20 + 3)
	for _, et := range []elemType{tFloat, tDouble} {
		ins := []inputVals{{t: et, seed: 1}, {t: et, seed: 2}}
		add := func(w []float64, in [3][]float64) {
			for i := range w {
				w[i] = in[0][i] + in[1][i]
			}
			roundAll(et, w)
		}
		got := make([]byte, n*et.Size)
		for i := int64(0); i < n; i++ {
			et.put(got, i, et.round(uniformAt(et, 1, 0, 1, i)+uniformAt(et, 2, 0, 1, i)))
		}
		if err := checkStream(et, "x", got, n, ins, add); err != nil {
			t.Fatal(err)
		}
		et.put(got, 700000, 5)
		et.put(got, 300001, math.NaN())
		et.put(got, n-1, 0)
		err := checkStream(et, "x", got, n, ins, add)
		if err == nil || !strings.Contains(err.Error(), "3 of 1048579 elements differ") || !strings.Contains(err.Error(), "first at 300001") {
			t.Fatalf("%s: got %v", et.Name, err)
		}
	}
}

// BenchmarkCheckSaxpy is the check of a 2^24-element float saxpy: inputs
// regenerated from their seeds, reference and comparison, in GB/s of output.
func BenchmarkCheckSaxpy(b *testing.B) {
	dev := device(b)
	const n = 1 << 24
	kb, err := StreamBenchmark(dev, StreamSaxpy, "float", n)
	if err != nil {
		b.Fatal(err)
	}
	y := make([]byte, 4*n)
	for i := int64(0); i < n; i++ {
		tFloat.put(y, i, tFloat.round(0.4*uniformAt(tFloat, 1, 0, 1, i)+uniformAt(tFloat, 2, 0, 1, i)))
	}
	out := map[int][]byte{2: y}
	b.SetBytes(4 * n)
	b.ReportAllocs()
	for b.Loop() {
		if err := kb.Check(nil, out); err != nil {
			b.Fatal(err)
		}
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

// BenchmarkHostDataSaxpy is the set-up of a 2^24-element float saxpy on the
// test device: its host data rate (inputs over SetupInfo.HostPrep, GB/s) and
// the Go bytes it allocates per byte of its buffers (B/buffer-B), Setup to
// Teardown.
func BenchmarkHostDataSaxpy(b *testing.B) {
	dev := device(b)
	const n = 1 << 24
	var prep time.Duration
	var buffers int64
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for b.Loop() {
		kb, err := StreamBenchmark(dev, StreamSaxpy, "float", n)
		if err != nil {
			b.Fatal(err)
		}
		info, err := kb.Setup(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		prep += info.HostPrep
		buffers = 0
		for _, a := range kb.Args {
			buffers += a.Bytes
		}
		kb.Teardown()
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(2*4*n)*float64(b.N)/prep.Seconds()/1e9, "GB/s")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/float64(buffers), "B/buffer-B")
}
