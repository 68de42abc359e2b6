package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/clmeter/clmeter/runtime/cl"
)

func TestGuardPatternsDiffer(t *testing.T) {
	a, b := guardPattern(0, GuardCanaryBytes), guardPattern(1, GuardCanaryBytes)
	if bytes.Equal(a, b) || !bytes.Equal(a, guardPattern(0, GuardCanaryBytes)) {
		t.Fatal("guard patterns must be one per buffer and repeatable")
	}
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	if same > len(a)/64 { // about 1 in 256 bytes agree by chance
		t.Errorf("%d of %d bytes agree between two buffers' guards", same, len(a))
	}
	if p := guardPattern(0, 13); len(p) != 13 {
		t.Errorf("pattern of 13 bytes has %d", len(p))
	}
}

func TestOverrunErrorMessage(t *testing.T) {
	cases := []struct {
		e    OverrunError
		want string
	}{
		{OverrunError{Kernel: "copy", Arg: 1, Bytes: 4096, Type: "float", Global: []int{2048}},
			"kernel copy wrote past the end of argument 1 (1024 floats, global 2048): fix the kernel or the sizes; `clmeter check` shows where"},
		{OverrunError{Kernel: "k", Arg: 0, Bytes: 64, Type: "float4", Global: []int{8, 8}},
			"kernel k wrote past the end of argument 0 (4 float4s, global 8,8): fix the kernel or the sizes; `clmeter check` shows where"},
		{OverrunError{Kernel: "k", Arg: 2, Bytes: 4096, Global: []int{4096}},
			"kernel k wrote past the end of argument 2 (4 KiB, global 4096): fix the kernel or the sizes; `clmeter check` shows where"},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
		if !errors.Is(&c.e, ErrOverrun) {
			t.Error("errors.Is(ErrOverrun) does not hold")
		}
	}
}

func TestGuardSize(t *testing.T) {
	dev := &Device{Info: cl.DeviceInfo{MaxAllocBytes: 1 << 30}}
	cases := []struct {
		global []int
		a      Arg
		want   int64
	}{
		{[]int{1024}, Arg{Bytes: 4096, Type: "float"}, GuardMinBytes},              // in bounds: the minimum
		{[]int{2048}, Arg{Bytes: 4096, Type: "float"}, GuardMinBytes},              // 4 KiB past: within it
		{[]int{1 << 20}, Arg{Bytes: 4096, Type: "float"}, 4<<20 - 4096},            // the excess, in pages
		{[]int{1 << 16, 1 << 16}, Arg{Bytes: 4096, Type: "double"}, GuardMaxBytes}, // capped
		{[]int{1 << 20}, Arg{Bytes: 1<<30 - 8192, Type: "float"}, 8192},            // what the device allows
		{[]int{1 << 20}, Arg{Bytes: 1024, Type: "char16"}, 16 << 20},               // vector elements
		{[]int{8192}, Arg{Bytes: 4096, Type: "float3"}, 8192*16 - 4096},            // a 3-vector takes 4 lanes
	}
	for _, c := range cases {
		kb := &KernelBenchmark{Device: dev, Global: c.global}
		if got := kb.guardSize(c.a); got != c.want {
			t.Errorf("global %v, %d bytes of %s: guard %d, want %d", c.global, c.a.Bytes, c.a.Type, got, c.want)
		}
	}
}

// cpuDevice is a device that shares the host's memory (PoCL), other than
// Oclgrind; the test is skipped without one.
func cpuDevice(t *testing.T) *Device {
	t.Helper()
	m, _ := realDevice(t)
	devs, _ := m.Devices()
	for _, d := range devs {
		if (d.Info.Type&cl.DeviceTypeCPU != 0 || d.Info.HostUnifiedMemory) && !IsOclgrind(d) {
			return d
		}
	}
	t.Skip("no CPU device here (PoCL)")
	return nil
}

const guardKernels = `
__kernel void copy(__global const float *a, __global float *b) { size_t i = get_global_id(0); b[i] = a[i]; }
__kernel void readpast(__global const float *a, __global float *b, int n) { size_t i = get_global_id(0); if (i < n) b[i] = a[i + 1]; }
__kernel void far(__global const float *a, __global float *b) { size_t i = get_global_id(0); if (i == 0) b[4096 + 1000] = 1.0f; b[i] = a[i]; }
`

// TestGuardCatchesOverruns launches kernels that write past a buffer on a CPU
// device: each is caught after its first launch; a kernel that stays within
// its buffers (reading past one is no overrun) is not, and its output is
// right.
func TestGuardCatchesOverruns(t *testing.T) {
	dev := cpuDevice(t)
	floats := func(n int64, init bool) Arg {
		a := Arg{Kind: ArgBuffer, Bytes: 4 * n, Type: "float", Output: !init}
		if init {
			a.Init = func(b []byte) {
				for i := 0; i+4 <= len(b); i += 4 {
					binary.LittleEndian.PutUint32(b[i:], math.Float32bits(float32(i/4)))
				}
			}
		}
		return a
	}
	cases := []struct {
		kernel  string
		global  int
		args    []Arg
		overrun bool
	}{
		{"copy", 1024, []Arg{floats(1024, true), floats(1024, false)}, false},
		{"copy", 1025, []Arg{floats(1024, true), floats(1024, false)}, true},
		{"copy", 2048, []Arg{floats(1024, true), floats(1024, false)}, true},
		{"copy", 1 << 20, []Arg{floats(1024, true), floats(1024, false)}, true},
		{"far", 1024, []Arg{floats(1024, true), floats(1024, false)}, true},
		{"readpast", 1024, []Arg{floats(1024, true), floats(1024, false), {Kind: ArgScalar, Value: int32(1024), Type: "int"}}, false},
	}
	for _, c := range cases {
		launches := []string{"launch"}
		if c.kernel == "copy" && (c.global == 1024 || c.global == 2048) {
			// The first launch may be any of them.
			launches = append(launches, "phases", "validate")
		}
		for _, launch := range launches {
			kb := &KernelBenchmark{Device: dev, Source: Source{Name: "guard.cl", Text: guardKernels}, Kernel: c.kernel,
				Args: c.args, Global: []int{c.global}, NoDataWarmup: true}
			var checked bool
			kb.Check = func(in, out map[int][]byte) error {
				checked = true
				if c.kernel == "copy" && !bytes.Equal(in[0], out[1]) {
					return errors.New("b differs from a")
				}
				return nil
			}
			ctx := context.Background()
			if _, err := kb.Setup(ctx); err != nil {
				t.Fatalf("%s: setup: %v", c.kernel, err)
			}
			if len(kb.guards) != 2 {
				t.Fatalf("%s: %d guarded buffers, want 2", c.kernel, len(kb.guards))
			}
			var err error
			switch launch {
			case "launch":
				_, err = kb.Launch(ctx, 1)
			case "phases":
				_, err = kb.RunPhases(ctx)
			case "validate":
				err = kb.Validate(ctx)
			}
			kb.Teardown()
			var oe *OverrunError
			switch {
			case c.overrun && (!errors.As(err, &oe) || oe.Arg != 1 || oe.Kernel != c.kernel):
				t.Errorf("%s global %d (%s): want an overrun of argument 1, got %v", c.kernel, c.global, launch, err)
			case !c.overrun && err != nil:
				t.Errorf("%s global %d (%s): %v", c.kernel, c.global, launch, err)
			case !c.overrun && launch == "validate" && !checked:
				t.Errorf("%s: the output was not checked", c.kernel)
			}
		}
	}
}

// BenchmarkGuard measures what the guard zones cost on a CPU device, for a
// buffer of 4 MiB: "alloc" makes and releases the buffer, with its guard and
// pattern or plain; "check" reads two buffers' patterns back (once a
// benchmark, after its first launch); "launch" is a batch of 100 launches of a
// 4 MiB copy after the first, with guards and without (NoGuard).
func BenchmarkGuard(b *testing.B) {
	m := NewManager()
	defer m.Close()
	devs, _ := m.Devices()
	var dev *Device
	for _, d := range devs {
		if (d.Info.Type&cl.DeviceTypeCPU != 0 || d.Info.HostUnifiedMemory) && !IsOclgrind(d) {
			dev = d
			break
		}
	}
	if dev == nil {
		b.Skip("no CPU device here (PoCL)")
	}
	const n = 1 << 20
	ctx := context.Background()
	setup := func(b *testing.B, noGuard bool) *KernelBenchmark {
		kb := &KernelBenchmark{Device: dev, Source: Source{Name: "guard.cl", Text: guardKernels}, Kernel: "copy", Global: []int{n},
			Args:    []Arg{{Kind: ArgBuffer, Bytes: 4 * n, Type: "float"}, {Kind: ArgBuffer, Bytes: 4 * n, Type: "float", Output: true}},
			NoGuard: noGuard}
		if _, err := kb.Setup(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := kb.Launch(ctx, 1); err != nil {
			b.Fatal(err)
		}
		return kb
	}
	kb := setup(b, false)
	b.Run("alloc/guarded", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf, err := kb.createGuarded(1, cl.MemReadWrite)
			if err != nil {
				b.Fatal(err)
			}
			buf.Release()
		}
	})
	b.Run("alloc/plain", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf, err := kb.ctx.CreateBuffer(cl.MemReadWrite, 4*n, nil)
			if err != nil {
				b.Fatal(err)
			}
			// PoCL allocates at a buffer's first use: write one byte, as the
			// guarded buffer's pattern write does.
			ev, err := kb.queue.EnqueueWriteBuffer(buf, true, 0, []byte{0})
			if err != nil {
				b.Fatal(err)
			}
			ev.Release()
			buf.Release()
		}
	})
	b.Run("check", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			kb.guardsChecked = false
			if err := kb.checkGuards(); err != nil {
				b.Fatal(err)
			}
		}
	})
	kb.Teardown()
	for _, noGuard := range []bool{false, true} {
		name := "guarded"
		if noGuard {
			name = "unguarded"
		}
		b.Run("launch/"+name, func(b *testing.B) {
			kb := setup(b, noGuard)
			defer kb.Teardown()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := kb.Launch(ctx, 100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
