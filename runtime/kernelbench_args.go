package runtime

import (
	"context"
	"fmt"
	"math"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime/cl"
)

// checkArgTypes compares each argument with what the kernel declares (when
// the driver tells: clGetKernelArgInfo).
func (b *KernelBenchmark) checkArgTypes() error {
	for i, a := range b.Args {
		if a.Kind == ArgImage2D {
			continue
		}
		ai, err := b.kernel.ArgInfo(i)
		if err != nil || ai.AddressSpace == "" {
			return nil // the driver keeps no argument info: nothing to check
		}
		declared := ai.TypeName
		if ai.AddressSpace != "private" {
			declared = "__" + ai.AddressSpace + " " + declared
		}
		given := map[ArgKind]string{ArgBuffer: "a buffer", ArgLocal: "local memory", ArgScalar: "a value"}[a.Kind]
		if a.Type != "" {
			given += " of " + a.Type
		}
		want := map[string]ArgKind{"global": ArgBuffer, "constant": ArgBuffer, "local": ArgLocal, "private": ArgScalar}[ai.AddressSpace]
		bad := want != a.Kind
		if !bad && a.Kind == ArgScalar && a.Type != "" && knownType(ai.TypeName) {
			bad = normType(ai.TypeName) != normType(a.Type)
		}
		if bad {
			name := ""
			if ai.Name != "" {
				name = " (" + ai.Name + ")"
			}
			return fmt.Errorf("argument %d%s of kernel %s is %s, but --arg %q gives %s: match the kernel's declaration", i, name, b.Kernel, declared, a.Name, given)
		}
	}
	return nil
}

// normType spells an OpenCL C type one way ("unsigned int" is "uint").
func normType(t string) string {
	t = strings.TrimSpace(t)
	for _, p := range [][2]string{{"unsigned char", "uchar"}, {"unsigned short", "ushort"}, {"unsigned int", "uint"}, {"unsigned long", "ulong"}, {"unsigned", "uint"}} {
		if strings.HasPrefix(t, p[0]) {
			t = p[1] + t[len(p[0]):]
		}
	}
	return t
}

// knownType reports whether t is a built-in scalar or vector type (a typedef
// or struct is not checked).
func knownType(t string) bool {
	t = normType(t)
	base := strings.TrimRight(t, "0123456789")
	switch base {
	case "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double":
	default:
		return false
	}
	switch t[len(base):] {
	case "", "2", "3", "4", "8", "16":
		return true
	}
	return false
}

func (a Arg) label(i int) string {
	if a.Name != "" {
		return fmt.Sprintf("%d (%s)", i, a.Name)
	}
	return fmt.Sprint(i)
}

// checkSizes refuses, before anything is allocated, what the device cannot do.
func (b *KernelBenchmark) checkSizes() error {
	in := b.Device.Info
	for i, a := range b.Args {
		if a.Kind == ArgBuffer {
			if a.Bytes <= 0 {
				return fmt.Errorf("buffer %s: size must be positive, got %d bytes", a.label(i), a.Bytes)
			}
			if in.MaxAllocBytes > 0 && a.Bytes > in.MaxAllocBytes {
				return fmt.Errorf("buffer %s is %s, over the device's largest allocation of %s (CL_DEVICE_MAX_MEM_ALLOC_SIZE): use a smaller size", a.label(i), humanSize(a.Bytes), humanSize(in.MaxAllocBytes))
			}
		}
		if a.Kind == ArgLocal && in.LocalMemBytes > 0 && a.Bytes > in.LocalMemBytes {
			return fmt.Errorf("local memory argument %s is %s, over the device's %s", a.label(i), humanSize(a.Bytes), humanSize(in.LocalMemBytes))
		}
	}
	if len(b.Global) < 1 || len(b.Global) > 3 {
		return fmt.Errorf("global size needs 1 to 3 dimensions, got %d", len(b.Global))
	}
	if b.Local != nil && len(b.Local) != len(b.Global) {
		return fmt.Errorf("local size %v has %d dimensions, global size %v has %d", b.Local, len(b.Local), b.Global, len(b.Global))
	}
	total, items := 1, 1
	for d, g := range b.Global {
		if g <= 0 {
			return fmt.Errorf("global size %v: every dimension must be positive", b.Global)
		}
		if items > math.MaxInt64/g {
			return fmt.Errorf("global size %v overflows a 64-bit count of work-items: use a smaller size", b.Global)
		}
		items *= g
		if b.Local == nil {
			continue
		}
		l := b.Local[d]
		if l <= 0 {
			return fmt.Errorf("local size %v: every dimension must be positive", b.Local)
		}
		if g%l != 0 {
			return fmt.Errorf("global size %d is not a multiple of local size %d in dimension %d: round the global size up to a multiple", g, l, d)
		}
		if d < len(in.MaxWorkItemSizes) && l > in.MaxWorkItemSizes[d] {
			return fmt.Errorf("local size %d in dimension %d is over the device's maximum of %d", l, d, in.MaxWorkItemSizes[d])
		}
		total *= l
	}
	if b.Local != nil && in.MaxWorkGroupSize > 0 && total > in.MaxWorkGroupSize {
		return fmt.Errorf("local size %v makes work-groups of %d items, over the device's maximum of %d", b.Local, total, in.MaxWorkGroupSize)
	}
	return nil
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// A Tracer receives what a KernelBenchmark does, for a timeline of host calls
// against device execution. Calls come from the goroutine running the benchmark.
type Tracer interface {
	// Host records a host call (an enqueue, a finish, a build) from start to end.
	Host(name string, start, end time.Time)
	// Device records a device command (category "kernel" or "transfer") with its
	// profiling timestamps, in device-timer nanoseconds.
	Device(name, category string, p cl.Profile)
}

// Measurable returns the benchmark as measure.Run takes it: a measure.Benchmark
// and measure.Flusher that is also a measure.Phased when the kernel has buffer
// arguments and a measure.Validator when Check is set.
//
// With NoPhases it is never a measure.Phased.
func (b *KernelBenchmark) Measurable() measure.Benchmark {
	hasBuf := false
	for _, a := range b.Args {
		hasBuf = hasBuf || (a.Kind == ArgBuffer && !b.NoPhases)
	}
	base := kbPlain{b}
	switch {
	case hasBuf && b.Check != nil:
		return kbBoth{base}
	case hasBuf:
		return kbPhased{base}
	case b.Check != nil:
		return kbValid{base}
	}
	return base
}

type kbPlain struct{ b *KernelBenchmark }

func (p kbPlain) Setup(ctx context.Context) (measure.SetupInfo, error) { return p.b.Setup(ctx) }

func (p kbPlain) Launch(ctx context.Context, k int) (measure.Batch, error) {
	return p.b.Launch(ctx, k)
}

func (p kbPlain) Teardown() error { return p.b.Teardown() }

func (p kbPlain) Abandon() { p.b.Abandon() }

func (p kbPlain) Flush(ctx context.Context) error { return p.b.Flush(ctx) }

type kbPhased struct{ kbPlain }

func (p kbPhased) RunPhases(ctx context.Context) (measure.Phases, error) { return p.b.RunPhases(ctx) }

type kbValid struct{ kbPlain }

func (p kbValid) Validate(ctx context.Context) error { return p.b.Validate(ctx) }

type kbBoth struct{ kbPlain }

func (p kbBoth) RunPhases(ctx context.Context) (measure.Phases, error) { return p.b.RunPhases(ctx) }

func (p kbBoth) Validate(ctx context.Context) error { return p.b.Validate(ctx) }

// populateChunk is the span one worker asks the kernel to back with memory at
// a time (hostBuffer).
const populateChunk = 8 << 20

// hostBuffer returns n zero bytes of host memory for a benchmark's input, its
// pages already backed (where the system can: populate), on every core. Fresh
// memory is paid for page by page on first touch, one fault each: on a VM
// that backs guest memory on first touch that can be most of the "host data"
// time (docs/OWNCOST.md). Asking the kernel for a range at once costs half of that or less, and
// the fill that follows then runs at the generator's speed (docs/OWNCOST.md).
func hostBuffer(n int64) []byte {
	b := make([]byte, n)
	if n < 2*populateChunk {
		return b
	}
	parallelSpans(n, populateChunk, func(lo, hi int64) { Populate(b[lo:hi]) })
	return b
}

// parallelSpans calls f over [0, n) in spans of chunk bytes, on every core.
func parallelSpans(n, chunk int64, f func(lo, hi int64)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(goruntime.GOMAXPROCS(0), int((n+chunk-1)/chunk))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n {
					return
				}
				f(lo, min(n, lo+chunk))
			}
		}()
	}
	wg.Wait()
}

// regen reports whether the argument is an input written by running Init
// into the mapped buffer, with no host copy (Arg.Regen).
func (a Arg) regen() bool {
	return a.Kind == ArgBuffer && a.Regen && a.Init != nil && len(a.Fill) == 0
}

// lean reports whether the benchmark keeps no host copy of a whole buffer
// (its zero buffers are filled on the device, the phases stage pieces,
// Validate maps the outputs): when some input is regenerated or filled on
// the device (Arg.Fill), or when every buffer starts zero (a user's kernel
// that only writes).
func (b *KernelBenchmark) lean() bool {
	bufs, zero := 0, 0
	for _, a := range b.Args {
		if a.regen() || a.Kind == ArgBuffer && len(a.Fill) > 0 {
			return true
		}
		if a.Kind == ArgBuffer {
			bufs++
			if a.Init == nil {
				zero++
			}
		}
	}
	return bufs > 0 && zero == bufs
}

// noHostCopy reports whether buffer a has no host copy: a regenerated input,
// or, in a lean benchmark, a buffer that starts zero (filled on the device).
func (b *KernelBenchmark) noHostCopy(a Arg) bool {
	return a.regen() || a.Kind == ArgBuffer && a.Init == nil && len(a.Fill) == 0 && b.lean()
}

// writeNoCopy writes buffer i, which has no host copy: Init into the mapped
// buffer, or zeros filled on the device.
func (b *KernelBenchmark) writeNoCopy(i int) error {
	t, label := time.Now(), b.Args[i].label(i)
	if b.Args[i].regen() {
		err := b.mapFill(i)
		if b.Tracer != nil {
			b.Tracer.Host("map, fill and unmap "+label, t, time.Now())
		}
		return err
	}
	ev, err := b.queue.EnqueueFillBuffer(b.bufs[i], []byte{0}, 0, b.Args[i].Bytes)
	if err == nil {
		err = ev.Wait()
		if b.Tracer != nil {
			b.Tracer.Host("clEnqueueFillBuffer "+label, t, time.Now())
			if p, perr := ev.Profile(); perr == nil {
				b.Tracer.Device("zero "+label, "transfer", p)
			}
		}
		ev.Release()
	}
	if err != nil {
		return fmt.Errorf("zeroing buffer %s: %w", label, err)
	}
	return nil
}

// mapFill writes input i by running its Init straight into the mapped buffer
// (on a device sharing host memory, the buffer itself) and adds Init's time
// to genTime (host data, not upload).
func (b *KernelBenchmark) mapFill(i int) error {
	a := b.Args[i]
	return b.mapWrite(i, func(data []byte) {
		t := time.Now()
		if a.Bytes >= 2*populateChunk {
			// Fresh device memory is backed page by page on first touch; a
			// range at once costs less (hostBuffer). Where device memory is
			// host memory, that is the buffer's first touch.
			parallelSpans(a.Bytes, populateChunk, func(lo, hi int64) { Populate(data[lo:hi]) })
			if b.Device.HostMemoryBuffers() {
				b.touchTime += time.Since(t)
			}
		}
		a.Init(data)
		b.genTime += time.Since(t)
	})
}

// mapWrite maps buffer i for writing (the driver's copy of its old content is
// skipped), has write fill the whole mapping, and unmaps it.
func (b *KernelBenchmark) mapWrite(i int, write func(data []byte)) error {
	a := b.Args[i]
	m, ev, err := b.queue.EnqueueMapBuffer(b.bufs[i], true, cl.MapWriteInvalidate, 0, a.Bytes)
	if err != nil {
		return fmt.Errorf("mapping buffer %s: %w", a.label(i), err)
	}
	ev.Release()
	write(m.Bytes())
	if ev, err = b.queue.EnqueueUnmap(m); err == nil {
		err = ev.Wait()
		ev.Release()
	}
	if err != nil {
		return fmt.Errorf("unmapping buffer %s: %w", a.label(i), err)
	}
	return nil
}

// mapOutputs maps every output buffer for reading, for a lean benchmark's
// check (on a device sharing host memory, no copy), and returns a function
// that unmaps them.
func (b *KernelBenchmark) mapOutputs() (map[int][]byte, func(), error) {
	out := map[int][]byte{}
	var maps []*cl.Mapping
	unmap := func() {
		for _, m := range maps {
			if ev, err := b.queue.EnqueueUnmap(m); err == nil {
				ev.Release()
			}
		}
		b.queue.Finish()
	}
	for i, a := range b.Args {
		if a.Kind != ArgBuffer || !a.Output {
			continue
		}
		m, ev, err := b.queue.EnqueueMapBuffer(b.bufs[i], true, cl.MapRead, 0, a.Bytes)
		if err != nil {
			unmap()
			return nil, nil, fmt.Errorf("mapping buffer %s: %w", a.label(i), err)
		}
		ev.Release()
		maps = append(maps, m)
		out[i] = m.Bytes()
	}
	return out, unmap, nil
}

// makeImage makes image argument i: from its host copy, or, with InitAt, empty
// (or taken from the device's pool, ReuseBuffers) and then written in pieces
// of rows (at most stageBytes of host memory).
func (b *KernelBenchmark) makeImage(c *cl.Context, i int) (*cl.Buffer, error) {
	a := b.Args[i]
	if a.InitAt == nil {
		return c.CreateImage2DFloat4(a.Width, a.Height, b.inputs[i])
	}
	img := b.pooled(i)
	if img == nil {
		var err error
		if img, err = c.CreateImage2DFloat4(a.Width, a.Height, nil); err != nil {
			return nil, err
		}
	}
	row := int64(a.Width) * 16
	rows := max(1, min(int64(a.Height), stageBytes/row))
	piece := hostBuffer(rows * row)
	for y := int64(0); y < int64(a.Height); y += rows {
		p := piece[:min(rows, int64(a.Height)-y)*row]
		a.InitAt(p, y*row)
		if err := b.queue.EnqueueWriteImageRows(img, a.Width, int(y), p); err != nil {
			img.Release()
			return nil, err
		}
	}
	return img, nil
}

// ParallelSpans calls f over [0, n) in spans of chunk, on every core, and
// returns when all are done (host data fills).
func ParallelSpans(n, chunk int64, f func(lo, hi int64)) { parallelSpans(n, chunk, f) }

// buildOptions are the program's build options: b.Options, with
// -cl-kernel-arg-info when checkArgs. Argument types are checked only where
// there are arguments: NVIDIA's compiler fails on -cl-kernel-arg-info for a
// kernel without any (ptxas "Parsing error near '}'"), and a driver that
// fails the option otherwise gets a build without it and no check (build).
func (b *KernelBenchmark) buildOptions() (opts string, checkArgs bool) {
	checkArgs = b.CheckArgTypes && len(b.Args) > 0
	opts = b.Options
	if checkArgs {
		opts = strings.TrimSpace(opts + " -cl-kernel-arg-info")
	}
	return opts, checkArgs
}
