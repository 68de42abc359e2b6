package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/clmeter/clmeter/runtime/cl"
)

// TestReuseBuffers runs copies of one shape after another on a CPU device
// while it reuses buffers: the second takes the first's buffers and copies its
// own data (the buffers are written anew), an overrun is still caught in a
// taken buffer and the next benchmark's guard is whole again, the pool stays
// within its limit, a benchmark that leaves the buffers unwritten
// (NoDataWarmup) takes none, and the restore releases what the pool holds.
// With reuse off nothing is kept.
func TestReuseBuffers(t *testing.T) {
	dev := cpuDevice(t)
	ctx := context.Background()
	floats := func(scale float32) []Arg {
		in := Arg{Kind: ArgBuffer, Bytes: 4 * 1024, Type: "float", Init: func(b []byte) {
			for i := 0; i+4 <= len(b); i += 4 {
				binary.LittleEndian.PutUint32(b[i:], math.Float32bits(scale*float32(i/4)))
			}
		}}
		return []Arg{in, {Kind: ArgBuffer, Bytes: 4 * 1024, Type: "float", Output: true}}
	}
	// run sets up a copy of global items, launches it once, validates the
	// output and tears it down; it returns the buffers it had and the error
	// of the launch.
	run := func(name string, scale float32, global int, noWarmup bool) (map[int]*cl.Buffer, error) {
		t.Helper()
		kb := &KernelBenchmark{Device: dev, Source: Source{Name: "guard.cl", Text: guardKernels}, Kernel: "copy",
			Args: floats(scale), Global: []int{global}, NoDataWarmup: noWarmup}
		kb.Check = func(in, out map[int][]byte) error {
			if !bytes.Equal(in[0], out[1]) {
				return errors.New("b differs from a")
			}
			return nil
		}
		defer kb.Teardown()
		if _, err := kb.Setup(ctx); err != nil {
			t.Fatalf("%s: setup: %v", name, err)
		}
		if len(kb.guards) != 2 {
			t.Fatalf("%s: %d guarded buffers, want 2", name, len(kb.guards))
		}
		bufs := map[int]*cl.Buffer{0: kb.bufs[0], 1: kb.bufs[1]}
		if _, err := kb.Launch(ctx, 1); err != nil {
			return bufs, err
		}
		if !noWarmup {
			if err := kb.Validate(ctx); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		return bufs, nil
	}
	one := poolKey{flags: cl.MemReadWrite, alloc: 4*1024 + GuardMinBytes, bytes: 4 * 1024}.resident()

	restore := dev.ReuseBuffers(true, 64<<20)
	first, err := run("first", 1, 1024, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := dev.PooledBytes(); got != 2*one {
		t.Fatalf("after the first benchmark the pool holds %d bytes, want %d", got, 2*one)
	}
	second, err := run("second", 3, 1024, false)
	if err != nil {
		t.Fatal(err)
	}
	// Both buffers have one key: either may take either.
	if !(second[0] == first[0] && second[1] == first[1] || second[0] == first[1] && second[1] == first[0]) {
		t.Errorf("the second benchmark made its buffers anew: want the first's")
	}
	_, err = run("overrun", 1, 1025, false)
	var oe *OverrunError
	if !errors.As(err, &oe) || oe.Arg != 1 {
		t.Errorf("a copy past the end of a taken buffer: %v, want an overrun of argument 1", err)
	}
	if _, err := run("after the overrun", 5, 1024, false); err != nil {
		t.Errorf("a correct copy in the buffers an overrun wrote past: %v", err)
	}
	unwritten, err := run("unwritten", 1, 1024, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range unwritten {
		if u == first[0] || u == first[1] {
			t.Errorf("a benchmark with NoDataWarmup took a pooled buffer")
		}
	}
	restore()
	if got := dev.PooledBytes(); got != 0 {
		t.Errorf("after the restore the pool holds %d bytes", got)
	}

	// A limit of one buffer: the pool keeps the newest that fits.
	restore = dev.ReuseBuffers(true, one+one/2)
	if _, err := run("limited", 1, 1024, false); err != nil {
		t.Fatal(err)
	}
	if got := dev.PooledBytes(); got != one {
		t.Errorf("with a limit of 1.5 buffers the pool holds %d bytes, want %d", got, one)
	}
	restore()

	restore = dev.ReuseBuffers(false, 64<<20)
	defer restore()
	a, _ := run("off 1", 1, 1024, false)
	b, _ := run("off 2", 1, 1024, false)
	if dev.PooledBytes() != 0 || a[0] == b[0] {
		t.Errorf("with reuse off the pool holds %d bytes and buffers were shared: %v", dev.PooledBytes(), a[0] == b[0])
	}
}

// TestReuseBuffersHostMemoryOnly: a device whose buffers are not host memory
// (a discrete GPU) keeps none; a CPU device and a host-unified one do, until
// the restore.
func TestReuseBuffersHostMemoryOnly(t *testing.T) {
	for _, c := range []struct {
		name string
		info cl.DeviceInfo
		on   bool
	}{
		{"gpu", cl.DeviceInfo{Type: cl.DeviceTypeGPU}, false},
		{"integrated gpu", cl.DeviceInfo{Type: cl.DeviceTypeGPU, HostUnifiedMemory: true}, true},
		{"cpu", cl.DeviceInfo{Type: cl.DeviceTypeCPU}, true},
	} {
		d := &Device{Info: c.info}
		restore := d.ReuseBuffers(true, 1<<30)
		if d.pool.on != c.on {
			t.Errorf("%s: reuse on = %v, want %v", c.name, d.pool.on, c.on)
		}
		restore()
		if d.pool.on {
			t.Errorf("%s: reuse still on after the restore", c.name)
		}
	}
}

const imageKernel = `
__constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
__kernel void texels(__read_only image2d_t im, __global float *out) {
	int x = get_global_id(0), y = get_global_id(1);
	float4 v = read_imagef(im, s, (int2)(x, y));
	out[y * get_global_size(0) + x] = v.x + v.y + v.z + v.w;
}
`

// TestReuseImages: an image written in rows (InitAt) goes to the pool too,
// and the next benchmark of its size takes it and reads its own texels.
func TestReuseImages(t *testing.T) {
	dev := cpuDevice(t)
	if !dev.Info.ImageSupport {
		t.Skip("the CPU device has no images")
	}
	ctx := context.Background()
	const w, h = 16, 8
	run := func(scale float32) *cl.Buffer {
		t.Helper()
		texel := func(p []byte, off int64) {
			for j := 0; j+4 <= len(p); j += 4 {
				binary.LittleEndian.PutUint32(p[j:], math.Float32bits(scale*float32((off+int64(j))/4)))
			}
		}
		kb := &KernelBenchmark{Device: dev, Source: Source{Name: "image.cl", Text: imageKernel}, Kernel: "texels",
			Args: []Arg{{Kind: ArgImage2D, Bytes: w * h * 16, Width: w, Height: h, InitAt: texel},
				{Kind: ArgBuffer, Bytes: w * h * 4, Type: "float", Output: true}},
			Global: []int{w, h}}
		kb.Check = func(in, out map[int][]byte) error {
			for i := 0; i < w*h; i++ {
				got := math.Float32frombits(binary.LittleEndian.Uint32(out[1][4*i:]))
				want := scale * float32(16*i+6) // lanes 4i..4i+3
				if got != want {
					return fmt.Errorf("texel %d: %v, want %v", i, got, want)
				}
			}
			return nil
		}
		defer kb.Teardown()
		if _, err := kb.Setup(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := kb.Launch(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if err := kb.Validate(ctx); err != nil {
			t.Errorf("scale %v: %v", scale, err)
		}
		return kb.images[0]
	}
	defer dev.ReuseBuffers(true, 64<<20)()
	first := run(1)
	if second := run(2); second != first {
		t.Error("the second benchmark made its image anew: want the first's")
	}
}
