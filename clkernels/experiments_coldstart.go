package clkernels

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/clmeter/clmeter/isolate"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/cl"
)

// ColdStartChildCommand is the hidden clmeter command the coldstart suite
// re-executes: 'clmeter suite-child coldstart --device REF [--small]' prints
// one JSON line, a ColdStartChild.
var ColdStartChildCommand = []string{"suite-child", SuiteColdStart}

// coldStartEnv turns the known drivers' program caches (and clmeter's) off in
// the fresh process, so its build is a real JIT compilation every time.
var coldStartEnv = []string{cache.OffEnv + "=1", "POCL_KERNEL_CACHE=0", "CUDA_CACHE_DISABLE=1",
	"NEO_CACHE_PERSISTENT=0", "MESA_SHADER_CACHE_DISABLE=true", "AMD_COMGR_CACHE=0"}

// ColdStartRun is one size of a fresh process, timed holistically: Total runs
// from before the first OpenCL call the size needs to after its copy-out. The
// first size also pays Enumeration, Context and Build (zero for the others:
// the process reuses them, as the article's runtime does).
type ColdStartRun struct {
	Size MatmulSize `json:"size"`
	// Enumeration is platform and device enumeration (loading the ICD loader
	// and drivers); Context the context and queue; Build the program from
	// source (no cache).
	Enumeration time.Duration `json:"enumeration_ns"`
	Context     time.Duration `json:"context_ns"`
	Build       time.Duration `json:"build_ns"`
	// Buffers is creating A, B, C and writing A and B (blocking); Kernel is
	// creating the kernel (first size) and setting its arguments; Launch the
	// enqueue and finish of the one launch; CopyOut reading C (blocking).
	Buffers time.Duration `json:"buffers_ns"`
	Kernel  time.Duration `json:"kernel_ns"`
	Launch  time.Duration `json:"launch_ns"`
	CopyOut time.Duration `json:"copy_out_ns"`
	Total   time.Duration `json:"total_ns"`
	// Invalid says how C differed from the CPU reference (empty when it matched).
	Invalid string `json:"invalid,omitempty"`
}

// ColdStartChild is what one fresh process measured.
type ColdStartChild struct {
	Platform string         `json:"platform"`
	Device   string         `json:"device"`
	Runs     []ColdStartRun `json:"runs"`
}

// RunColdStartChild is the fresh-process half of the coldstart experiment: in
// this process, which must not have touched OpenCL yet, it multiplies the ten
// ColdStartSizes in order on the device spec names, each timed in one go from
// platform enumeration (first size only) to copy-out. The inputs are filled
// before each size's timer starts, and C is validated after it stops. It
// times outside the harness (process start-up timing): enumeration, context
// and build happen once a process, and each size's first multiply is the
// figure; the harness's warm-up and repeated samples would time a warm
// process instead (internal/archcheck lists it).
func RunColdStartChild(ctx context.Context, spec string, small bool) (*ColdStartChild, error) {
	st := &coldStart{m: runtime.NewManager()}
	defer st.m.Close()
	defer func() {
		st.kern.Release()
		st.prog.Release()
	}()
	out := &ColdStartChild{}
	for _, s := range ColdStartSizes(small) {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		a, b := matmulInputs(s)
		res := make([]byte, 4*s.M*s.N)
		run := ColdStartRun{Size: s}
		t0 := time.Now()
		if st.dev == nil {
			if err := st.open(spec, &run); err != nil {
				return out, err
			}
			out.Platform, out.Device = st.dev.Platform.Name, st.dev.Info.Name
		}
		if err := st.multiply(s, a, b, res, t0, &run); err != nil {
			return out, err
		}
		if err := checkMatmul(a, b, res, s); err != nil {
			run.Invalid = err.Error()
		}
		out.Runs = append(out.Runs, run)
	}
	return out, nil
}

// coldStart is what the coldstart child made once and reuses for every size.
type coldStart struct {
	m    *runtime.Manager
	dev  *runtime.Device
	q    *cl.Queue
	c    *cl.Context
	prog *cl.Program
	kern *cl.Kernel
}

// open selects the device spec names, makes its context and builds the
// program, timing each into run.
func (st *coldStart) open(spec string, run *ColdStartRun) error {
	t := time.Now()
	devs, err := st.m.Select(spec)
	if err != nil {
		return err
	}
	run.Enumeration = time.Since(t)
	st.dev = devs[0]
	t = time.Now()
	if st.c, st.q, err = st.dev.Context(); err != nil {
		return err
	}
	run.Context = time.Since(t)
	t = time.Now()
	if st.prog, _, err = st.dev.BuildFromSource(source("matmul.cl"), ""); err != nil {
		return err
	}
	run.Build = time.Since(t)
	return nil
}

// multiply makes the buffers of size s, sets the kernel's arguments, launches
// it and copies C out into res, timing each into run, and the whole from t0
// (before the buffers are released).
func (st *coldStart) multiply(s MatmulSize, a, b, res []byte, t0 time.Time, run *ColdStartRun) error {
	t := time.Now()
	bufs, err := coldStartBuffers(st.c, st.q, a, b, len(res))
	defer releaseBuffers(bufs)
	if err != nil {
		return fmt.Errorf("matmul %s: %w", s, err)
	}
	run.Buffers = time.Since(t)
	t = time.Now()
	if st.kern == nil {
		if st.kern, err = st.prog.CreateKernel(MatmulNaive); err != nil {
			return err
		}
	}
	if err := st.kern.SetArgs(bufs[0], bufs[1], bufs[2], int32(s.M), int32(s.N), int32(s.W)); err != nil {
		return fmt.Errorf("matmul %s: %w", s, err)
	}
	run.Kernel = time.Since(t)
	t = time.Now()
	if err := st.q.EnqueueNDRangeNoEvent(st.kern, []int{s.N, s.M}, nil, nil); err != nil {
		return fmt.Errorf("matmul %s: %w", s, err)
	}
	if err := st.q.Finish(); err != nil {
		return fmt.Errorf("matmul %s: %w", s, err)
	}
	run.Launch = time.Since(t)
	t = time.Now()
	ev, err := st.q.EnqueueReadBuffer(bufs[2], true, 0, res)
	if err != nil {
		return fmt.Errorf("matmul %s: reading C: %w", s, err)
	}
	ev.Release()
	end := time.Now()
	run.CopyOut, run.Total = end.Sub(t), end.Sub(t0)
	return nil
}

// coldStartBuffers creates A and B and writes them (blocking), and creates C.
func coldStartBuffers(c *cl.Context, q *cl.Queue, a, b []byte, cBytes int) ([]*cl.Buffer, error) {
	var bufs []*cl.Buffer
	for _, data := range [][]byte{a, b} {
		buf, err := c.CreateBuffer(cl.MemReadOnly, int64(len(data)), nil)
		if err != nil {
			return bufs, err
		}
		bufs = append(bufs, buf)
		ev, err := q.EnqueueWriteBuffer(buf, true, 0, data)
		if err != nil {
			return bufs, err
		}
		ev.Release()
	}
	buf, err := c.CreateBuffer(cl.MemWriteOnly, int64(cBytes), nil)
	if err != nil {
		return bufs, err
	}
	return append(bufs, buf), nil
}

func releaseBuffers(bufs []*cl.Buffer) {
	for i, b := range bufs {
		if b != nil {
			b.Release()
			bufs[i] = nil
		}
	}
}

// freshColdStart runs the child process and reads its JSON line.
func (r *runner) freshColdStart() (*ColdStartChild, error) {
	args := append(append([]string{r.o.Executable}, ColdStartChildCommand...), "--device", r.dev.Ref())
	if r.o.Small {
		args = append(args, "--small")
	}
	rep, err := isolate.Call(r.ctx, isolate.Child{Command: args, Env: append(os.Environ(), coldStartEnv...)})
	if err != nil {
		return nil, err
	}
	if err := rep.Failure(); err != nil {
		// One line, never the child's stack dump: a driver may crash it.
		return nil, fmt.Errorf("fresh process %s failed: %w", strings.Join(args[1:], " "), err)
	}
	var child ColdStartChild
	if err := rep.Decode(&child); err != nil || len(child.Runs) == 0 {
		return nil, fmt.Errorf("fresh process printed no result: %q %s", rep.Stdout, strings.TrimSpace(rep.Stderr))
	}
	return &child, nil
}

// Names of the coldstart benchmarks.
const (
	ColdStartFresh   = "coldstart/fresh-process/" // + size
	ColdStartWarm    = "coldstart/in-process/"    // + size
	ColdStartStartup = "coldstart/startup"
)

func runColdStart(r *runner) error {
	sizes := ColdStartSizes(r.o.Small)
	if r.o.Executable != "" {
		if err := r.coldStartFresh(); err != nil {
			return err
		}
	}
	for i, s := range sizes {
		_, err := r.kernelPhases(ColdStartWarm+s.String(), []param{{"size", s.String()}, {"order", fmt.Sprint(i + 1)}}, true, func() (*runtime.KernelBenchmark, error) {
			return MatmulBenchmark(r.dev, MatmulNaive, s, 0)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) coldStartFresh() error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if r.o.Progress != nil {
		r.o.Progress(ColdStartFresh + "*")
	}
	child, err := r.freshColdStart()
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		b := r.newBenchmark(ColdStartStartup, nil)
		b.Error = err.Error()
		return r.emit(b)
	}
	first := child.Runs[0]
	note := "fresh clmeter process, driver and clmeter caches off, host timer"
	startup := []results.Figure{
		{Name: "platform enumeration", Value: ms(first.Enumeration), Unit: "ms", Note: "loads the ICD loader and drivers; " + note},
		{Name: "context and queue", Value: ms(first.Context), Unit: "ms", Note: note},
		{Name: "program build from source", Value: ms(first.Build), Unit: "ms", Note: "matmul.cl, JIT; " + note},
		{Name: "first buffers + copy-in", Value: ms(first.Buffers), Unit: "ms", Note: "size " + first.Size.String()},
		{Name: "first kernel + arguments", Value: ms(first.Kernel), Unit: "ms", Note: "clCreateKernel, clSetKernelArg"},
		{Name: "first launch", Value: ms(first.Launch), Unit: "ms", Note: "enqueue + finish, size " + first.Size.String()},
		{Name: "first copy-out", Value: ms(first.CopyOut), Unit: "ms", Note: "size " + first.Size.String()},
		{Name: "first size total", Value: ms(first.Total), Unit: "ms", Note: "everything above"},
	}
	if len(child.Runs) > 1 {
		sec := child.Runs[1]
		startup = append(startup, results.Figure{Name: "second size total", Value: ms(sec.Total), Unit: "ms", Note: "size " + sec.Size.String() + ", larger but without start-up"})
	}
	if err := r.figures(ColdStartStartup, nil, startup, map[string]any{"platform": child.Platform, "device": child.Device}); err != nil {
		return err
	}
	for i, run := range child.Runs {
		figs := []results.Figure{{Name: "total", Value: ms(run.Total), Unit: "ms", Note: "holistic: " + note}}
		for _, f := range []struct {
			name string
			d    time.Duration
		}{{"enumeration", run.Enumeration}, {"context", run.Context}, {"build", run.Build}, {"buffers + copy-in", run.Buffers},
			{"kernel + arguments", run.Kernel}, {"launch", run.Launch}, {"copy-out", run.CopyOut}} {
			if f.d > 0 {
				figs = append(figs, results.Figure{Name: f.name, Value: ms(f.d), Unit: "ms"})
			}
		}
		b := r.newBenchmark(ColdStartFresh+run.Size.String(), []param{{"size", run.Size.String()}, {"order", fmt.Sprint(i + 1)}})
		b.Figures = figs
		b.Extra = map[string]any{"gflop": float64(run.Size.FLOP()) / 1e9}
		if run.Invalid != "" {
			b.FailValidation(run.Invalid)
		}
		if err := r.emit(b); err != nil {
			return err
		}
	}
	return nil
}
