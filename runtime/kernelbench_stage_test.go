package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/clmeter/clmeter/runtime/cl"
)

// The phases' copy-in of a lean benchmark gives each buffer its own kind of
// bytes: its Init's first piece repeated, or zeros; never another
// argument's (an index buffer holding a float input's bits sends a user's
// kernel out of its buffers).
func TestStagedCopyInOwnContents(t *testing.T) {
	dev := cpuDevice(t)
	old := stageBytes
	stageBytes = 4096 // pieces: the buffers are 4 pages and a bit
	defer func() { stageBytes = old }()
	const n = 4*1024 + 8
	floats := func(b []byte) {
		for i := 0; i+4 <= len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], math.Float32bits(0.25+float32(i/4)))
		}
	}
	ints := func(b []byte) {
		for i := 0; i+4 <= len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], uint32(i/4))
		}
	}
	src := `__kernel void gather(__global const float *x, __global const int *idx, __global const int *z, __global float *out)
{ size_t i = get_global_id(0); out[i] = x[i] + (float)idx[i] + z[i]; }`
	kb := &KernelBenchmark{Device: dev, Source: Source{Name: "stage.cl", Text: src}, Kernel: "gather", Global: []int{n},
		Args: []Arg{
			{Kind: ArgBuffer, Bytes: 4 * n, Type: "float", Init: floats, Regen: true},
			{Kind: ArgBuffer, Bytes: 4 * n, Type: "int", Init: ints, Regen: true},
			{Kind: ArgBuffer, Bytes: 4 * n, Type: "int"},
			{Kind: ArgBuffer, Bytes: 4 * n, Type: "float", Output: true},
		}}
	ctx := context.Background()
	if _, err := kb.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	defer kb.Teardown()
	for run := range 3 { // the second and third begin after a copy-out
		if _, err := kb.RunPhases(ctx); err != nil {
			t.Fatal(err)
		}
		for i, init := range map[int]func([]byte){0: floats, 1: ints, 2: nil} {
			piece := make([]byte, stageBytes)
			if init != nil {
				init(piece)
			}
			got := mapRead(t, kb, i)
			for off := 0; off < len(got); off += len(piece) {
				if p := got[off:min(len(got), off+len(piece))]; !bytes.Equal(p, piece[:len(p)]) {
					t.Fatalf("phase run %d: buffer %d at byte %d does not hold its own first piece", run, i, off)
				}
			}
		}
	}
}

// mapRead returns a copy of buffer i's contents.
func mapRead(t *testing.T, kb *KernelBenchmark, i int) []byte {
	t.Helper()
	m, ev, err := kb.queue.EnqueueMapBuffer(kb.bufs[i], true, cl.MapRead, 0, kb.Args[i].Bytes)
	if err != nil {
		t.Fatal(err)
	}
	ev.Release()
	got := append([]byte{}, m.Bytes()...)
	if ev, err = kb.queue.EnqueueUnmap(m); err != nil {
		t.Fatal(err)
	}
	ev.Wait()
	ev.Release()
	return got
}
