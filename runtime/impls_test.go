package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/impls"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime/cl"
)

// TestTimerEveryImplementation checks, on every installed implementation, the
// timer each device gets (Rusticl on llvmpipe reads 0-1 ns for any launch, so
// its figures must come from the host clock), the quirks read from the device,
// and that a stuck kernel is abandoned on Ctrl-C without hanging the process.
func TestTimerEveryImplementation(t *testing.T) {
	impls.Each(t, 5*time.Minute, func(t *testing.T, im impls.Impl) {
		m := NewManager()
		defer m.Close()
		devs, err := m.Select("")
		if err != nil {
			t.Fatal(err)
		}
		dev := devs[0]
		t.Logf("%s: device %s, %s, timer resolution %v", im.Label, dev.Label(), dev.Info.Version, dev.Info.TimerResolution)
		v, err := CheckDeviceTimer(context.Background(), dev)
		if err != nil {
			t.Fatalf("timer check: %v", err)
		}
		t.Logf("%s: timer %s %q, check %+v; quirks %q", im.Label, v.Timer, v.Note, v.Check, dev.Quirks())
		want := measure.TimerDevice
		if im.Name == "rusticl" {
			want = measure.TimerHost
		}
		if v.Timer != want || (want == measure.TimerHost) != (v.Note != "") || v.Check == nil {
			t.Errorf("%s: timer %s, note %q, check %+v; want the %s timer", im.Label, v.Timer, v.Note, v.Check, want)
		}
		quirks := strings.Join(dev.Quirks(), "; ")
		switch im.Name {
		case "oclgrind":
			if !strings.Contains(quirks, "OpenCL 1.2 device: queues come from clCreateCommandQueue") {
				t.Errorf("oclgrind quirks: %s", quirks)
			}
		case "rusticl":
			if !strings.Contains(quirks, "no fp64") || !strings.Contains(quirks, "no resolution") {
				t.Errorf("rusticl quirks: %s", quirks)
			}
		}

		t.Run("StuckKernelAbandoned", func(t *testing.T) { stuckKernel(t, m, dev) })
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
