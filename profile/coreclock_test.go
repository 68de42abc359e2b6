package profile

import (
	"runtime"
	"testing"
)

// TestCoreClockMHz checks that the measured core clock is a clock a CPU can
// have (a broken chain gives 0 or tens of GHz).
func TestCoreClockMHz(t *testing.T) {
	mhz, ok := CoreClockMHz()
	if runtime.GOARCH != "amd64" {
		if ok {
			t.Fatalf("measured %d MHz where it cannot measure", mhz)
		}
		t.Skip("measured on amd64 only")
	}
	// The lower bound is loose: a loaded machine may interrupt every run.
	if !ok || mhz < 200 || mhz > 7000 {
		t.Fatalf("core clock %d MHz (ok %v): want 200-7000 MHz", mhz, ok)
	}
	t.Logf("core clock %d MHz", mhz)
}
