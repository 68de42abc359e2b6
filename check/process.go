package check

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
)

// runner runs the child processes of one Run.
type runner struct {
	opts    Options
	dir     string // private temporary folder
	vendors string // its vendor folder, holding only oclgrind.icd
}

// checked is one configuration's result and what the child saw.
type checked struct {
	ConfigResult
	device string
}

// outcome is what one child process left: its plan and outcome lines, the
// parsed Oclgrind log, and a crash or time-out.
type outcome struct {
	plan     *childPlan
	done     *childDone
	log      *Log
	crash    string
	timedOut bool
}

// childEnvDrop are variables the child must not inherit: they would pick
// another device or driver, or change Oclgrind's checks.
var childEnvDrop = []string{"OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", runtime.DeviceEnv, cache.OffEnv,
	cache.DirEnv, cache.DebugEnv, "GOTRACEBACK"}

// env is the child's environment: the user's, less childEnvDrop and every
// OCLGRIND_ variable, plus the private vendor folder, no binary cache (a
// program built from source carries Oclgrind's line information) and the checks.
func (r *runner) env(logFile string, uninit bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		drop := strings.HasPrefix(name, "OCLGRIND_")
		for _, d := range childEnvDrop {
			drop = drop || name == d
		}
		if !drop {
			env = append(env, kv)
		}
	}
	env = append(env,
		"OCL_ICD_VENDORS="+r.vendors,
		cache.OffEnv+"=1",
		"GOTRACEBACK=single",
		"OCLGRIND_CHECK_API=1",
		"OCLGRIND_DATA_RACES=1",
		fmt.Sprintf("OCLGRIND_MAX_ERRORS=%d", r.opts.MaxErrors),
		"OCLGRIND_LOG="+logFile,
	)
	if uninit {
		env = append(env, "OCLGRIND_UNINITIALIZED=1")
	}
	if r.opts.UniformWrites {
		env = append(env, "OCLGRIND_UNIFORM_WRITES=1")
	}
	return env
}

// check runs one configuration: first with every check; when Oclgrind crashes
// with uninitialized-value tracking on (it has been seen to, in correct
// kernels), again without it, keeping what the first run reported.
func (r *runner) check(ctx context.Context, i int, cfg Config) (res checked) {
	res = checked{ConfigResult: ConfigResult{Label: cfg.Label, Target: cfg.Target, Findings: []Finding{}, Checks: checkNames(true, r.opts.UniformWrites)}}
	start := time.Now()
	defer func() { res.Duration = time.Since(start) }()
	out, err := r.runChild(ctx, filepath.Join(r.dir, fmt.Sprintf("log-%d-a.txt", i)), cfg, true)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	var raw []Finding
	if out.log != nil {
		raw = append(raw, out.log.Findings...)
	}
	if out.crash != "" {
		res.Notes = append(res.Notes, fmt.Sprintf("Oclgrind crashed with uninitialized-value tracking on (%s); checked again without it: uninitialized values were not checked", out.crash))
		res.Checks = checkNames(false, r.opts.UniformWrites)
		var again *outcome
		again, err = r.runChild(ctx, filepath.Join(r.dir, fmt.Sprintf("log-%d-b.txt", i)), cfg, false)
		if err != nil {
			res.Error = err.Error()
			return res
		}
		if again.log != nil {
			raw = append(raw, again.log.Findings...)
		}
		if again.plan == nil {
			again.plan = out.plan
		}
		out = again
	}
	truncated := out.log != nil && out.log.Truncated
	if p := out.plan; p != nil {
		res.device = p.Device + " (" + p.Platform + ")"
		res.Kernel, res.Source, res.Global, res.Local = p.Kernel, p.Source, p.Global, p.Local
	}
	switch {
	case out.timedOut:
		res.Error = fmt.Sprintf("Oclgrind did not finish within %s: use a smaller --size, or a longer --timeout", r.opts.Timeout)
	case out.crash != "":
		res.Error = "Oclgrind crashed (" + out.crash + ") even without uninitialized-value tracking"
	case out.done == nil:
		res.Error = "the check process ended without a result"
	case out.done.Error != "":
		res.Error = out.done.Error
		// Oclgrind's API report of the same failure says nothing more.
		raw = dropKind(raw, APIError)
	}
	for i := range raw {
		locate(&raw[i], out.plan)
	}
	res.Findings = Merge(raw)
	if out.done != nil && out.done.WrongOutput != "" {
		res.Findings = append(res.Findings, Finding{Kind: WrongOutput, Kernel: res.Kernel, Message: "the output differs from the expected one: " + out.done.WrongOutput, Count: 1})
	}
	if truncated {
		res.Notes = append(res.Notes, fmt.Sprintf("Oclgrind stopped reporting after %d errors: fix these and check again", r.opts.MaxErrors))
	}
	return res
}

func dropKind(fs []Finding, k Kind) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Kind != k {
			out = append(out, f)
		}
	}
	return out
}

// runChild runs one child process with the configuration on its stdin and
// Oclgrind's log in logFile. A crash or time-out is part of the outcome; the
// error is for a child that could not be started, or an interrupt.
func (r *runner) runChild(ctx context.Context, logFile string, cfg Config, uninit bool) (*outcome, error) {
	in, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, r.opts.Child[0], r.opts.Child[1:]...)
	cmd.Env = r.env(logFile, uninit)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out := &outcome{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		var m childMsg
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		if m.Plan != nil {
			out.plan = m.Plan
		}
		if m.FirstBuffer > 0 && out.plan != nil {
			out.plan.FirstBuffer = m.FirstBuffer
		}
		if m.Done != nil {
			out.done = m.Done
		}
	}
	out.log = &Log{}
	if f, err := os.Open(logFile); err == nil {
		if l, err := ParseLog(f); err == nil {
			out.log = l
		}
		f.Close()
	}
	// Oclgrind writes its API checks' reports to stderr, not to its log; the
	// rest of stderr (the compiler's messages, a Go stack dump) is not parsed.
	if l, err := ParseLog(bytes.NewReader(stderr.Bytes())); err == nil {
		for _, f := range l.Findings {
			if f.Kind == APIError {
				out.log.Findings = append(out.log.Findings, f)
			}
		}
	}
	var ee *exec.ExitError
	switch {
	case cctx.Err() != nil:
		out.timedOut = true
	case runErr == nil && out.done != nil:
	case errors.As(runErr, &ee) || (runErr == nil && out.done == nil):
		out.crash = crashReason(ee, stderr.String())
		out.done = nil
	default:
		return nil, fmt.Errorf("cannot run the check process %s: %w", r.opts.Child[0], runErr)
	}
	return out, nil
}

var reCrashLine = regexp.MustCompile(`(?m)^(SIG[A-Z]+: .*|fatal error: .*|panic: .*|terminate called .*|.*Assertion .* failed.*)$`)

// crashReason says in one line why a child died: the signal, or the first line
// of the Go runtime's or the C++ runtime's report, never the stack dump.
func crashReason(ee *exec.ExitError, stderr string) string {
	var parts []string
	if m := reCrashLine.FindString(stderr); m != "" {
		parts = append(parts, strings.TrimSpace(m))
	}
	if ee != nil {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			parts = append(parts, "killed by "+ws.Signal().String())
		} else if len(parts) == 0 {
			parts = append(parts, fmt.Sprintf("exit status %d", ee.ExitCode()))
			if last := lastLine(stderr); last != "" {
				parts = append(parts, last)
			}
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no result")
	}
	return strings.Join(parts, ", ")
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
