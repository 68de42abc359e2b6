package runtime

import (
	"context"
	"fmt"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime/cl"
	"github.com/clmeter/clmeter/sizing"
)

// RunPhases writes every buffer (copy-in), launches once (compute) and reads the
// output buffers (copy-out), with a finish between phases; each phase is timed on
// the host clock around its commands and the finish.
func (b *KernelBenchmark) RunPhases(ctx context.Context) (measure.Phases, error) {
	var ph measure.Phases
	b.st.prep = 0
	t0 := time.Now()
	for i := range b.bufs {
		if err := b.copyIn(i); err != nil {
			return ph, err
		}
	}
	if err := b.queue.Finish(); err != nil {
		return ph, err
	}
	t1 := time.Now()
	if err := b.queue.EnqueueNDRangeNoEvent(b.kernel, b.Global, b.Local, nil); err != nil {
		return ph, err
	}
	if err := b.finish(ctx); err != nil {
		return ph, fmt.Errorf("kernel %s: %w", b.Kernel, err)
	}
	t2 := time.Now()
	if err := b.checkGuards(); err != nil {
		return ph, err
	}
	guard := time.Since(t2) // the guards' check (once) is no phase's
	if err := b.copyOut(); err != nil {
		return ph, err
	}
	t3 := time.Now()
	// Refilling the staging buffer (stageFor) is no phase's either.
	prep := b.st.prep
	ph.CopyIn, ph.Compute, ph.CopyOut, ph.Total = t1.Sub(t0)-prep, t2.Sub(t1), t3.Sub(t2)-guard, t3.Sub(t0)-guard-prep
	return ph, nil
}

// readOutputs reads every output buffer back (for validation, and as the
// phases' copy-out, which its caller times); with a Tracer, each read's host
// span goes into the trace (timestamps for the timeline, no figure:
// internal/archcheck lists it).
func (b *KernelBenchmark) readOutputs() (map[int][]byte, error) {
	out := map[int][]byte{}
	for i, a := range b.Args {
		if a.Kind != ArgBuffer || !a.Output {
			continue
		}
		// One host buffer an output, kept across reads: a fresh one would
		// time the OS's first touch of its pages as copy-out (docs/OWNCOST.md
		// has the figures).
		data := b.outHost[i]
		if int64(len(data)) != a.Bytes {
			if b.outHost == nil {
				b.outHost = map[int][]byte{}
			}
			data = make([]byte, a.Bytes)
			b.outHost[i] = data
		}
		t := time.Now()
		ev, err := b.queue.EnqueueReadBuffer(b.bufs[i], true, 0, data)
		if err != nil {
			return nil, fmt.Errorf("reading buffer %s: %w", a.label(i), err)
		}
		if b.Tracer != nil {
			b.Tracer.Host("clEnqueueReadBuffer "+a.label(i), t, time.Now())
			if p, err := ev.Profile(); err == nil {
				b.Tracer.Device("read "+a.label(i), "transfer", p)
			}
		}
		ev.Release()
		out[i] = data
	}
	return out, nil
}

// Flush overwrites a buffer of twice the device's global memory cache (at least
// 64 MiB, at most one buffer of the memory budget, sizing.NewBudget) and waits: the next launch starts with
// cold caches.
func (b *KernelBenchmark) Flush(ctx context.Context) error {
	if b.flush == nil {
		in := b.Device.Info
		size := max(2*in.GlobalCacheBytes, 64<<20)
		budget := sizing.NewBudget(b.Device.SizingShape())
		size = min(size, budget.Buffer(1))
		buf, err := b.ctx.CreateBuffer(cl.MemReadWrite, size, nil)
		if err != nil {
			return fmt.Errorf("cache-flush buffer of %s: %w", humanSize(size), err)
		}
		b.flush, b.flushSz = buf, size
	}
	ev, err := b.queue.EnqueueFillBuffer(b.flush, []byte{0, 0, 0, 0}, 0, b.flushSz)
	if err != nil {
		return err
	}
	defer ev.Release()
	return b.queue.Finish()
}

// Validate rewrites the inputs, launches once, reads the outputs and checks them.
func (b *KernelBenchmark) Validate(ctx context.Context) error {
	if b.Check == nil {
		return nil
	}
	for i := range b.bufs {
		if err := b.upload(i); err != nil {
			return err
		}
	}
	if err := b.queue.EnqueueNDRangeNoEvent(b.kernel, b.Global, b.Local, nil); err != nil {
		return err
	}
	if err := b.finish(ctx); err != nil {
		return fmt.Errorf("kernel %s: %w", b.Kernel, err)
	}
	if err := b.checkGuards(); err != nil {
		return err
	}
	if b.lean() {
		out, unmap, err := b.mapOutputs()
		if err != nil {
			return err
		}
		defer unmap()
		return b.Check(b.inputs, out)
	}
	out, err := b.readOutputs()
	if err != nil {
		return err
	}
	return b.Check(b.inputs, out)
}
