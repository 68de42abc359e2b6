// Package tune searches a kernel's configurations for the fastest: the axes
// of a spec file (problem sizes fixed with Set, local sizes, -D values through
// $NAME in the build options), every configuration when there are few, else a
// budgeted search (random sampling or simulated annealing, as Kernel Tuner and
// CLTune choose by the space's size). Each configuration's outputs are checked
// against the first valid one's; invalid configurations are kept with the
// reason. The result is the best configuration with its confidence interval
// and its speedup over the driver-chosen local size, with a significance test.
package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/isolate"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/compare"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/spec"
	"github.com/clmeter/clmeter/target"
	"github.com/clmeter/clmeter/units"
)

// Options are what 'clmeter tune' was asked to do.
type Options struct {
	// Target is a FILE.yaml (a spec with axes) or a FILE.cl described by
	// Flags as 'clmeter run' takes them.
	Target string
	// Device selects one device (runtime.Manager.Select syntax; the first
	// selected is tuned).
	Device string
	// Flags describe a FILE.cl (Flags.Axes add the axes to search: "T=4,8,16")
	// and fix or narrow axes (Flags.Set: "N=1024" or "T=8,16"; see package
	// target).
	Flags target.Flags
	// Budget bounds the search's wall time (zero: DefaultBudget). A
	// configuration that has started finishes.
	Budget time.Duration
	// Strategy is one of Strategies ("" is auto).
	Strategy string
	// Seed makes random sampling and annealing repeatable.
	Seed uint64
	// Tolerance is the largest relative difference of a floating-point output
	// element from the first configuration's (zero: DefaultTolerance).
	Tolerance float64
	// Alpha is the significance level of the speedup's test (zero: 0.05).
	Alpha float64
	// Settings measure each configuration.
	Settings measure.Settings
	// NoDataWarmup leaves buffers unwritten before timing; SyncEach finishes
	// after every launch (as 'clmeter run' takes them).
	NoDataWarmup, SyncEach bool
	// Output, when set, receives the result file, benchmark by benchmark.
	Output string
	// Format is "table" or "json".
	Format string
	// Cache chooses the binary cache (see cache.Open).
	Cache cache.Config
	// Tool and Command describe the run in the result file.
	Tool    results.ToolInfo
	Command []string
	// Child reruns this command in a child process (clmeter's binary and its
	// arguments): on a device whose driver may crash the process
	// (runtime.CrashRisk) the search runs there and a crash is one line.
	Child []string
}

// Defaults.
const (
	DefaultBudget    = 2 * time.Minute
	DefaultTolerance = 1e-4
)

// A Trial is one configuration tried.
type Trial struct {
	// Label is the axis values ("T=16").
	Label string
	// Bench is its result-file record (Error set when it was skipped).
	Bench results.Benchmark
	// Skipped says why the configuration is invalid; empty when it ran.
	Skipped string
	// stop is what must stop the search (harness.Stops): an interruption,
	// or abandoned work, after which the device may still be busy.
	stop error
}

// Median is the trial's median per-launch time (zero when skipped).
func (t *Trial) Median() time.Duration {
	if t.Skipped != "" || t.Bench.Measurement == nil {
		return 0
	}
	return t.Bench.Measurement.Summary.Median
}

// A Result is a search's outcome.
type Result struct {
	Kernel, Device string
	// Strategy is the strategy used; Space the number of configurations;
	// Budget the budget and Elapsed the time the search took.
	Strategy string
	Space    int
	Budget   time.Duration
	Elapsed  time.Duration
	// Trials in the order tried.
	Trials []*Trial
	// Best is the fastest valid trial (nil when none was valid).
	Best *Trial
	// Baseline is what Best is compared with: Best's configuration with the
	// local size left to the driver, or (BaselineNote says why) the first
	// valid configuration.
	Baseline     *Trial
	BaselineNote string
	// Compare is Baseline against Best: Ratio is best/baseline, so the
	// speedup is 1/Ratio; P the Mann-Whitney p-value.
	Compare *compare.Pair
	Alpha   float64
}

// Speedup is how many times faster Best is than Baseline, and the interval of
// it (zero when there is no comparison).
func (r *Result) Speedup() (s, lo, hi float64) {
	if r.Compare == nil || r.Compare.Ratio <= 0 {
		return 0, 0, 0
	}
	return 1 / r.Compare.Ratio, 1 / r.Compare.RatioHigh, 1 / r.Compare.RatioLow
}

// check refuses options that cannot be meant (a negative budget; a tolerance
// that is negative, infinite or NaN; an unknown format or strategy) and fills
// in the defaults of those left zero.
func (o *Options) check() error {
	if o.Budget < 0 {
		return fail.Usagef("--budget must be above zero, got %s (the default is %s)", o.Budget, DefaultBudget)
	}
	if o.Tolerance < 0 || math.IsNaN(o.Tolerance) || math.IsInf(o.Tolerance, 0) {
		return fail.Usagef("--tolerance must be a finite relative difference above zero, such as 1e-4 (the default), got %g", o.Tolerance)
	}
	if o.Format == "" {
		o.Format = "table"
	}
	if o.Format != "table" && o.Format != "json" {
		return fail.Usagef("--format %q is not one of: table, json", o.Format)
	}
	if o.Strategy == "" {
		o.Strategy = StrategyAuto
	}
	if !slices.Contains(Strategies, o.Strategy) {
		return fail.Usagef("--strategy %q: want one of %s", o.Strategy, strings.Join(Strategies, ", "))
	}
	if o.Budget == 0 {
		o.Budget = DefaultBudget
	}
	return nil
}

// Run tunes o.Target on the selected device, prints the table (or JSON) on
// stdout and writes the result file.
func Run(ctx context.Context, o Options, stdout, stderr io.Writer) (err error) {
	if err := o.check(); err != nil {
		return err
	}
	k, err := kernelOf(o)
	if err != nil {
		return err
	}
	o.Cache.Stderr = stderr
	bc, warning, err := cache.Open(o.Cache)
	if err != nil {
		return fail.With(fail.Usage, err)
	}
	if warning != "" {
		fmt.Fprintln(stderr, warning)
	}
	mgr := runtime.NewManager()
	if bc != nil {
		mgr.Cache = bc
	}
	defer mgr.Close()
	devs, err := mgr.Select(o.Device)
	if err != nil {
		return fail.With(fail.NoDevice, err)
	}
	if len(o.Child) > 0 && !isolate.Active() {
		if driver, fix := runtime.CrashRisk(devs[0]); driver != "" {
			return isolate.Run(ctx, isolate.Options{Command: o.Child, Driver: driver, Fix: fix}, stdout, stderr)
		}
	}
	file := results.NewFile(o.Tool, o.Command)
	w, err := createOutput(o.Output, file)
	if err != nil {
		return fail.With(fail.Usage, err)
	}
	defer w.CloseInto(&err)
	emit := func(b results.Benchmark) error {
		file.Benchmarks = append(file.Benchmarks, b)
		if w != nil {
			return w.Append(b)
		}
		return nil
	}
	res, err := Search(ctx, k, devs[0], o, emit, stderr)
	if res != nil {
		if o.Format == "json" {
			if _, werr := file.WriteTo(stdout); werr != nil {
				return werr
			}
		} else {
			WriteTable(stdout, res)
		}
		if o.Output != "" {
			fmt.Fprintf(stderr, "results: %s (%s)\n", o.Output, units.Count(len(file.Benchmarks), "benchmark"))
		}
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fail.With(fail.Interrupted, fmt.Errorf("tuning interrupted: the configurations tried so far are kept"))
		}
		return err
	}
	if res.Best == nil {
		return fail.With(fail.Invalid, fmt.Errorf("no configuration of %s ran and matched the first one's output: see the reasons above", k.Kernel))
	}
	return nil
}

// kernelOf resolves o.Target with its flags (package target): tune searches
// a kernel description's axes, so a built-in is refused.
// createOutput starts the result file at path; nil when path is "".
func createOutput(path string, file results.File) (*results.Writer, error) {
	if path == "" {
		return nil, nil
	}
	return results.Create(path, file)
}

func kernelOf(o Options) (*spec.Kernel, error) {
	t, err := target.Resolve(o.Target, o.Flags, target.Defaults{})
	if err != nil {
		return nil, err
	}
	if t.IsBuiltin {
		return nil, fail.Usagef("'clmeter tune' searches a kernel's axes: give a FILE.yaml (a spec with axes) or a FILE.cl with run's flags, not built-in %s", o.Target)
	}
	return t.Kernel, nil
}

// instance is configuration i of k's axes.
func instance(k *spec.Kernel, s Space, i int) spec.Instance {
	in := spec.Instance{Vars: spec.Vars{}}
	for a, v := range s.Config(i) {
		ax := k.Axes[a]
		in.Names = append(in.Names, ax.Name)
		in.Values = append(in.Values, ax.Values[v])
		in.Vars[ax.Name] = ax.Values[v]
	}
	return in
}

// Search measures k's configurations on dev within o.Budget and compares the
// best with its baseline. Each trial is handed to emit as it finishes.
func Search(ctx context.Context, k *spec.Kernel, dev *runtime.Device, o Options, emit func(results.Benchmark) error, stderr io.Writer) (*Result, error) {
	if o.Tolerance <= 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.Alpha <= 0 || o.Alpha >= 1 {
		o.Alpha = 0.05
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	sp := Space{}
	for _, ax := range k.Axes {
		sp.Sizes = append(sp.Sizes, len(ax.Values))
	}
	res := &Result{Kernel: k.Kernel, Device: dev.Info.Name, Space: sp.Len(), Budget: o.Budget, Alpha: o.Alpha}
	start := time.Now()
	ref := &reference{k: k, tol: o.Tolerance}
	var stop error
	eval := func(i int) (float64, bool) {
		if stop != nil {
			return math.Inf(1), false
		}
		in := instance(k, sp, i)
		t := runTrial(ctx, k, dev, in, nil, ref, o, stderr)
		res.Trials = append(res.Trials, t)
		if err := emit(t.Bench); err != nil && stop == nil {
			stop = err
		}
		if t.stop != nil && stop == nil {
			stop = t.stop
		}
		if ctx.Err() != nil && stop == nil {
			stop = ctx.Err()
		}
		if t.Skipped != "" {
			return math.Inf(1), false
		}
		if res.Best == nil || t.Median() < res.Best.Median() {
			res.Best = t
		}
		return float64(t.Median()), true
	}
	spent := func() float64 {
		if stop != nil {
			return 1
		}
		return float64(time.Since(start)) / float64(o.Budget)
	}
	_, res.Strategy = SearchSpace(sp, o.Strategy, o.Seed, eval, spent)
	res.Elapsed = time.Since(start)
	if stop != nil {
		return res, stop
	}
	if res.Best == nil {
		return res, nil
	}
	if err := setBaseline(ctx, k, dev, sp, res, ref, o, emit, stderr); err != nil {
		return res, err
	}
	if res.Baseline != nil && res.Baseline != res.Best {
		p := compare.Samples(nanos(res.Baseline), nanos(res.Best), o.Alpha)
		res.Compare = &p
	}
	if err := emit(summaryBench(res, dev)); err != nil {
		return res, err
	}
	return res, nil
}

// setBaseline sets res.Baseline, what the best is compared with: the best's
// configuration with the driver's local size (measured and emitted here),
// unless the spec leaves the local size to the driver or ties it to a -D
// value (then the kernel is only correct at the local size it was built
// for): then the first valid configuration. BaselineNote says which.
func setBaseline(ctx context.Context, k *spec.Kernel, dev *runtime.Device, sp Space, res *Result, ref *reference, o Options, emit func(results.Benchmark) error, stderr io.Writer) error {
	var first *Trial
	for _, t := range res.Trials {
		if t.Skipped == "" {
			first = t
			break
		}
	}
	tied := tiedAxes(k)
	switch {
	case k.Local == "":
		res.Baseline, res.BaselineNote = first, "the spec leaves the local size to the driver in every configuration: compared with the first valid configuration"
	case len(tied) > 0:
		res.Baseline, res.BaselineNote = first, fmt.Sprintf("the local size (%s) is tied to a build option through %s, so the driver cannot choose it: compared with the first valid configuration", k.Local, strings.Join(tied, ", "))
	default:
		in := instance(k, sp, bestIndex(res, k, sp))
		t := runTrial(ctx, k, dev, in, []int{}, ref, o, stderr)
		if err := emit(t.Bench); err != nil {
			return err
		}
		if t.stop != nil {
			return t.stop
		}
		if t.Skipped != "" {
			res.Baseline, res.BaselineNote = first, "the driver-chosen local size did not run ("+t.Skipped+"): compared with the first valid configuration"
		} else {
			res.Baseline, res.BaselineNote = t, "the best configuration with the local size left to the driver"
		}
	}
	return nil
}

// bestIndex is the space index of res.Best.
func bestIndex(res *Result, k *spec.Kernel, sp Space) int {
	for i := 0; i < sp.Len(); i++ {
		if instance(k, sp, i).Label() == res.Best.Label {
			return i
		}
	}
	return 0
}

// tiedAxes are the axes named both in the local size and in the build
// options.
func tiedAxes(k *spec.Kernel) []string {
	var out []string
	for _, ax := range k.Axes {
		inLocal := strings.Contains(" "+k.Local+" ", ax.Name) && identIn(k.Local, ax.Name)
		inOpts := strings.Contains(k.Options, "$"+ax.Name) || strings.Contains(k.Options, "${"+ax.Name+"}")
		if inLocal && inOpts {
			out = append(out, ax.Name)
		}
	}
	return out
}

// identIn reports whether name appears in expr as a whole identifier.
func identIn(expr, name string) bool {
	isID := func(r byte) bool {
		return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	for i := 0; i+len(name) <= len(expr); i++ {
		if expr[i:i+len(name)] != name {
			continue
		}
		if (i == 0 || !isID(expr[i-1])) && (i+len(name) == len(expr) || !isID(expr[i+len(name)])) {
			return true
		}
	}
	return false
}
