package isolate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// A Child is one re-execution of clmeter as a child process that answers in
// JSON lines on its stdout: the one protocol of clmeter's children (check's
// Oclgrind runs, cache bench's trials, the coldstart experiment's fresh
// process). The child runs with the marker Env=1 and GOTRACEBACK=single.
type Child struct {
	// Command is the executable and its arguments (a hidden subcommand).
	Command []string
	// Env is the child's environment (nil: this process's).
	Env []string
	// Request, when not nil, is written to the child's stdin as JSON.
	Request any
	// Timeout bounds the child's life (zero: none); a child past it is killed
	// and its Reply says TimedOut.
	Timeout time.Duration
}

// A Reply is what a child left.
type Reply struct {
	// Lines are the lines of its stdout that open a JSON object, in order.
	Lines [][]byte
	// Stdout and Stderr are all it wrote.
	Stdout, Stderr string
	// Wall is the child's life, from its start to its exit.
	Wall time.Duration
	// TimedOut says the child was killed at Child.Timeout.
	TimedOut bool

	exit *exec.ExitError // its failure: a non-zero status or a signal
}

// Call runs c and returns its reply. The error is only for a child that could
// not be started or a done ctx (the child is then killed); a child that
// failed, crashed or timed out returns a Reply that says so (Failure, Crash).
func Call(ctx context.Context, c Child) (*Reply, error) {
	if len(c.Command) == 0 {
		return nil, errors.New("isolate: no command")
	}
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if c.Timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	defer cancel()
	cmd := exec.CommandContext(cctx, c.Command[0], c.Command[1:]...)
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(append([]string{}, env...), Env+"=1", "GOTRACEBACK=single")
	if c.Request != nil {
		b, err := json.Marshal(c.Request)
		if err != nil {
			return nil, err
		}
		cmd.Stdin = bytes.NewReader(b)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run()
	r := &Reply{Wall: time.Since(start), Stdout: stdout.String(), Stderr: stderr.String(), Lines: jsonLines(stdout.Bytes())}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	switch {
	case cctx.Err() != nil:
		r.TimedOut = true
	case runErr == nil:
	case errors.As(runErr, &r.exit):
	default:
		return nil, fmt.Errorf("cannot run %s in a child process: %w", c.Command[0], runErr)
	}
	return r, nil
}

// jsonLines are the lines of out that open a JSON object.
func jsonLines(out []byte) [][]byte {
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); bytes.HasPrefix(l, []byte("{")) {
			lines = append(lines, append([]byte(nil), l...))
		}
	}
	return lines
}

// Failure is nil when the child exited with status 0, else one line saying
// how it ended (Describe: a crash, its own error line, or its last line of
// stderr; never a stack dump).
func (r *Reply) Failure() error {
	switch {
	case r.TimedOut:
		return errors.New("the child process did not finish in time")
	case r.exit == nil:
		return nil
	}
	return errors.New(Describe(r.exit, r.Stderr))
}

// Crash says in one line how the child crashed ("SIGSEGV in clBuildProgram:
// segmentation violation"); "" when it did not crash: it exited, with any
// status, and printed no crash report.
func (r *Reply) Crash() string {
	f := &filter{out: io.Discard}
	f.Write([]byte(r.Stderr))
	f.close()
	ee := r.exit
	if ee == nil && f.crashLine == "" {
		return ""
	}
	if ee == nil {
		return f.crashLine
	}
	c := crash(ee, f)
	if c == nil {
		return ""
	}
	s := c.Signal
	if c.Call != "" {
		s += " in " + c.Call
	}
	return strings.TrimPrefix(s+": "+c.Reason, ": ")
}

// Decode reads the child's last JSON line into v; a child that printed none
// is an error that quotes its output.
func (r *Reply) Decode(v any) error {
	if len(r.Lines) == 0 {
		return fmt.Errorf("the child process printed no result: %q %s", r.Stdout, strings.TrimSpace(r.Stderr))
	}
	if err := json.Unmarshal(r.Lines[len(r.Lines)-1], v); err != nil {
		return fmt.Errorf("the child process printed no result (%v): %q", err, r.Stdout)
	}
	return nil
}
