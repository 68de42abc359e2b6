package devpool

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// tracker records which tasks run at once.
type tracker struct {
	mu      sync.Mutex
	running map[int]bool
	peak    int
	// with[i] are the tasks seen running beside task i.
	with map[int]map[int]bool
}

func newTracker() *tracker {
	return &tracker{running: map[int]bool{}, with: map[int]map[int]bool{}}
}

func (t *tracker) enter(i int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.running[i] = true
	t.peak = max(t.peak, len(t.running))
	for j := range t.running {
		if j == i {
			continue
		}
		if t.with[i] == nil {
			t.with[i] = map[int]bool{}
		}
		if t.with[j] == nil {
			t.with[j] = map[int]bool{}
		}
		t.with[i][j], t.with[j][i] = true, true
	}
}

func (t *tracker) leave(i int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.running, i)
}

// barrierWork makes the first n workers wait for each other, so that the
// test proves they ran at once (it hangs, and the test times out, if the
// pool ran them one after another).
func barrierWork(t *tracker, n int) func(context.Context, int) error {
	var wg sync.WaitGroup
	wg.Add(n)
	var mu sync.Mutex
	left := n
	return func(ctx context.Context, i int) error {
		t.enter(i)
		defer t.leave(i)
		mu.Lock()
		wait := left > 0
		if wait {
			left--
		}
		mu.Unlock()
		if wait {
			wg.Done()
			wg.Wait()
		}
		return nil
	}
}

func TestSharedTasksRunAtOnceAloneTasksAlone(t *testing.T) {
	tasks := []Task{{Label: "gpu0"}, {Label: "cpu", Alone: true}, {Label: "gpu1"}, {Label: "gpu2"}}
	tr := newTracker()
	errs := Run(context.Background(), tasks, Options{}, barrierWork(tr, 3))
	for i, err := range errs {
		if err != nil {
			t.Errorf("task %d: %v", i, err)
		}
	}
	if tr.peak != 3 {
		t.Errorf("at most %d ran at once, want the 3 GPUs", tr.peak)
	}
	if len(tr.with[1]) != 0 {
		t.Errorf("the CPU task ran beside %v, want alone", tr.with[1])
	}
	if got := Order(tasks); got[3] != 1 {
		t.Errorf("order %v: the CPU task should come last", got)
	}
}

func TestParallelBound(t *testing.T) {
	tasks := make([]Task, 6)
	for _, p := range []int{1, 2} {
		tr := newTracker()
		Run(context.Background(), tasks, Options{Parallel: p}, barrierWork(tr, p))
		if tr.peak != p {
			t.Errorf("--parallel %d: %d ran at once", p, tr.peak)
		}
	}
}

func TestFailureAndPanicStayInTheirWorker(t *testing.T) {
	tasks := []Task{{Label: "a"}, {Label: "b"}, {Label: "c"}}
	boom := errors.New("kernel timeout")
	var ended []int
	var mu sync.Mutex
	errs := Run(context.Background(), tasks, Options{Ended: func(i int, err error) {
		mu.Lock()
		ended = append(ended, i)
		mu.Unlock()
	}}, func(ctx context.Context, i int) error {
		switch i {
		case 0:
			return boom
		case 1:
			var m map[string]int
			m["x"] = 1 // a nil-map panic
		}
		return nil
	})
	if !errors.Is(errs[0], boom) {
		t.Errorf("task a: %v", errs[0])
	}
	var pe *PanicError
	if !errors.As(errs[1], &pe) || !strings.Contains(pe.Error(), "b: internal error") {
		t.Errorf("task b: %v", errs[1])
	}
	if errs[2] != nil {
		t.Errorf("task c: %v, want it finished", errs[2])
	}
	if len(ended) != 3 {
		t.Errorf("ended %v", ended)
	}
}

func TestCancelStartsNoMore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tasks := []Task{{Label: "a"}, {Label: "b"}, {Label: "cpu", Alone: true}}
	var ran []int
	errs := Run(ctx, tasks, Options{Parallel: 1}, func(ctx context.Context, i int) error {
		ran = append(ran, i)
		cancel()
		return ctx.Err()
	})
	if len(ran) != 1 {
		t.Fatalf("ran %v after the cancel, want only the first", ran)
	}
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("task %d: %v, want canceled", i, err)
		}
	}
}
