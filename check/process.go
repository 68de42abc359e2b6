package check

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clmeter/clmeter/isolate"
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
	cache.DirEnv, cache.DebugEnv, "GOTRACEBACK", isolate.Env}

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
	rep, err := isolate.Call(ctx, isolate.Child{Command: r.opts.Child, Env: r.env(logFile, uninit), Request: cfg, Timeout: r.opts.Timeout})
	if err != nil {
		return nil, err
	}
	out := &outcome{}
	for _, line := range rep.Lines {
		var m childMsg
		if json.Unmarshal(line, &m) != nil {
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
	out.log = readLogs(logFile, rep.Stderr)
	switch {
	case rep.TimedOut:
		out.timedOut = true
	case rep.Failure() == nil && out.done != nil:
	default:
		out.crash = rep.Crash()
		if out.crash == "" {
			out.crash = "no result"
			if err := rep.Failure(); err != nil {
				out.crash = err.Error()
			}
		}
		out.done = nil
	}
	return out, nil
}

// readLogs reads Oclgrind's log file, and the API checks' reports it writes
// to stderr, not to its log; the rest of stderr (the compiler's messages, a
// Go stack dump) is not parsed.
func readLogs(logFile, stderr string) *Log {
	log := &Log{}
	if f, err := os.Open(logFile); err == nil {
		if l, err := ParseLog(f); err == nil {
			log = l
		}
		f.Close()
	}
	if l, err := ParseLog(strings.NewReader(stderr)); err == nil {
		for _, f := range l.Findings {
			if f.Kind == APIError {
				log.Findings = append(log.Findings, f)
			}
		}
	}
	return log
}
