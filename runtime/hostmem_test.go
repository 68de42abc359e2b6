package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// hostBuffer gives exactly n zero bytes, whole or in populated spans.
func TestHostBuffer(t *testing.T) {
	for _, n := range []int64{1, 4095, 2*populateChunk - 1, 2*populateChunk + 12345, 5 * populateChunk} {
		b := hostBuffer(n)
		if int64(len(b)) != n {
			t.Fatalf("hostBuffer(%d): %d bytes", n, len(b))
		}
		for i := int64(0); i < n; i += 4093 {
			if b[i] != 0 {
				t.Fatalf("hostBuffer(%d): byte %d is %d, want 0", n, i, b[i])
			}
		}
		b[n-1] = 1
	}
}

// BenchmarkHostBuffer is the host data's first step for a 64 Mi-element float
// input (256 MiB): fresh memory, backed and written once, in GB/s.
func BenchmarkHostBuffer(b *testing.B) {
	const n = 256 << 20
	var took time.Duration
	for b.Loop() {
		start := time.Now()
		buf := hostBuffer(n)
		parallelSpans(n, 1<<20, func(lo, hi int64) {
			for i := lo; i < hi; i += 64 {
				buf[i] = 1
			}
		})
		took += time.Since(start)
	}
	b.ReportMetric(float64(n)*float64(b.N)/took.Seconds()/1e9, "GB/s")
}

const regenKernels = `
__kernel void copy(__global const float *a, __global float *b) { size_t i = get_global_id(0); b[i] = a[i]; }
__kernel void copywrong(__global const float *a, __global float *b) { size_t i = get_global_id(0); b[i] = i == 777 ? -1.0f : a[i]; }
`

// A regenerated input (Arg.Regen) keeps no host copy: it is written through
// the mapped buffer, the phases move it in pieces of the staging buffer, and
// Validate writes it again, so the check sees a right output as right and one
// wrong element as wrong.
func TestRegenInput(t *testing.T) {
	dev := cpuDevice(t)
	old := stageBytes
	stageBytes = 4096 // pieces: the buffers are 4 pages and a bit
	defer func() { stageBytes = old }()
	const n = 4*1024 + 8
	seq := func(b []byte) {
		for i := 0; i+4 <= len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], math.Float32bits(float32(i/4)+0.5))
		}
	}
	for _, kernel := range []string{"copy", "copywrong"} {
		kb := &KernelBenchmark{Device: dev, Source: Source{Name: "regen.cl", Text: regenKernels}, Kernel: kernel, Global: []int{n},
			Args: []Arg{{Kind: ArgBuffer, Bytes: 4 * n, Type: "float", Init: seq, Regen: true}, {Kind: ArgBuffer, Bytes: 4 * n, Type: "float", Output: true}}}
		kb.Check = func(in, out map[int][]byte) error {
			if _, kept := in[0]; kept {
				return errors.New("a host copy of the input was kept")
			}
			want := make([]byte, 4*n)
			seq(want)
			for i := 0; i < n; i++ {
				if !bytes.Equal(out[1][4*i:4*i+4], want[4*i:4*i+4]) {
					return fmt.Errorf("element %d differs", i)
				}
			}
			return nil
		}
		ctx := context.Background()
		if _, err := kb.Setup(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := kb.Launch(ctx, 2); err != nil {
			t.Fatal(err)
		}
		if _, err := kb.RunPhases(ctx); err != nil {
			t.Fatal(err)
		}
		if int64(len(kb.st.buf)) != stageBytes || len(kb.inputs) != 0 || len(kb.outHost) != 0 {
			t.Errorf("%s: staging %d bytes, %d host inputs, %d host outputs: want %d, 0, 0", kernel, len(kb.st.buf), len(kb.inputs), len(kb.outHost), stageBytes)
		}
		err := kb.Validate(ctx)
		kb.Teardown()
		switch {
		case kernel == "copy" && err != nil:
			t.Errorf("copy: %v", err)
		case kernel == "copywrong" && (err == nil || !strings.Contains(err.Error(), "element 777 differs")):
			t.Errorf("copywrong: want element 777 to differ, got %v", err)
		}
	}
}
