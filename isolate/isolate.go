// Package isolate runs a command again in a child process, so that a driver
// that can crash the process (Oclgrind under its checks, an OpenCL layer) takes
// only the child down, and turns a crash into one line naming the driver, the
// OpenCL call it died in and the fix: never a Go stack dump. Call is the one
// protocol of clmeter's children: a request on stdin, JSON lines back, a crash
// or time-out told apart.
package isolate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Env is set in the child: a command that finds it runs in-process.
const Env = "CLMETER_ISOLATED"

// Active reports whether this process is such a child.
func Active() bool { return os.Getenv(Env) != "" }

// Options say what to run and how to name a crash.
type Options struct {
	// Command reruns the command in a child: the executable and its arguments.
	Command []string
	// Driver names what may crash ("the Oclgrind driver"); Fix says what to
	// try then ("try without OCLGRIND_UNINITIALIZED, or use `clmeter check`").
	Driver, Fix string
}

// An ExitError is the child's own failure: its exit status and its one-line
// reason (the "clmeter: " line it printed, without the prefix).
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string { return e.Msg }

// ExitCode is the child's exit status, for the parent to exit with.
func (e *ExitError) ExitCode() int { return e.Code }

// A CrashError says the child crashed.
type CrashError struct {
	Driver, Fix string
	// Signal is the signal's name ("SIGSEGV"), Call the OpenCL call it
	// arrived in ("clEnqueueWriteBuffer"; "" when unknown) and Reason the
	// first line of the crash report.
	Signal, Call, Reason string
}

func (e *CrashError) Error() string {
	s := e.Driver + " crashed"
	if e.Signal != "" {
		s += " (" + e.Signal + ")"
	}
	if e.Call != "" {
		s += " in " + e.Call
	}
	s += ": " + e.Reason
	if e.Fix != "" {
		s += "; " + e.Fix
	}
	return s
}

// Run runs o.Command with Env set, stdin closed, its stdout copied to stdout
// as it comes and its stderr to stderr line by line, less its final error line
// and any crash report. It returns nil when the child succeeded, an *ExitError
// when it failed with its own words, and a *CrashError when it crashed. A
// cancellation of ctx is passed on as an interrupt, and the child is waited for.
func Run(ctx context.Context, o Options, stdout, stderr io.Writer) error {
	if len(o.Command) == 0 {
		return errors.New("isolate: no command")
	}
	cmd := exec.CommandContext(ctx, o.Command[0], o.Command[1:]...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.Env = append(os.Environ(), Env+"=1", "GOTRACEBACK=single")
	cmd.Stdout = stdout
	f := &filter{out: stderr}
	cmd.Stderr = f
	runErr := cmd.Run()
	f.close()
	var ee *exec.ExitError
	if runErr != nil && !errors.As(runErr, &ee) {
		return fmt.Errorf("cannot run %s in a child process: %w", o.Command[0], runErr)
	}
	if c := crash(ee, f); c != nil {
		c.Driver, c.Fix = o.Driver, o.Fix
		return c
	}
	if runErr == nil {
		f.flushHeld()
		return nil
	}
	msg := strings.TrimPrefix(f.held, "clmeter: ")
	if msg == "" {
		msg = fmt.Sprintf("the child process ended with exit status %d", ee.ExitCode())
	}
	return &ExitError{Code: ee.ExitCode(), Msg: msg}
}

// reCrashStart matches the first line of a crash report: the Go runtime's
// (a signal, a fatal error, a panic), glibc's heap checks, the C++ runtime's,
// a failed assertion.
var reCrashStart = regexp.MustCompile(`^(SIG[A-Z]+: .*|fatal error: .*|panic: .*|unexpected fault address .*|terminate called .*|.*Assertion .* failed.*|(malloc|free|realloc|munmap_chunk|malloc_consolidate)\(\): .*|corrupted .*|double free or corruption.*)$`)

// reGoSignal is the Go runtime's first line for a fatal signal.
var reGoSignal = regexp.MustCompile(`^(SIG[A-Z]+): (.*)$`)

var reSignal = regexp.MustCompile(`\b(SIG[A-Z]+)\b`)

// reCall finds the OpenCL call a cgo crash arrived in, in the stack dump.
var reCall = regexp.MustCompile(`_Cfunc_clm_(cl[A-Za-z0-9]+)\(`)

// crash reads a crash from the child's end and stderr; nil when it did not
// crash (a child that exited with status 0 did not).
func crash(ee *exec.ExitError, f *filter) *CrashError {
	if ee == nil {
		return nil
	}
	signaled := false
	var sig syscall.Signal
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		signaled, sig = true, ws.Signal()
	}
	if !signaled && f.crashLine == "" {
		return nil
	}
	c := &CrashError{Reason: f.crashLine}
	if m := reGoSignal.FindStringSubmatch(f.crashLine); m != nil {
		c.Signal, c.Reason = m[1], m[2]
	} else if m := reSignal.FindStringSubmatch(f.crashLine); m != nil {
		c.Signal = m[1]
	} else if m := reSignal.FindStringSubmatch(f.report.String()); m != nil {
		c.Signal = m[1]
	}
	if signaled {
		if c.Signal == "" {
			c.Signal = unix.SignalName(sig)
		}
		if c.Reason == "" {
			c.Reason = "killed by " + sig.String()
		}
	}
	if m := reCall.FindStringSubmatch(f.report.String()); m != nil {
		c.Call = m[1]
	}
	if len(c.Reason) > 200 {
		c.Reason = c.Reason[:200] + "..."
	}
	return c
}

// filter passes the child's stderr on line by line. It holds back the last
// "clmeter: " line (the child's own error, which the parent says instead) and,
// from the first line of a crash report on, keeps everything to itself.
type filter struct {
	mu        sync.Mutex
	out       io.Writer
	partial   []byte
	held      string
	crashLine string
	report    bytes.Buffer // the crash report, up to maxReport
}

const maxReport = 1 << 20

func (f *filter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.partial = append(f.partial, p...)
	for {
		i := bytes.IndexByte(f.partial, '\n')
		if i < 0 {
			break
		}
		f.line(string(f.partial[:i]))
		f.partial = f.partial[i+1:]
	}
	return len(p), nil
}

func (f *filter) line(l string) {
	if f.crashLine == "" && reCrashStart.MatchString(l) {
		f.crashLine = strings.TrimSpace(l)
	}
	if f.crashLine != "" {
		if f.report.Len() < maxReport {
			f.report.WriteString(l + "\n")
		}
		return
	}
	f.flushHeld()
	if strings.HasPrefix(l, "clmeter: ") {
		f.held = l
		return
	}
	fmt.Fprintln(f.out, l)
}

func (f *filter) flushHeld() {
	if f.held != "" {
		fmt.Fprintln(f.out, f.held)
		f.held = ""
	}
}

func (f *filter) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.partial) > 0 {
		f.line(string(f.partial))
		f.partial = nil
	}
}

// Describe says in one line how a child process that failed with err ended,
// from its stderr: "crashed (SIGSEGV) in clBuildProgram: segmentation
// violation" for a crash, else its own error line ("clmeter: " taken off), else
// the last line of stderr, else err; never the stack dump. For callers that run
// their own children (fresh-process experiments).
func Describe(err error, stderr string) string {
	f := &filter{out: io.Discard}
	f.Write([]byte(stderr))
	f.close()
	var ee *exec.ExitError
	errors.As(err, &ee)
	if c := crash(ee, f); c != nil {
		s := "crashed"
		if c.Signal != "" {
			s += " (" + c.Signal + ")"
		}
		if c.Call != "" {
			s += " in " + c.Call
		}
		return s + ": " + c.Reason
	}
	if f.held != "" {
		return strings.TrimPrefix(f.held, "clmeter: ")
	}
	if l := lastLine(stderr); l != "" {
		return fmt.Sprintf("%v: %s", err, l)
	}
	return fmt.Sprint(err)
}

// lastLine is the last non-empty line of s, at most 200 bytes of it.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 200 {
		l = l[:200] + "..."
	}
	return l
}
