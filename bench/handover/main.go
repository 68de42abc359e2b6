// Command handover measures, inside one process, what handing each batch of
// launches to the driver thread as a job of its own costs against running
// batches back to back in one job (docs/OWNCOST.md, sixth pass): batches of
// the launch suite's empty kernel alternate between the two ways on one
// locked OS thread, and it prints the median of each and their ratio.
//
//	go run ./bench/handover [-device cpu] [-mode dispatch|round-trip|throughput] [-pairs 20]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	goruntime "runtime"
	"slices"
	"time"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/units"
)

func main() {
	device := flag.String("device", "", "device (clmeter's --device grammar; default: clmeter's default)")
	mode := flag.String("mode", clkernels.LaunchDispatch, "launch mode: dispatch, round-trip or throughput")
	pairs := flag.Int("pairs", 20, "rounds; each has two batches handed over one by one and two in one job")
	batch := flag.Duration("batch", 20*time.Millisecond, "the length of a batch")
	flag.Parse()
	if err := run(*device, *mode, *pairs, *batch); err != nil {
		fmt.Fprintln(os.Stderr, "handover:", err)
		os.Exit(1)
	}
}

func run(device, mode string, pairs int, batchLen time.Duration) error {
	m := runtime.NewManager()
	defer m.Close()
	devs, err := m.Select(device)
	if err != nil {
		return err
	}
	b, err := clkernels.NewLaunchBenchmark(devs[0], mode)
	if err != nil {
		return err
	}
	th := startThread()
	defer th.stop()
	call := th.call
	ctx := context.Background()
	if err := call(func() error { _, err := b.Setup(ctx); return err }); err != nil {
		return err
	}
	defer call(b.Teardown)
	figure := func(bt measure.Batch, k int) time.Duration {
		if b.Timer() == measure.TimerDevice {
			return bt.Device / time.Duration(k)
		}
		return bt.Host / time.Duration(k)
	}
	k, err := sizeBatch(ctx, call, b, batchLen)
	if err != nil {
		return err
	}
	var handed, oneJob []time.Duration
	for range pairs {
		for range 2 {
			var bt measure.Batch
			if err := call(func() (err error) { bt, err = b.Launch(ctx, k); return }); err != nil {
				return err
			}
			handed = append(handed, figure(bt, k))
		}
		var x, y measure.Batch
		if err := call(func() (err error) {
			if x, err = b.Launch(ctx, k); err != nil {
				return err
			}
			y, err = b.Launch(ctx, k)
			return err
		}); err != nil {
			return err
		}
		oneJob = append(oneJob, figure(x, k), figure(y, k))
	}
	mh, mo := median(handed), median(oneJob)
	fmt.Printf("%s on %s, %d launches a batch, %d batches each way: a job a batch %s, batches in one job %s, ratio %.3f\n",
		mode, devs[0].Info.Name, k, len(handed), units.Duration(mh), units.Duration(mo), float64(mh)/float64(mo))
	return nil
}

// thread is the driver thread: one locked goroutine serving jobs, as
// measure's.
type thread struct{ jobs chan func() }

// startThread starts the driver thread; stop ends it.
func startThread() *thread {
	t := &thread{jobs: make(chan func())}
	go func() {
		goruntime.LockOSThread()
		for j := range t.jobs {
			j()
		}
	}()
	return t
}

func (t *thread) stop() { close(t.jobs) }

// call hands f to the thread and waits in a select with a timer, as
// measure's call did for every batch before runLoop.
func (t *thread) call(f func() error) error {
	done := make(chan error, 1)
	t.jobs <- func() { done <- f() }
	timer := time.NewTimer(time.Minute)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return fmt.Errorf("a batch took over a minute")
	}
}

// sizeBatch returns the number of launches in a batch: it grows until one
// lasts batchLen on the host clock.
func sizeBatch(ctx context.Context, call func(func() error) error, b *clkernels.LaunchBenchmark, batchLen time.Duration) (int, error) {
	k := 1
	for {
		var bt measure.Batch
		if err := call(func() (err error) { bt, err = b.Launch(ctx, k); return }); err != nil {
			return 0, err
		}
		if bt.Host >= batchLen || k >= 1<<22 {
			return k, nil
		}
		k = min(k*2, 1<<22)
	}
}

func median(v []time.Duration) time.Duration {
	f := make([]float64, len(v))
	for i, d := range v {
		f[i] = float64(d)
	}
	slices.Sort(f)
	return time.Duration(measure.MedianSorted(f))
}
