package measure

import (
	"context"
	goruntime "runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"
)

// tidBench records the OS thread of every call the engine makes into it.
type tidBench struct {
	*fakeBench
	tids map[int]int
}

func (b *tidBench) note() { b.tids[syscall.Gettid()]++ }

func (b *tidBench) Setup(ctx context.Context) (SetupInfo, error) {
	b.note()
	return b.fakeBench.Setup(ctx)
}

func (b *tidBench) Launch(ctx context.Context, k int) (Batch, error) {
	b.note()
	// A wait in the driver: the goroutine parks and may wake on another thread.
	time.Sleep(20 * time.Microsecond)
	b.note()
	return b.fakeBench.Launch(ctx, k)
}

// Every call of a Run (set-up, cold run, warm-up, samples) comes from one OS
// thread, as in a C loop.
func TestCallsOnOneThread(t *testing.T) {
	f, s := newFake(constant(5 * us))
	s.MinSamples, s.MaxNoise = 50, 1e-9
	b := &tidBench{fakeBench: f, tids: map[int]int{}}
	stop := make(chan struct{})
	defer close(stop)
	for range 4 { // other goroutines keep the scheduler's threads busy
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
					goruntime.Gosched()
				}
			}
		}()
	}
	r := mustRun(t, b, s)
	if len(r.Samples) == 0 {
		t.Fatal("no samples")
	}
	if len(b.tids) != 1 {
		t.Errorf("calls came from %d OS threads %v, want one", len(b.tids), b.tids)
	}
}

// The collector is off in the timed loop and back as it was after Run;
// nested pauses resume it only at the last.
func TestGCPausedInTimedLoop(t *testing.T) {
	before := debug.SetGCPercent(-1)
	debug.SetGCPercent(before)
	f, s := newFake(constant(5 * us))
	var during []int
	f.onLaunch = func(int) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		during = append(during, p)
	}
	mustRun(t, f, s)
	if len(during) < 3 || during[len(during)-1] != -1 || during[0] != before {
		t.Errorf("GC percent during launches %v: want %d at the cold run, -1 in the timed loop", during, before)
	}
	if p := debug.SetGCPercent(before); p != before {
		t.Errorf("GC percent after Run %d, want %d", p, before)
	}
	outer, _ := gc.enter(context.Background())
	inner, _ := gc.enter(context.Background())
	inner()
	inner()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent %d after the inner resume, want -1 until the outer one", p)
	}
	outer()
	if p := debug.SetGCPercent(before); p != before {
		t.Errorf("GC percent %d after both resumes, want %d", p, before)
	}
}
