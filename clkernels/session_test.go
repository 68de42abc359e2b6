package clkernels

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime"
)

// threadBench records the OS thread of each launch, and holds its first
// launch until the other device's benchmark is launching too (or a minute
// passed): the two devices' measurements run at once.
type threadBench struct {
	measure.Benchmark
	mu      sync.Mutex
	tids    map[int]int
	first   bool
	mine    chan struct{} // closed at this benchmark's first launch
	other   chan struct{} // the other's
	overlap bool          // the other was launching during a launch of this one
}

func (b *threadBench) Launch(ctx context.Context, k int) (measure.Batch, error) {
	b.mu.Lock()
	b.tids[syscall.Gettid()]++
	if !b.first {
		b.first = true
		close(b.mine)
		select {
		case <-b.other:
			b.overlap = true
		case <-time.After(time.Minute):
		}
	}
	b.mu.Unlock()
	return b.Benchmark.Launch(ctx, k)
}

// Two identical devices measured at once by two goroutines, as one worker a
// device does: their working-set probes and launch benchmarks run at once,
// each device's calls come from its own driver thread, and what each measured
// (working sets, the launch race's local size) is kept on its own session.
// Run under -race.
func TestTwoDevicesAtOnce(t *testing.T) {
	a, b, ok := devtest.Pair(t)
	if !ok {
		return
	}
	devs := []*runtime.Device{a, b}
	ready := []chan struct{}{make(chan struct{}), make(chan struct{})}
	benches := make([]*threadBench, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, dev := range devs {
		benches[i] = &threadBench{tids: map[int]int{}, mine: ready[i], other: ready[1-i]}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = measureOn(dev, benches[i])
		}()
	}
	wg.Wait()
	for i, dev := range devs {
		if errs[i] != nil {
			t.Fatalf("device %s: %v", dev.Label(), errs[i])
		}
		if len(found(dev)) != 1 {
			t.Errorf("device %s holds %d working sets, want its own one", dev.Label(), len(found(dev)))
		}
		if _, ok := localChoices.Get(dev, struct{}{}); !ok {
			t.Errorf("device %s holds no local-size verdict", dev.Label())
		}
		if !benches[i].overlap {
			t.Errorf("device %s: its launches never ran while the other device's did", dev.Label())
		}
		if len(benches[i].tids) != 1 {
			t.Errorf("device %s: launches from %d threads %v, want its one driver thread", dev.Label(), len(benches[i].tids), benches[i].tids)
		}
		// Its driver thread is the one its launches came from.
		w := dev.DriverThread().Acquire()
		c := make(chan int)
		w.Do(func() { c <- syscall.Gettid() })
		if id := <-c; benches[i].tids[id] == 0 {
			t.Errorf("device %s: launches on %v, its driver thread is %d", dev.Label(), benches[i].tids, id)
		}
		w.Release()
	}
	for id := range benches[0].tids {
		if benches[1].tids[id] > 0 {
			t.Errorf("both devices launched from thread %d", id)
		}
	}
}

// measureOn probes dev's working set within 64 MiB and measures its launch
// overhead (the race of local sizes included), wrapped in tb.
func measureOn(dev *runtime.Device, tb *threadBench) error {
	ctx := context.Background()
	if _, err := WorkingSet(ctx, dev, Budget(dev, 64<<20)); err != nil {
		return err
	}
	_, err := harness.Measure(ctx, harness.Item{Name: "launch", Device: dev, Settings: tiny,
		Make: func() (harness.Bench, error) {
			lb, err := NewLaunchBenchmark(dev, LaunchThroughput)
			return harness.Plain(lb, nil), err
		},
		Wrap: func(mb measure.Benchmark) measure.Benchmark { tb.Benchmark = mb; return tb }})
	return err
}
