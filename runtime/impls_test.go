package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/impls"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime/cl"
)

// TestStuckKernelEveryImplementation checks, on every installed
// implementation, that a stuck kernel is abandoned on Ctrl-C without hanging
// the process.
func TestStuckKernelEveryImplementation(t *testing.T) {
	impls.Each(t, 5*time.Minute, func(t *testing.T, im impls.Impl) {
		m := NewManager()
		defer m.Close()
		devs, err := m.Select("")
		if err != nil {
			t.Fatal(err)
		}
		stuckKernel(t, m, devs[0])
	})
}

// stuckBench is a KernelBenchmark whose launches wait behind a user event that
// never completes: the queue is stuck on every implementation, whatever its
// compiler does with endless loops (llvmpipe cuts long loops short).
type stuckBench struct {
	kbPlain
	gate    *cl.Event
	waiting chan struct{} // closed when the first launch waits
}

func (s stuckBench) Launch(ctx context.Context, k int) (measure.Batch, error) {
	b := s.b
	ev, err := b.queue.EnqueueNDRange(b.kernel, b.Global, b.Local, nil, s.gate)
	if err != nil {
		return measure.Batch{}, err
	}
	defer ev.Release()
	close(s.waiting)
	return measure.Batch{}, b.finish(ctx)
}

// stuckKernel cancels while the device is stuck and expects measure to abandon
// the wait after its grace period: the device is marked busy, Teardown is
// skipped and Close leaves the device alone instead of waiting for ever.
func stuckKernel(t *testing.T, m *Manager, dev *Device) {
	kb := &KernelBenchmark{
		Device: dev, Kernel: "one", Global: []int{1},
		Source: Source{Name: "one.cl", Text: `__kernel void one(__global int *x) { x[0] = 1; }`},
		Args:   []Arg{{Kind: ArgBuffer, Name: "x", Bytes: 4}},
	}
	c, _, err := dev.Context()
	if err != nil {
		t.Fatal(err)
	}
	gate, err := c.CreateUserEvent()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waiting := make(chan struct{})
	go func() {
		<-waiting
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	res, err := measure.Run(ctx, stuckBench{kbPlain{kb}, gate, waiting}, measure.Settings{Grace: 300 * time.Millisecond})
	if !errors.Is(err, context.Canceled) || !errors.Is(err, measure.ErrAbandoned) || res == nil || !res.Abandoned {
		t.Errorf("err %v, result %+v: want canceled and abandoned", err, res)
	}
	if !dev.Busy() {
		t.Error("the device is not marked busy after an abandoned wait")
	}
	// Let the queue drain so the process can end cleanly.
	gate.Complete()
}
