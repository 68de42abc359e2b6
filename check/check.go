// Package check runs kernels once on Oclgrind, the OpenCL device simulator, in
// a child process with Oclgrind's checks on, and turns its diagnostics (invalid
// memory accesses, data races, uninitialized values, barrier and work-group
// divergence, API misuse) into findings located in the user's source.
package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/clmeter/clmeter/runtime/icd"
	"github.com/clmeter/clmeter/target"
	"github.com/clmeter/clmeter/units"
)

// Options say what to check and how.
type Options struct {
	// Targets are built-in names, FILE.cl or FILE.yaml (see Plan).
	Targets []string
	// Flags describe FILE.cl targets and override sizes and axes (see
	// package target; N is DefaultSize when not given).
	Flags target.Flags
	// All checks every combination of a spec file's axes, not the smallest.
	All bool
	// Output, when set, receives the report as JSON (written atomically).
	Output string
	// JSON prints the report as JSON on stdout instead of text.
	JSON bool
	// Timeout bounds each child process (DefaultTimeout when zero).
	Timeout time.Duration
	// UniformWrites reports write-write races where every work-item writes the
	// same value (Oclgrind suppresses them by default).
	UniformWrites bool
	// MaxErrors is how many reports Oclgrind writes before it stops
	// (DefaultMaxErrors when zero).
	MaxErrors int
	// Child is the command that runs Child in a fresh process, with the
	// configuration on its stdin: clmeter's own binary and its hidden
	// subcommand. Required.
	Child []string
	// Command is the command line, and Version clmeter's, for the report.
	Command []string
	Version string
	// OclgrindICD is Oclgrind's ICD library when the user named one
	// (CLMETER_OCLGRIND_ICD); "" searches the usual places.
	OclgrindICD string
}

// Defaults for Options.
const (
	DefaultTimeout   = 10 * time.Minute
	DefaultMaxErrors = 1000
)

// ErrFindings is what Run's error wraps when Oclgrind found anything: the
// command maps it to its exit status for a failed check.
var ErrFindings = errors.New("check found errors")

// A FindingsError says how many findings there were; errors.Is(err,
// ErrFindings) holds.
type FindingsError struct {
	// Findings counts findings and Configs the configurations with any;
	// Failed counts configurations that could not be checked.
	Findings, Configs, Failed int
}

func (e *FindingsError) Error() string {
	s := fmt.Sprintf("%s in %s: see above", units.Count(e.Findings, "finding"), units.Count(e.Configs, "configuration"))
	if e.Failed > 0 {
		s += fmt.Sprintf("; %d configuration(s) could not be checked", e.Failed)
	}
	return s
}

// Is makes errors.Is(err, ErrFindings) true.
func (e *FindingsError) Is(target error) bool { return target == ErrFindings }

// Run checks every configuration of opts.Targets on Oclgrind, one child process
// each, prints the findings to stdout (text, or JSON with opts.JSON) and writes
// opts.Output. It returns a *FindingsError when there is any finding, an error
// when a configuration could not be checked, and nil when all is clean.
func Run(ctx context.Context, opts Options, stdout, stderr io.Writer) error {
	if len(opts.Child) == 0 {
		return errors.New("check: no child command")
	}
	cfgs, notes, err := Plan(opts.Targets, opts.Flags, opts.All)
	if err != nil {
		return err
	}
	lib, err := icd.FindOclgrindICD(opts.OclgrindICD)
	if err != nil {
		return err
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxErrors <= 0 {
		opts.MaxErrors = DefaultMaxErrors
	}
	tmp, err := os.MkdirTemp("", "clmeter-check-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	vendors := filepath.Join(tmp, "vendors")
	if err := os.Mkdir(vendors, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(vendors, "oclgrind.icd"), []byte(lib+"\n"), 0o644); err != nil {
		return err
	}
	r := &runner{opts: opts, dir: tmp, vendors: vendors}
	rep := &Report{Tool: "clmeter", Version: opts.Version, Command: opts.Command, Oclgrind: lib,
		Checks: checkNames(true, opts.UniformWrites), Notes: notes, Configs: []ConfigResult{}}
	if !opts.JSON {
		writeHeader(stdout, rep)
	}
	for i, cfg := range cfgs {
		if err := ctx.Err(); err != nil {
			return err
		}
		res := r.check(ctx, i, cfg)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if rep.Device == "" && res.device != "" {
			rep.Device = res.device
		}
		rep.Configs = append(rep.Configs, res.ConfigResult)
		if !opts.JSON {
			writeConfig(stdout, res.ConfigResult)
		}
	}
	rep.tally()
	if opts.JSON {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		writeSummary(stdout, rep)
	}
	if opts.Output != "" {
		if err := writeFileAtomic(opts.Output, rep); err != nil {
			return err
		}
	}
	switch {
	case rep.Findings > 0:
		return &FindingsError{Findings: rep.Findings, Configs: rep.WithFindings, Failed: rep.Failed}
	case rep.Failed > 0:
		return fmt.Errorf("%d of %d configuration(s) could not be checked: see above", rep.Failed, len(rep.Configs))
	}
	return nil
}
