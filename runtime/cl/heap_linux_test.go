package cl

import (
	goruntime "runtime"
	"syscall"
	"testing"
)

// threadFaults is the calling thread's minor page faults so far.
func threadFaults(t *testing.T) int64 {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt
}

// After PrepareHeap, a driver's allocations of up to what it prepared on the
// same thread take their pages without a fault each: 2 MiB in 64 KiB blocks
// (512 pages) takes a few faults at most, where a fresh heap takes one a
// page. A preparation trimmed away at its free, or made on another arena,
// fails this.
func TestPrepareHeap(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		goruntime.LockOSThread() // ends with the goroutine: the thread is not reused
		if !PrepareHeap(4 << 20) {
			t.Log("the pages were touched one by one (no MADV_POPULATE_WRITE)")
		}
		before := threadFaults(t)
		touchHeap(2 << 20)
		if n := threadFaults(t) - before; n > 64 {
			t.Errorf("2 MiB of allocations after PrepareHeap(4 MiB) took %d page faults, want at most 64 (512 pages)", n)
		}
	}()
	<-done
}
