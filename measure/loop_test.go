package measure

import (
	"context"
	goruntime "runtime"
	"strings"
	"testing"
)

// loopBench notes, for every Launch, whether the timed loop's one job is on
// the stack (runLoop's closure on the worker) rather than a job of its own.
type loopBench struct {
	*fakeBench
	inLoop, alone int
}

func (b *loopBench) Launch(ctx context.Context, k int) (Batch, error) {
	pc := make([]uintptr, 64)
	frames := goruntime.CallersFrames(pc[:goruntime.Callers(1, pc)])
	loop := false
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "measure.(*engine).runLoop") {
			loop = true
		}
		if !more {
			break
		}
	}
	if loop {
		b.inLoop++
	} else {
		b.alone++
	}
	return b.fakeBench.Launch(ctx, k)
}

// The warm-up and the samples are one job on the worker, however many
// batches they take: nothing is handed between goroutines from one batch to
// the next. Only the cold run is a call of its own.
func TestBatchesRunInOneJob(t *testing.T) {
	f, s := newFake(constant(5 * us))
	s.Samples = 30
	b := &loopBench{fakeBench: f}
	r := mustRun(t, b, s)
	if len(r.Samples) != 30 {
		t.Fatalf("%d samples", len(r.Samples))
	}
	if b.alone != 1 || b.inLoop < 30 {
		t.Errorf("%d launches in the loop's job, %d in jobs of their own: want every one but the cold run in the loop", b.inLoop, b.alone)
	}
}
