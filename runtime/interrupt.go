package runtime

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/clmeter/clmeter/runtime/cl"
)

// Stderr is the process's standard error as it was at start, for the
// command's own messages: unlike os.Stderr (fd 2), it is never the capture of
// a compiler's output that a build still running in the driver holds (see
// cl.Stderr), so a message at an interrupt is never lost.
func Stderr() *os.File { return cl.Stderr() }

// DefaultExitGrace is how long after an interrupt ExitWhenStuck lets the
// process end by itself: past measure.DefaultGrace (when a stuck wait inside a
// benchmark is abandoned) and the writing of what finished.
const DefaultExitGrace = 2500 * time.Millisecond

// NoDeviceExitGrace bounds the grace of a process that never loaded OpenCL
// (report, history, store): no device's work is there to wait for, and what
// it writes is atomic, so it ends promptly.
const NoDeviceExitGrace = 500 * time.Millisecond

// ExitWhenStuck is the backstop for Ctrl-C and SIGTERM: once ctx is done, the
// process has grace to end by itself (measure abandons a stuck wait for the
// device after its own grace period, and the command writes what finished);
// if it has not, a wait outside any benchmark is stuck in the driver (a build,
// an in-process experiment), and ExitWhenStuck says so on stderr and exits
// with code. Result files are written benchmark by benchmark, atomically, so
// what finished is kept; cleanup, when not nil, runs before the exit (the
// temporary files of outputs still being written go). A process that never
// loaded OpenCL is not told of a device. It returns when stop is closed first.
func ExitWhenStuck(ctx context.Context, stop <-chan struct{}, grace time.Duration, stderr io.Writer, code int, cleanup func()) {
	select {
	case <-stop:
		return
	case <-ctx.Done():
	}
	if !cl.Loaded() {
		grace = min(grace, NoDeviceExitGrace)
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-stop:
	case <-t.C:
		if cleanup != nil {
			cleanup()
		}
		if cl.Loaded() {
			fmt.Fprintf(stderr, "clmeter: interrupted: the device was still busy %s later; its work was abandoned (finished results are kept)\n", grace)
		} else {
			fmt.Fprintf(stderr, "clmeter: interrupted: the work had not stopped %s later, so it was abandoned (no output was left half-written)\n", grace)
		}
		os.Exit(code)
	}
}
