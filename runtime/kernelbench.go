package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime/cl"
)

// ArgKind says what a kernel argument is.
type ArgKind int

// Argument kinds.
const (
	// ArgBuffer is a __global or __constant buffer.
	ArgBuffer ArgKind = iota
	// ArgScalar is a value passed by value (a scalar or a vector).
	ArgScalar
	// ArgLocal is __local memory of a given size.
	ArgLocal
	// ArgImage2D is a read-only 2D image of Width x Height RGBA float texels
	// (Bytes = Width*Height*16), filled by Init when it is made.
	ArgImage2D
)

// An Arg is one kernel argument of a KernelBenchmark.
type Arg struct {
	Kind ArgKind
	// Name labels the argument in messages ("x", "arg 2").
	Name string
	// Bytes is the buffer's size (ArgBuffer) or the local memory's (ArgLocal).
	Bytes int64
	// Init fills the buffer's initial contents (len(b) == Bytes). Nil leaves it
	// zero. Inputs are written in full before timing (data warm-up).
	Init func(b []byte)
	// InitAt, when set on an ArgImage2D, fills b as the contents' bytes from
	// off on: the image is then written a piece at a time (no host copy of
	// it whole) and Check finds no input for it. Init is then ignored.
	InitAt func(b []byte, off int64)
	// Fill, when set, fills the buffer with this pattern repeated
	// (clEnqueueFillBuffer, or the host through a map where buffers are host
	// memory; its length a power of two up to 128 bytes dividing Bytes) instead
	// of host data: no host copy is kept, Check finds no input. Init is ignored.
	Fill []byte
	// Regen marks an input whose Init writes the same bytes every time and
	// whose contents Check does not read from its in map (it regenerates what
	// it needs, from a seed): no host copy of it is made or kept. Init runs
	// straight into the mapped buffer (on a device sharing host memory, the
	// buffer itself), again before Validate; the phases move their bytes
	// through a small staging buffer (kernelbench_stage.go).
	Regen bool
	// Output marks a buffer that Validate reads back.
	Output bool
	// Flags are extra memory flags (MemReadWrite when zero).
	Flags cl.MemFlags
	// Value is a scalar's Go value (see cl.Kernel.SetArg).
	Value any
	// Width and Height are an ArgImage2D's size in texels.
	Width, Height int
	// Type is the OpenCL C type the caller means ("float4"; a buffer's or local
	// memory's element type), for the check against the kernel's own types.
	// Empty: not checked.
	Type string
}

// A KernelBenchmark measures one kernel of an OpenCL C program on one device.
// Hand Measurable() to measure.Run: it offers the phase breakdown only when the
// kernel has buffers and validation only when Check is set.
type KernelBenchmark struct {
	Device  *Device
	Source  Source
	Options string
	Kernel  string
	Args    []Arg
	// Global and Local are the NDRange sizes (Local nil: the driver picks).
	Global, Local []int
	// BytesPerLaunch and OpsPerLaunch feed throughput (zero when unknown);
	// OpsUnit names the operations: "FLOP", "IOP", "item".
	BytesPerLaunch, OpsPerLaunch int64
	OpsUnit                      string
	// Traffic is the memory traffic of a launch, for the roofline's bandwidth
	// roof: "read-only", "copy" (it writes arrays it does not read: on CPUs
	// each such write also reads its line first) or "read-modify-write";
	// empty when unknown.
	Traffic string
	// Check validates one launch's outputs: in holds every buffer argument's
	// initial contents and out every Output buffer's contents after one launch
	// on fresh inputs, both by argument index. Nil: no validation.
	Check func(in, out map[int][]byte) error
	// NoDataWarmup skips writing the buffers before timing, so first-touch costs
	// fall into the cold run (--no-data-warmup).
	NoDataWarmup bool
	// DeviceBusyLimit is the largest batch for which every launch gets an event
	// and Batch.DeviceBusy is summed; larger batches take events on the first and
	// last launch only (per-launch events cost microseconds on some drivers).
	// Zero means 256.
	DeviceBusyLimit int

	// Tracer, when set, receives every host call and device command for a
	// timeline (clmeter trace). Every launch then gets an event.
	Tracer Tracer

	// HostOnly launches without events: the batch has host times only (for
	// --timer host, and to compare with a plain C loop).
	HostOnly bool
	// SyncEach waits for every launch before the next (enqueue + finish round
	// trips), so a batch's per-launch time is the round-trip latency.
	SyncEach bool
	// CheckArgTypes builds with -cl-kernel-arg-info and, before anything is
	// enqueued, checks each Arg against the kernel's argument: buffer, local
	// memory or value, and a value's type.
	CheckArgTypes bool
	// NoGuard leaves out the guard zones that buffers get on devices sharing
	// the host's memory (see GuardMinBytes).
	NoGuard bool

	// Set by Setup.
	Build   BuildInfo
	Program *cl.Program

	ctx       *cl.Context
	queue     *cl.Queue
	kernel    *cl.Kernel
	bufs      map[int]*cl.Buffer
	images    map[int]*cl.Buffer // read-only images by argument: made with their data, never rewritten
	inputs    map[int][]byte
	outHost   map[int][]byte // readOutputs' host buffers, kept across reads
	st        stager         // the phases' pieces when the benchmark is lean
	genTime   time.Duration  // Init's time into mapped buffers (Regen), for HostPrep
	flush     *cl.Buffer
	flushSz   int64
	abandoned atomic.Bool
	touchTime time.Duration // mapped buffers' page backing (first touch), for FirstTouch
	// guards holds each guarded buffer's guard pattern, by argument index;
	// guardsChecked is set once they were read back after the first launch.
	guards        map[int][]byte
	guardsChecked bool
	bp            benchPool // its buffers to and from the device's pool (bufpool.go)
	// NoPhases leaves out the copy-in, compute and copy-out phases (and the
	// first-touch figure worked out from them): for suites whose tables do not
	// show them, where they cost seconds on large arrays.
	NoPhases bool
}

// Setup builds the program (through the cache), makes the buffers, writes their
// contents (timed: the first-touch figure) and sets the arguments.
func (b *KernelBenchmark) Setup(ctx context.Context) (measure.SetupInfo, error) {
	info := measure.SetupInfo{
		BytesPerLaunch: b.BytesPerLaunch, OpsPerLaunch: b.OpsPerLaunch, OpsUnit: b.OpsUnit,
		TimerResolution: b.Device.Info.TimerResolution,
	}
	if err := b.checkSizes(); err != nil {
		return info, err
	}
	// The cache looks the program up while the driver makes the context.
	opts, _ := b.buildOptions()
	b.Device.PrefetchProgram(b.Source, opts)
	c, q, err := b.Device.Context()
	if err != nil {
		return info, err
	}
	b.ctx, b.queue = c, q
	if err := b.build(); err != nil {
		return info, err
	}
	b.bufs, b.inputs, b.images = map[int]*cl.Buffer{}, map[int][]byte{}, map[int]*cl.Buffer{}
	b.takePooled(c) // before this benchmark's memory is taken
	// Host data: allocated and generated first, timed on their own.
	prep := time.Now()
	for i, a := range b.Args {
		if a.Kind != ArgBuffer && a.Kind != ArgImage2D || a.Kind == ArgBuffer && len(a.Fill) > 0 || b.noHostCopy(a) || a.InitAt != nil {
			continue
		}
		data := hostBuffer(a.Bytes)
		if a.Init != nil {
			a.Init(data)
		}
		b.inputs[i] = data
	}
	info.HostPrep = time.Since(prep)
	for i, a := range b.Args {
		if err := b.setArg(c, i, a); err != nil {
			return info, err
		}
	}
	if b.NoDataWarmup {
		return info, q.Finish()
	}
	// Upload: the first write of every buffer (fresh device memory is touched
	// here). measure takes the first touch as what it cost over the phases'
	// copy-in, the same writes again.
	start := time.Now()
	for i := range b.Args {
		if _, ok := b.bufs[i]; ok {
			if err := b.upload(i); err != nil {
				return info, err
			}
		}
	}
	if err := q.Finish(); err != nil {
		return info, err
	}
	info.Upload = time.Since(start) - b.genTime
	info.HostPrep, info.FirstTouch = info.HostPrep+b.genTime, b.touchTime
	return info, nil
}

// build builds the program (with -cl-kernel-arg-info when CheckArgTypes and
// the driver takes it), makes the kernel and checks its arguments' count (and
// types).
func (b *KernelBenchmark) build() error {
	tb := time.Now()
	opts, checkArgs := b.buildOptions()
	p, binfo, err := b.Device.BuildProgram(b.Source, opts)
	if err != nil && checkArgs && errors.Is(err, cl.BuildProgramFailure) {
		if p2, binfo2, err2 := b.Device.BuildProgram(b.Source, b.Options); err2 == nil {
			p, binfo, err, checkArgs = p2, binfo2, nil, false
		}
	}
	if err != nil {
		return err
	}
	if b.Tracer != nil {
		b.Tracer.Host("build "+b.Source.Name, tb, time.Now())
	}
	b.Program, b.Build = p, binfo
	if b.kernel, err = p.CreateKernel(b.Kernel); err != nil {
		if errors.Is(err, cl.InvalidKernelName) {
			names, _ := p.KernelNames()
			if len(names) == 0 {
				return fmt.Errorf("%s defines no kernels: it needs a __kernel function (kernel %q was asked for)", b.Source.Name, b.Kernel)
			}
			return fmt.Errorf("%s has no kernel %q; its kernels are %v (pick one with --kernel)", b.Source.Name, b.Kernel, names)
		}
		return err
	}
	if n, err := b.kernel.NumArgs(); err == nil && n != len(b.Args) {
		return fmt.Errorf("kernel %s takes %d arguments, %d were given (one --arg each, in order)", b.Kernel, n, len(b.Args))
	}
	if checkArgs {
		return b.checkArgTypes()
	}
	return nil
}

// setArg makes argument i's buffer or image (in context c) and sets it, or
// sets its local memory or value.
func (b *KernelBenchmark) setArg(c *cl.Context, i int, a Arg) error {
	var err error
	switch a.Kind {
	case ArgBuffer:
		flags := bufferFlags(a)
		var buf *cl.Buffer
		if buf = b.pooled(i); buf != nil {
			if g := b.bp.keys[i].alloc - a.Bytes; g > 0 {
				if err = b.writeCanary(i, buf, g); err != nil {
					buf.Release()
				}
			}
		} else if b.guarded() {
			buf, err = b.createGuarded(i, flags)
		} else {
			buf, err = c.CreateBuffer(flags, a.Bytes, nil)
			b.bp.keys[i] = poolKey{flags: flags, alloc: a.Bytes, bytes: a.Bytes}
		}
		if err != nil {
			return fmt.Errorf("buffer %s (%s): %w", a.label(i), humanSize(a.Bytes), err)
		}
		b.bufs[i] = buf
		err = b.kernel.SetArg(i, buf)
	case ArgImage2D:
		img, ierr := b.makeImage(c, i)
		if ierr != nil {
			return fmt.Errorf("image %s (%dx%d float4): %w", a.label(i), a.Width, a.Height, ierr)
		}
		b.images[i] = img
		delete(b.inputs, i) // the image holds its texels: no host copy kept
		err = b.kernel.SetArg(i, img)
	case ArgLocal:
		err = b.kernel.SetArg(i, cl.LocalMem(a.Bytes))
	case ArgScalar:
		err = b.kernel.SetArg(i, a.Value)
	}
	if err != nil {
		return fmt.Errorf("argument %s: %w", a.label(i), err)
	}
	return nil
}

func (b *KernelBenchmark) write(i int) error {
	t := time.Now()
	var ev *cl.Event
	var err error
	if b.noHostCopy(b.Args[i]) {
		return b.writeNoCopy(i)
	}
	if fill := b.Args[i].Fill; len(fill) > 0 {
		ev, err = b.queue.EnqueueFillBuffer(b.bufs[i], fill, 0, b.Args[i].Bytes)
		if err == nil {
			err = ev.Wait()
		}
	} else {
		ev, err = b.queue.EnqueueWriteBuffer(b.bufs[i], true, 0, b.inputs[i])
	}
	if err != nil {
		return fmt.Errorf("writing buffer %s: %w", b.Args[i].label(i), err)
	}
	if b.Tracer != nil {
		b.Tracer.Host("clEnqueueWriteBuffer "+b.Args[i].label(i), t, time.Now())
		if p, err := ev.Profile(); err == nil {
			b.Tracer.Device("write "+b.Args[i].label(i), "transfer", p)
		}
	}
	return ev.Release()
}

// Launch enqueues k launches back to back and waits for them. The device times
// come from events on the launches: the batch spans the first START to the last
// END.
func (b *KernelBenchmark) Launch(ctx context.Context, k int) (measure.Batch, error) {
	limit := b.DeviceBusyLimit
	if limit == 0 {
		limit = 256
	}
	if b.HostOnly && b.Tracer == nil {
		return b.launchHostOnly(ctx, k)
	}
	every := k <= limit || b.Tracer != nil
	events := make([]*cl.Event, 0, min(k, limit+2))
	defer func() { cl.ReleaseAll(events) }()
	start := time.Now()
	enqueue := func() error {
		t := time.Now()
		ev, err := b.queue.EnqueueNDRange(b.kernel, b.Global, b.Local, nil)
		if b.Tracer != nil {
			b.Tracer.Host("clEnqueueNDRangeKernel "+b.Kernel, t, time.Now())
		}
		if err != nil {
			return err
		}
		events = append(events, ev)
		return nil
	}
	var err error
	if every || b.SyncEach {
		for i := 0; i < k && err == nil; i++ {
			err = enqueue()
			if err == nil && b.SyncEach {
				err = b.finish(ctx)
			}
		}
	} else {
		// Events on the first and last launch only; the ones between go in one
		// C loop, as a hand-written loop would enqueue them.
		if err = enqueue(); err == nil {
			if err = b.queue.EnqueueNDRangeRepeat(b.kernel, b.Global, b.Local, nil, k-2); err == nil {
				err = enqueue()
			}
		}
	}
	if err != nil {
		b.queue.Finish()
		return measure.Batch{}, fmt.Errorf("kernel %s: %w", b.Kernel, err)
	}
	tf := time.Now()
	if err := b.finish(ctx); err != nil {
		return measure.Batch{}, fmt.Errorf("kernel %s: %w", b.Kernel, err)
	}
	var batch measure.Batch
	batch.Host = time.Since(start)
	if !b.SyncEach {
		batch.Enqueue = tf.Sub(start)
	}
	if err := b.checkGuards(); err != nil {
		return measure.Batch{}, err
	}
	if b.Tracer != nil {
		b.Tracer.Host("clFinish", tf, time.Now())
		for _, ev := range events {
			if p, err := ev.Profile(); err == nil {
				b.Tracer.Device(b.Kernel, "kernel", p)
			}
		}
	}
	return deviceTimes(batch, events, every), nil
}

// launchHostOnly launches k times without events: the batch has host times
// only (--timer host; with SyncEach, every round trip in one call into C, as
// a C loop does it).
func (b *KernelBenchmark) launchHostOnly(ctx context.Context, k int) (measure.Batch, error) {
	start := time.Now()
	if b.SyncEach {
		// measure abandons the call if it outlasts the kernel timeout.
		err := b.queue.EnqueueFinishRepeat(b.kernel, b.Global, b.Local, nil, k)
		if err != nil {
			b.queue.Finish()
			return measure.Batch{}, fmt.Errorf("kernel %s: %w", b.Kernel, err)
		}
		batch := measure.Batch{Host: time.Since(start)}
		return batch, b.checkGuards()
	}
	if err := b.queue.EnqueueNDRangeRepeat(b.kernel, b.Global, b.Local, nil, k); err != nil {
		b.queue.Finish()
		return measure.Batch{}, fmt.Errorf("kernel %s: %w", b.Kernel, err)
	}
	if err := b.finish(ctx); err != nil {
		return measure.Batch{}, fmt.Errorf("kernel %s: %w", b.Kernel, err)
	}
	batch := measure.Batch{Host: time.Since(start)}
	return batch, b.checkGuards()
}

// deviceTimes adds to batch the device times of its launches' events: the
// span from the first START to the last END and, when every launch has an
// event, the sum of their busy times (-1 when the device timer ran
// backwards). Without profiling data the batch keeps host times only (the
// engine falls back to the host timer).
func deviceTimes(batch measure.Batch, events []*cl.Event, every bool) measure.Batch {
	first, err := events[0].Profile()
	if err != nil {
		return batch
	}
	last, err := events[len(events)-1].Profile()
	if err != nil {
		return batch
	}
	// Signed differences: a device timer that runs backwards gives a negative
	// span, which measure.CheckTimer refuses.
	batch.Device = time.Duration(int64(last.End - first.Start))
	backwards := false
	if every {
		for _, ev := range events {
			if p, err := ev.Profile(); err == nil {
				d := time.Duration(int64(p.End - p.Start))
				backwards = backwards || d < 0
				batch.DeviceBusy += d
			}
		}
	} else {
		for _, p := range []cl.Profile{first, last} {
			backwards = backwards || int64(p.End-p.Start) < 0
		}
	}
	if backwards {
		batch.DeviceBusy = -1
	}
	return batch
}

// ErrKernelTimeout is wrapped by the error of a wait for the device that
// outlasted measure.Settings.KernelTimeout (it is measure.ErrKernelTimeout).
var ErrKernelTimeout = measure.ErrKernelTimeout

// finish waits for the queue on the calling goroutine (a hand-off to another
// goroutine would add its wake-up latency to every round trip). measure runs
// each call into the benchmark under a watchdog: a wait that outlasts the
// kernel timeout, or the grace period after a cancellation, is abandoned.
func (b *KernelBenchmark) finish(ctx context.Context) error {
	return b.queue.Finish()
}

// Abandon is called by measure when it stopped waiting for a call that the
// device has not finished: the device's queue is still busy, so Teardown is not
// called and the Manager does not release the device's context and queue.
func (b *KernelBenchmark) Abandon() {
	b.abandoned.Store(true)
	b.Device.MarkBusy()
}

// Teardown releases the kernel, program and buffers (the device's context and
// queue stay with the Manager).
func (b *KernelBenchmark) Teardown() error {
	if b.abandoned.Load() {
		return nil // the device is still busy: waiting for it would hang
	}
	if b.queue != nil {
		b.queue.Finish()
	}
	b.givePooled() // or released, when the device keeps none
	b.flush.Release()
	b.kernel.Release()
	b.Program.Release()
	b.bufs, b.inputs, b.outHost, b.flush, b.kernel, b.Program = nil, nil, nil, nil, nil, nil
	b.st, b.genTime, b.touchTime = stager{}, 0, 0
	b.guards, b.guardsChecked = nil, false
	return nil
}
