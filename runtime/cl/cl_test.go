package cl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// testDevice returns the first device of the first platform, skipping the test
// with the reason when this machine has no OpenCL.
func testDevice(t *testing.T) (*Device, *Context, *Queue) {
	t.Helper()
	ps, err := Platforms()
	if err != nil {
		t.Skipf("no OpenCL here: %v", err)
	}
	for _, p := range ps {
		ds, err := p.Devices()
		if err != nil || len(ds) == 0 {
			continue
		}
		ctx, err := CreateContext(ds[0])
		if err != nil {
			t.Fatal(err)
		}
		q, err := ctx.CreateQueue(ds[0], true)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { q.Release(); ctx.Release() })
		return ds[0], ctx, q
	}
	t.Skip("no OpenCL device here")
	return nil, nil, nil
}

const saxpySrc = `
__kernel void saxpy(float a, __global const float *x, __global float *y) {
	size_t i = get_global_id(0);
	y[i] = a * x[i] + y[i];
}
__kernel void add4(__global float4 *y, float4 v) {
	size_t i = get_global_id(0);
	y[i] += v;
}
`

func floats(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func bytesOf(f []float32) []byte {
	b := make([]byte, 4*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

func buildSaxpy(t *testing.T, ctx *Context) *Program {
	t.Helper()
	p, err := ctx.CreateProgramWithSource(saxpySrc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Release() })
	if err := p.Build(""); err != nil {
		t.Fatal(err)
	}
	return p
}

func runSaxpy(t *testing.T, ctx *Context, q *Queue, p *Program) {
	t.Helper()
	const n = 1024
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	xb, err := ctx.CreateBuffer(MemReadOnly|MemCopyHostPtr, 4*n, bytesOf(x))
	if err != nil {
		t.Fatal(err)
	}
	defer xb.Release()
	yb, err := ctx.CreateBuffer(MemReadWrite, 4*n, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer yb.Release()
	ev, err := q.EnqueueWriteBuffer(yb, true, 0, bytesOf(y))
	if err != nil {
		t.Fatal(err)
	}
	ev.Release()
	k, err := p.CreateKernel("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	if err := k.SetArgs(float32(2), xb, yb); err != nil {
		t.Fatal(err)
	}
	kev, err := q.EnqueueNDRange(k, []int{n}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer kev.Release()
	out := make([]byte, 4*n)
	rev, err := q.EnqueueReadBuffer(yb, false, 0, out, kev)
	if err != nil {
		t.Fatal(err)
	}
	if err := rev.Wait(); err != nil {
		t.Fatal(err)
	}
	rev.Release()
	for i, v := range floats(out) {
		if want := 2*float32(i) + 1; v != want {
			t.Fatalf("y[%d] = %v, want %v", i, v, want)
		}
	}
	prof, err := kev.Profile()
	if err != nil {
		t.Fatal(err)
	}
	if !(prof.Queued <= prof.Submit && prof.Submit <= prof.Start && prof.Start <= prof.End) || prof.End == 0 {
		t.Errorf("profile not ordered QUEUED <= SUBMIT <= START <= END: %+v", prof)
	}
	if st, err := kev.Status(); err != nil || st != Complete {
		t.Errorf("status = %v, %v; want complete", st, err)
	}
}

func TestBuildRunProfile(t *testing.T) {
	_, ctx, q := testDevice(t)
	runSaxpy(t, ctx, q, buildSaxpy(t, ctx))
}

func TestPlatformAndDeviceInfo(t *testing.T) {
	d, _, _ := testDevice(t)
	pi, err := d.Platform().Info()
	if err != nil || pi.Name == "" || pi.Version == "" {
		t.Fatalf("platform info %+v, %v", pi, err)
	}
	di, err := d.Info()
	if err != nil {
		t.Fatal(err)
	}
	if di.Name == "" || di.ComputeUnits < 1 || di.GlobalMemBytes <= 0 || di.MaxAllocBytes <= 0 || di.MaxWorkGroupSize < 1 || len(di.MaxWorkItemSizes) != 3 || di.TypeName == "" {
		t.Errorf("device info incomplete: %+v", di)
	}
	if !strings.HasPrefix(di.Version, "OpenCL ") {
		t.Errorf("device version %q", di.Version)
	}
}

func TestBuildFailureCarriesLog(t *testing.T) {
	_, ctx, _ := testDevice(t)
	p, err := ctx.CreateProgramWithSource("__kernel void broken(__global float *x) { x[0] = undeclared_thing; }")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	err = p.Build("")
	if !errors.Is(err, BuildProgramFailure) {
		t.Fatalf("err = %v, want CL_BUILD_PROGRAM_FAILURE", err)
	}
	var ce *Error
	if !errors.As(err, &ce) || !strings.Contains(ce.Log, "undeclared_thing") {
		t.Fatalf("build log missing the culprit: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "clBuildProgram: CL_BUILD_PROGRAM_FAILURE") {
		t.Errorf("error text %q", err.Error())
	}
}

func TestNamedErrors(t *testing.T) {
	d, ctx, q := testDevice(t)
	p := buildSaxpy(t, ctx)
	if _, err := p.CreateKernel("nope"); !errors.Is(err, InvalidKernelName) {
		t.Errorf("unknown kernel: %v", err)
	}
	k, err := p.CreateKernel("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	if err := k.SetArg(7, float32(1)); !errors.Is(err, InvalidArgIndex) {
		t.Errorf("bad index: %v", err)
	}
	if err := k.SetArg(0, float64(1)); !errors.Is(err, InvalidArgSize) {
		t.Errorf("bad size: %v", err)
	}
	if err := k.SetArg(0, struct{ p *int }{}); err == nil {
		t.Error("unsupported Go type accepted")
	}
	info, _ := d.Info()
	buf, err := ctx.CreateBuffer(MemReadWrite, 16, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	if err := k.SetArgs(float32(1), buf, buf); err != nil {
		t.Fatal(err)
	}
	// A local size over the device maximum must be refused by name.
	big := info.MaxWorkGroupSize * 2
	_, err = q.EnqueueNDRange(k, []int{big}, []int{big}, nil)
	if !errors.Is(err, InvalidWorkGroupSize) && !errors.Is(err, InvalidWorkItemSize) {
		t.Errorf("oversized work-group: %v", err)
	}
	if err == nil || !strings.HasPrefix(err.Error(), "clEnqueueNDRangeKernel: CL_INVALID_WORK") {
		t.Errorf("error text %v", err)
	}
	if _, err := ctx.CreateBuffer(MemReadWrite, 0, nil); !errors.Is(err, InvalidBufferSize) {
		t.Errorf("zero buffer: %v", err)
	}
}

func TestBinaryRoundTrip(t *testing.T) {
	d, ctx, q := testDevice(t)
	p := buildSaxpy(t, ctx)
	names, err := p.KernelNames()
	if err != nil || strings.Join(names, ",") != "saxpy,add4" && strings.Join(names, ",") != "add4,saxpy" {
		t.Fatalf("kernel names %v, %v", names, err)
	}
	bins, err := p.Binaries()
	if err != nil || len(bins) != 1 || len(bins[0]) == 0 {
		t.Fatalf("binaries: %d, %v", len(bins), err)
	}
	p2, status, err := ctx.CreateProgramWithBinary([]*Device{d}, bins)
	if err != nil || status[0] != nil {
		t.Fatalf("from binary: %v %v", err, status)
	}
	defer p2.Release()
	if err := p2.Build(""); err != nil {
		t.Fatal(err)
	}
	runSaxpy(t, ctx, q, p2)
}

// TestJunkBinary hands the driver a binary that is not one, in a child
// process: some drivers (Mesa 22's Rusticl) abort the whole process on it
// instead of returning an error. That is logged, not failed: clmeter hands a
// driver only binaries that driver made (its cache checks a checksum and the
// driver's version first). A junk binary that builds fails the test.
func TestJunkBinary(t *testing.T) {
	if os.Getenv("CLMETER_JUNK_BINARY_CHILD") == "1" {
		d, ctx, _ := testDevice(t)
		junk := [][]byte{[]byte("this is not a binary")}
		if p3, _, err := ctx.CreateProgramWithBinary([]*Device{d}, junk); err == nil {
			// Some drivers accept anything at creation and fail at build.
			defer p3.Release()
			if err := p3.Build(""); err == nil {
				t.Error("a junk binary built")
			}
		}
		return
	}
	testDevice(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestJunkBinary$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CLMETER_JUNK_BINARY_CHILD=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && strings.Contains(string(out), "a junk binary built"):
		t.Errorf("%s", out)
	case errors.As(err, &ee):
		t.Logf("the driver ends the process on a junk binary (%v): clmeter hands it only binaries it made", err)
	default:
		t.Fatal(err)
	}
}

func TestVectorArgsMapFillCopy(t *testing.T) {
	_, ctx, q := testDevice(t)
	p := buildSaxpy(t, ctx)
	k, err := p.CreateKernel("add4")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	const n = 64
	buf, err := ctx.CreateBuffer(MemReadWrite|MemAllocHostPtr, 16*n, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	fev, err := q.EnqueueFillBuffer(buf, bytesOf([]float32{1}), 0, 16*n)
	if err != nil {
		t.Fatal(err)
	}
	fev.Release()
	if err := k.SetArgs(buf, [4]float32{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	ev, err := q.EnqueueNDRange(k, []int{n}, []int{n / 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ev.Release()
	dst, err := ctx.CreateBuffer(MemReadWrite, 16*n, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Release()
	cev, err := q.EnqueueCopyBuffer(buf, dst, 0, 0, 16*n)
	if err != nil {
		t.Fatal(err)
	}
	cev.Release()
	m, mev, err := q.EnqueueMapBuffer(dst, true, MapRead, 0, 16*n)
	if err != nil {
		t.Fatal(err)
	}
	mev.Release()
	got := floats(m.Bytes())
	for i, v := range got {
		if want := float32(1 + i%4 + 1); v != want {
			t.Fatalf("element %d = %v, want %v", i, v, want)
		}
	}
	uev, err := q.EnqueueUnmap(m)
	if err != nil {
		t.Fatal(err)
	}
	uev.Release()
	if err := q.Finish(); err != nil {
		t.Fatal(err)
	}
	wi, err := k.WorkGroupInfo(q.Device())
	if err != nil || wi.MaxSize < 1 || wi.PreferredMultiple < 1 {
		t.Errorf("work-group info %+v, %v", wi, err)
	}
}

func TestUseHostPtrAndMarker(t *testing.T) {
	_, ctx, q := testDevice(t)
	hm := NewHostMem(4096)
	defer hm.Free()
	copy(hm.Bytes(), bytesOf([]float32{42}))
	buf, err := ctx.CreateBufferUseHost(MemReadWrite, hm)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	out := make([]byte, 4)
	ev, err := q.EnqueueReadBuffer(buf, true, 0, out)
	if err != nil {
		t.Fatal(err)
	}
	ev.Release()
	if floats(out)[0] != 42 {
		t.Errorf("USE_HOST_PTR read %v", floats(out))
	}
	mk, err := q.EnqueueMarker()
	if err != nil {
		t.Fatal(err)
	}
	if err := mk.Wait(); err != nil {
		t.Fatal(err)
	}
	mk.Release()
}

func TestStatusNames(t *testing.T) {
	if InvalidWorkGroupSize.Error() != "CL_INVALID_WORK_GROUP_SIZE" || Status(-9999).Error() != "CL_UNKNOWN_ERROR(-9999)" {
		t.Error(InvalidWorkGroupSize.Error(), Status(-9999).Error())
	}
	err := error(&Error{Func: "clEnqueueNDRangeKernel", Status: InvalidWorkGroupSize})
	if err.Error() != "clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE" || !errors.Is(err, InvalidWorkGroupSize) || errors.Is(err, InvalidValue) {
		t.Error(err)
	}
}

// TestNoLibrary runs itself in a child process whose CLMETER_OPENCL_LIB names a
// library that does not exist: every call must fail with ErrNoLibrary, not crash.
func TestNoLibrary(t *testing.T) {
	if os.Getenv("CLM_NO_LIBRARY_CHILD") == "1" {
		_, err := Platforms()
		if !errors.Is(err, ErrNoLibrary) || !strings.Contains(err.Error(), "ocl-icd-libopencl1") {
			fmt.Println("FAIL:", err)
			os.Exit(1)
		}
		if _, err := CreateContext(); !errors.Is(err, ErrNoLibrary) {
			fmt.Println("FAIL: context:", err)
			os.Exit(1)
		}
		if LibraryPath() != "" {
			fmt.Println("FAIL: library path", LibraryPath())
			os.Exit(1)
		}
		fmt.Println("child ok")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoLibrary$")
	cmd.Env = append(os.Environ(), "CLM_NO_LIBRARY_CHILD=1", LibraryEnv+"=/nonexistent/libOpenCL.so.1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "child ok") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func TestProbeICD(t *testing.T) {
	if _, err := ProbeICD("/nonexistent/libfoo.so"); err == nil {
		t.Error("missing library probed fine")
	}
	if _, err := ProbeICD("libc.so.6"); err == nil || !strings.Contains(err.Error(), "clIcdGetPlatformIDsKHR") {
		t.Errorf("libc probed as an ICD: %v", err)
	}
}

func TestRepeatLoopsLaunchEveryTime(t *testing.T) {
	_, ctx, q := testDevice(t)
	p, err := ctx.CreateProgramWithSource("__kernel void inc(__global int *c) { if (get_global_id(0) == 0) c[0] += 1; }")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if err := p.Build(""); err != nil {
		t.Fatal(err)
	}
	k, err := p.CreateKernel("inc")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	buf, err := ctx.CreateBuffer(MemReadWrite, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	ev, err := q.EnqueueFillBuffer(buf, []byte{0, 0, 0, 0}, 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	ev.Release()
	if err := k.SetArg(0, buf); err != nil {
		t.Fatal(err)
	}
	if err := q.EnqueueNDRangeRepeat(k, []int{1}, nil, nil, 7); err != nil {
		t.Fatal(err)
	}
	if err := q.EnqueueFinishRepeat(k, []int{1}, nil, nil, 5); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 4)
	rev, err := q.EnqueueReadBuffer(buf, true, 0, got)
	if err != nil {
		t.Fatal(err)
	}
	rev.Release()
	if n := int32(got[0]) | int32(got[1])<<8; n != 12 {
		t.Errorf("12 launches counted %d", n)
	}
}
