package cl

import (
	"os"
	"os/exec"
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
// fails this; so does a second preparation in a process (a driver thread that
// replaced a stuck one) that finds glibc's mmap threshold already fixed.
//
// The check runs in a process of its own, as the driver thread's preparation
// does at start: the package's other tests leave freed blocks in the arenas
// (whose pages malloc_trim may have dropped) that the allocations would reuse.
func TestPrepareHeap(t *testing.T) {
	if os.Getenv("CLMETER_PREPARE_HEAP_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPrepareHeap$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "CLMETER_PREPARE_HEAP_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the check in its own process: %v\n%s", err, out)
		}
		t.Logf("%s", out)
		return
	}
	for round := 1; round <= 2; round++ {
		done := make(chan struct{})
		go func() {
			defer close(done)
			goruntime.LockOSThread() // ends with the goroutine: the thread is not reused
			if !PrepareHeap(4 << 20) {
				t.Log("the pages were touched one by one (no MADV_POPULATE_WRITE)")
			}
			before := threadFaults(t)
			touchHeap(2 << 20)
			n := threadFaults(t) - before
			if n > 64 {
				t.Errorf("preparation %d: 2 MiB of allocations after PrepareHeap(4 MiB) took %d page faults, want at most 64 (512 pages)", round, n)
			} else {
				t.Logf("preparation %d: %d page faults", round, n)
			}
		}()
		<-done
	}
}
