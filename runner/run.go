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
	"slices"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/target"
	"github.com/clmeter/clmeter/units"
)

// CacheOptions choose the program binary cache (see cache.Open).
type CacheOptions = cache.Config

// RunOptions are what 'clmeter run' was asked to do.
type RunOptions struct {
	// Target is a built-in name, a FILE.cl or a FILE.yaml.
	Target string
	// Flags describe a FILE.cl and override a spec file's axes or a
	// built-in's size (see package target).
	Flags target.Flags
	// NoDataWarmup leaves buffers unwritten before timing; SyncEach finishes
	// after every launch.
	NoDataWarmup, SyncEach bool
	// Verbose adds kernel resources and clocks to the notes.
	Verbose bool
	SessionOptions
	// OutputOptions' Format is "table" or "json" (RunFormats).
	OutputOptions
	StoreOptions
	ProfileUse
	// Fleet places the run in a fleet run: its shard of the configurations,
	// the file's fleet, the upload's retries.
	Fleet FleetOptions
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
	fleet    FleetOptions

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
	if opts.Target == "" {
		return nil, usageErr("'clmeter run' takes one target (a built-in: %s; a FILE.cl; or a FILE.yaml)", strings.Join(clkernels.Names(), ", "))
	}
	plan, err := newRunPlan(opts, stderr)
	if err != nil {
		return nil, err
	}
	t, err := target.Resolve(opts.Target, opts.Flags, target.Defaults{})
	if err != nil {
		return nil, err
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
		items, err := targetItems(ctx, t, dev)
		if err != nil {
			plan.mgr.Close()
			return nil, err
		}
		plan.items = append(plan.items, items...)
	}
	if plan.items, err = shardItems(plan.items, opts.Fleet.Shard, opts.Target, stderr); err != nil {
		plan.mgr.Close()
		return nil, err
	}
	return plan, nil
}

// newRunPlan checks the format, the result file and the store of opts.
func newRunPlan(opts RunOptions, stderr io.Writer) (*runPlan, error) {
	if opts.Format == "" {
		opts.Format = "table"
	}
	if !slices.Contains(RunFormats, opts.Format) {
		return nil, usageErr("--format %q is not one of: %s", opts.Format, strings.Join(RunFormats, ", "))
	}
	plan := &runPlan{settings: opts.Settings, format: opts.Format, output: opts.Output, command: opts.Command, tool: opts.Tool,
		store: opts.Store, labels: opts.Labels, fleet: opts.Fleet,
		noDataWarmup: opts.NoDataWarmup, syncEach: opts.SyncEach,
		noProfile: opts.NoProfile, verbose: opts.Verbose, profileDir: opts.ProfileDir}
	if plan.output != "" {
		if err := results.CheckWritable(plan.output); err != nil {
			return nil, err
		}
	}
	if err := checkFleetStore(plan.store, plan.fleet, stderr); err != nil {
		return nil, err
	}
	return plan, nil
}

// targetItems are the benchmarks of a resolved target on dev: a built-in at
// each size (its default on dev when none was given), a kernel description
// at each instance of its axes.
func targetItems(ctx context.Context, t *target.Target, dev *runtime.Device) ([]runItem, error) {
	var items []runItem
	if t.IsBuiltin {
		builtin, ns := t.Builtin, t.Sizes
		if ns == nil {
			n, err := builtin.DefaultSize(ctx, dev)
			if err != nil {
				return nil, err
			}
			ns = []int64{n}
		}
		for _, n := range ns {
			n := n
			items = append(items, runItem{
				name: builtin.Name, kind: "run", device: dev, precision: builtin.Type,
				params: []results.Param{{Name: "type", Value: builtin.Type}, {Name: "n", Value: fmt.Sprint(n)}},
				make:   func() (*runtime.KernelBenchmark, error) { return builtin.Make(dev, n) },
			})
		}
		return items, nil
	}
	kernel := t.Kernel
	for _, in := range kernel.Instances() {
		in := in
		var params []results.Param
		for i, name := range in.Names {
			params = append(params, results.Param{Name: name, Value: fmt.Sprint(in.Values[i])})
		}
		items = append(items, runItem{
			name: kernel.Kernel, kind: "run", device: dev, params: params,
			make: func() (*runtime.KernelBenchmark, error) { return kernel.Benchmark(dev, in) },
		})
	}
	return items, nil
}

// executeRun measures every item in turn, printing the table at the end and
// appending each finished benchmark to the result file (so Ctrl-C keeps them).
func executeRun(ctx context.Context, plan *runPlan, stdout, stderr io.Writer) (err error) {
	rec := &record{path: plan.output, file: results.NewFile(plan.tool, plan.command)}
	rec.file.Fleet = plan.fleet.Place
	defer rec.close(&err)
	pl := newProgressLine(stderr)
	defer pl.close()
	var progress func(string, measure.Progress)
	if pl != nil {
		progress = pl.update
	}
	plan.analysis = newAnalysis(plan.profileDir, plan.noProfile, plan.verbose, stderr)
	defer plan.analysis.close()
	steps := make([]harness.Step, len(plan.items))
	for i, it := range plan.items {
		steps[i] = plan.step(ctx, it, progress)
	}
	// One harness.Sequence, strict: a benchmark that fails stops the run.
	// An interrupted benchmark is kept only when it reached its minimum of
	// samples (results.Conclude); then the run stops after it.
	q := &harness.Sequence{Ctx: ctx, Settings: plan.settings, Strict: true, Emit: func(b results.Benchmark) error { return rec.add(b) }}
	abandoned := q.Run(steps) // the error of the benchmark an interrupt stopped
	if abandoned != nil && ctx.Err() == nil {
		return runError(abandoned)
	}
	done, file := rec.finished()
	if err := writeRunReport(stdout, plan.format, file, done, plan.verbose, table.Width(stdout)); err != nil {
		return err
	}
	for _, b := range done {
		if plan.verbose && (plan.format == "table" || plan.format == "wide") && b.Program != nil && b.Program.DriverOutput != "" {
			fmt.Fprintf(stdout, "driver output while building %s:\n%s\n", b.Program.Source, b.Program.DriverOutput)
		}
	}
	if err := rec.save(ctx, StoreOptions{Store: plan.store, Labels: plan.labels}, plan.fleet.StoreRetry, stderr); err != nil {
		return err
	}
	if ctx.Err() != nil {
		msg := fmt.Sprintf("interrupted after %d of %d benchmarks%s", len(done), len(plan.items), abandonNote(abandoned))
		if plan.output != "" && len(done) > 0 {
			msg += "; the finished ones are in " + plan.output
		}
		return fail.With(fail.Interrupted, errors.New(msg))
	}
	if rec.invalid > 0 {
		return fail.With(fail.Invalid, fmt.Errorf("%s failed validation against the CPU reference: see INVALID above", units.Count(rec.invalid, "result")))
	}
	return nil
}

// usageErr is a bad-usage error.
func usageErr(format string, a ...any) error { return fail.Usagef(format, a...) }
