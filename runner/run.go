// Package runner carries out clmeter's measuring and reporting commands —
// run, suite, compare and report — for callers that know nothing of the command
// line: it plans what to measure from an Options struct, measures it through
// runtime and measure, writes result files as it goes (so an interruption
// keeps what finished) and renders the tables.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/spec"
	"github.com/clmeter/clmeter/table"
)

// CacheOptions choose the program binary cache (see cache.Open).
type CacheOptions = cache.Config

// RunOptions are what 'clmeter run' was asked to do.
type RunOptions struct {
	// Target is a built-in name, a FILE.cl or a FILE.yaml.
	Target string
	// Device selects devices (runtime.Manager.Select syntax).
	Device string
	// Sizes is the --size list ("1Mi,16Mi"); "" for the default.
	Sizes string
	// Kernel, Global, Local, Args, Defines, Includes, BuildOptions, Bytes and
	// Flops describe a FILE.cl (see runtime/spec); they are errors elsewhere.
	Kernel, Global, Local string
	Args                  []string
	Defines, Includes     []string
	BuildOptions          string
	Bytes, Flops          string
	// Format is "table" or "json".
	Format string
	// Output, when set, receives the result file, benchmark by benchmark.
	Output string
	// Settings are the measurement settings (Settings.KernelTimeout gives up on
	// a kernel the device has not finished).
	Settings measure.Settings
	// NoDataWarmup leaves buffers unwritten before timing; SyncEach finishes
	// after every launch.
	NoDataWarmup, SyncEach bool
	// Cache chooses the binary cache.
	Cache CacheOptions
	// NoProfile never measures a device profile: without a stored one there
	// is no roofline. Verbose adds kernel resources and clocks to the notes.
	NoProfile, Verbose bool
	// ProfileDir is the device profiles' folder (CLMETER_PROFILE_DIR; "": the
	// user cache folder's).
	ProfileDir string
	// Store, when set, also puts the results into this results database (see
	// store.Open), with Labels.
	Store  string
	Labels map[string]string
	// Tool and Command describe the run in the result file.
	Tool    results.ToolInfo
	Command []string
	// Child reruns this command in a child process (clmeter's binary and its
	// arguments): where a selected device's driver may crash the process
	// (runtime.CrashRisk), the command runs there and a crash is one line.
	// Empty: always in this process.
	Child []string
}

// Run measures opts.Target on the selected devices and prints the run table
// (or JSON) on stdout; progress and warnings go to stderr.
func Run(ctx context.Context, opts RunOptions, stdout, stderr io.Writer) error {
	plan, err := planRun(ctx, opts, stderr)
	if err != nil {
		return err
	}
	defer plan.mgr.CloseContext(ctx)
	if ok, err := rerunIsolated(ctx, opts.Child, planDevices(plan), stdout, stderr); ok {
		return err
	}
	return executeRun(ctx, plan, stdout, stderr)
}

// NewManager returns a manager with the binary cache that opts ask for, or
// none. An unwritable folder prints one warning on
// stderr and leaves the builds uncached; only a bad size is an error.
func NewManager(opts CacheOptions, stderr io.Writer) (*runtime.Manager, error) {
	opts.Stderr = stderr
	bc, warning, err := cache.Open(opts)
	if err != nil {
		return nil, fail.With(fail.Usage, err)
	}
	if warning != "" {
		fmt.Fprintln(stderr, warning)
	}
	m := runtime.NewManager()
	if bc != nil {
		m.Cache = bc
	}
	return m, nil
}

// A runPlan is a checked 'clmeter run': what to measure, where, and how.
type runPlan struct {
	mgr      *runtime.Manager
	items    []runItem
	settings measure.Settings
	format   string
	output   string
	command  []string
	tool     results.ToolInfo
	store    string
	labels   map[string]string

	noDataWarmup bool
	syncEach     bool
	noProfile    bool
	profileDir   string
	verbose      bool
	analysis     *analysis
}

// A runItem is one benchmark on one device, made only when it runs.
type runItem struct {
	name   string
	kind   string
	params []results.Param
	device harness.Device
	make   func() (*runtime.KernelBenchmark, error)
	// bench, when set, replaces make: a benchmark that is not a kernel (the
	// tests' fakes on a fake device).
	bench func() (harness.Bench, error)
	// precision is the arithmetic's type for the roofline ("" is float).
	precision string
}

// planRun checks everything in opts that can be checked before a device is
// touched, then selects the devices and lists the benchmarks.
func planRun(ctx context.Context, opts RunOptions, stderr io.Writer) (*runPlan, error) {
	target := opts.Target
	if target == "" {
		return nil, usageErr("'clmeter run' takes one target (a built-in: %s; a FILE.cl; or a FILE.yaml)", strings.Join(clkernels.Names(), ", "))
	}
	if opts.Format == "" {
		opts.Format = "table"
	}
	if !slices.Contains(RunFormats, opts.Format) {
		return nil, usageErr("--format %q is not one of: %s", opts.Format, strings.Join(RunFormats, ", "))
	}
	var err error
	plan := &runPlan{settings: opts.Settings, format: opts.Format, output: opts.Output, command: opts.Command, tool: opts.Tool,
		store: opts.Store, labels: opts.Labels,
		noDataWarmup: opts.NoDataWarmup, syncEach: opts.SyncEach,
		noProfile: opts.NoProfile, verbose: opts.Verbose, profileDir: opts.ProfileDir}
	if plan.output != "" {
		if err := results.CheckWritable(plan.output); err != nil {
			return nil, err
		}
	}
	if err := checkStore(plan.store); err != nil {
		return nil, err
	}
	var sizes []int64
	if s := opts.Sizes; s != "" {
		for _, part := range strings.Split(s, ",") {
			n, err := spec.ParseSize(strings.TrimSpace(part))
			if err != nil {
				return nil, usageErr("--size: %v", err)
			}
			sizes = append(sizes, n)
		}
	}

	var kernel *spec.Kernel
	var builtin clkernels.Builtin
	isBuiltin := false
	ext := strings.ToLower(filepath.Ext(target))
	switch {
	case ext == ".yaml" || ext == ".yml":
		if opts.Kernel != "" || opts.Global != "" || len(opts.Args) > 0 {
			return nil, usageErr("a spec file holds the kernel, sizes and arguments: drop --kernel, --global and --arg")
		}
		if kernel, err = spec.LoadFile(target); err != nil {
			return nil, fail.With(fail.Usage, err)
		}
		if sizes != nil {
			return nil, usageErr("a spec file sweeps its own axes: drop --size")
		}
	case ext == ".cl":
		if kernel, err = userKernel(opts, sizes); err != nil {
			return nil, err
		}
	default:
		b, ok := clkernels.Lookup(target)
		if !ok {
			if _, statErr := os.Stat(target); statErr == nil {
				return nil, usageErr("%s: a kernel file ends in .cl and a spec file in .yaml", target)
			}
			return nil, usageErr("unknown kernel %q: the built-ins are %s; or give a FILE.cl or FILE.yaml", target, strings.Join(clkernels.Names(), ", "))
		}
		for _, f := range []struct {
			name string
			set  bool
		}{{"kernel", opts.Kernel != ""}, {"global", opts.Global != ""}, {"local", opts.Local != ""}, {"arg", len(opts.Args) > 0},
			{"D", len(opts.Defines) > 0}, {"I", len(opts.Includes) > 0}, {"options", opts.BuildOptions != ""},
			{"bytes", opts.Bytes != ""}, {"flops", opts.Flops != ""}} {
			if f.set {
				return nil, usageErr("--%s is for your own kernels (FILE.cl); built-in %s sets its own", f.name, target)
			}
		}
		builtin, isBuiltin = b, true
	}

	if plan.mgr, err = NewManager(opts.Cache, stderr); err != nil {
		return nil, err
	}
	devs, err := plan.mgr.Select(opts.Device)
	if err != nil {
		plan.mgr.Close()
		return nil, err
	}
	for _, dev := range devs {
		dev := dev
		if isBuiltin {
			ns := sizes
			if ns == nil {
				n, err := builtin.DefaultSize(ctx, dev)
				if err != nil {
					plan.mgr.Close()
					return nil, err
				}
				ns = []int64{n}
			}
			for _, n := range ns {
				n := n
				plan.items = append(plan.items, runItem{
					name: builtin.Name, kind: "run", device: dev, precision: builtin.Type,
					params: []results.Param{{Name: "type", Value: builtin.Type}, {Name: "n", Value: fmt.Sprint(n)}},
					make:   func() (*runtime.KernelBenchmark, error) { return builtin.Make(dev, n) },
				})
			}
			continue
		}
		for _, in := range kernel.Instances() {
			in := in
			var params []results.Param
			for i, name := range in.Names {
				params = append(params, results.Param{Name: name, Value: fmt.Sprint(in.Values[i])})
			}
			plan.items = append(plan.items, runItem{
				name: kernel.Kernel, kind: "run", device: dev, params: params,
				make: func() (*runtime.KernelBenchmark, error) { return kernel.Benchmark(dev, in) },
			})
		}
	}
	return plan, nil
}

// userKernel builds the description of FILE.cl from the options.
func userKernel(opts RunOptions, sizes []int64) (*spec.Kernel, error) {
	path := opts.Target
	src, err := spec.ReadSource(path)
	if err != nil {
		return nil, fail.With(fail.Usage, err)
	}
	k := &spec.Kernel{
		SourcePath: path, Source: src, Kernel: opts.Kernel,
		Global: opts.Global, Local: opts.Local,
		Bytes: opts.Bytes, Flops: opts.Flops,
		Options: spec.BuildOptions(opts.Defines, opts.Includes, opts.BuildOptions),
	}
	for _, a := range opts.Args {
		as, err := spec.ParseArg(a)
		if err != nil {
			return nil, fail.With(fail.Usage, err)
		}
		k.Args = append(k.Args, as)
	}
	if sizes != nil {
		k.Axes = []spec.Axis{{Name: "N", Values: sizes}}
	}
	if err := k.Check(); err != nil {
		return nil, fail.With(fail.Usage, err)
	}
	return k, nil
}

// executeRun measures every item in turn, printing the table at the end and
// appending each finished benchmark to the result file (so Ctrl-C keeps them).
func executeRun(ctx context.Context, plan *runPlan, stdout, stderr io.Writer) error {
	var w *results.Writer
	file := results.NewFile(plan.tool, plan.command)
	var done []results.Benchmark
	invalid := 0
	var abandoned error // the error of the benchmark an interrupt stopped
	pl := newProgressLine(stderr)
	defer pl.close()
	var progress func(string, measure.Progress)
	if pl != nil {
		progress = pl.update
	}
	plan.analysis = newAnalysis(plan.profileDir, plan.noProfile, plan.verbose, stderr)
	defer plan.analysis.close()
	for _, it := range plan.items {
		if ctx.Err() != nil {
			break
		}
		rb, err := measureItem(ctx, plan, it, progress)
		if err != nil && rb == nil {
			if errors.Is(err, context.Canceled) {
				break
			}
			return err
		}
		// An interrupted benchmark is kept only when it reached its minimum
		// of samples (results.Conclude); then the run stops after it.
		canceled := rb.Measurement != nil && rb.Measurement.StopReason == measure.StopCanceled
		if canceled && !rb.HasFigure() {
			abandoned = err
			break
		}
		if rb.Measurement != nil && rb.Measurement.Valid != nil && !*rb.Measurement.Valid {
			invalid++
		}
		done = append(done, *rb)
		if plan.output != "" {
			if w == nil {
				if w, err = results.Create(plan.output, file); err != nil {
					return err
				}
			}
			if err := w.Append(*rb); err != nil {
				return err
			}
		}
		if canceled {
			abandoned = err
			break
		}
		if err != nil {
			// The benchmark failed after setup: keep what finished, report it.
			writeRunReport(stdout, plan.format, file, done, plan.verbose, table.Width(stdout))
			return err
		}
	}
	if err := writeRunReport(stdout, plan.format, file, done, plan.verbose, table.Width(stdout)); err != nil {
		return err
	}
	for _, b := range done {
		if plan.verbose && (plan.format == "table" || plan.format == "wide") && b.Program != nil && b.Program.DriverOutput != "" {
			fmt.Fprintf(stdout, "driver output while building %s:\n%s\n", b.Program.Source, b.Program.DriverOutput)
		}
	}
	file.Benchmarks = done
	if err := saveToStore(ctx, plan.store, plan.labels, plan.output, file, stderr); err != nil {
		return err
	}
	if ctx.Err() != nil {
		msg := fmt.Sprintf("interrupted after %d of %d benchmarks%s", len(done), len(plan.items), abandonNote(abandoned))
		if plan.output != "" && len(done) > 0 {
			msg += "; the finished ones are in " + plan.output
		}
		return fail.With(fail.Interrupted, errors.New(msg))
	}
	if invalid > 0 {
		return fail.With(fail.Invalid, fmt.Errorf("%d result(s) failed validation against the CPU reference: see INVALID above", invalid))
	}
	return nil
}

// usageErr is a bad-usage error.
func usageErr(format string, a ...any) error { return fail.Usagef(format, a...) }
