package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/spec"
)

// measureFlags are the measurement settings every measuring command takes.
var measureFlags = []cli.Flag{
	&cli.StringFlag{Name: "warmup", Usage: "warm-up before sampling: a duration (200ms) or a count of launches (3x); default: one batch of at least --min-sample-time"},
	&cli.DurationFlag{Name: "min-sample-time", Value: measure.DefaultMinSampleTime, Usage: "each sample is a batch of back-to-back launches lasting at least this"},
	&cli.IntFlag{Name: "min-samples", Value: measure.DefaultMinSamples, Usage: "take at least this many samples"},
	&cli.Float64Flag{Name: "max-noise", Value: measure.DefaultMaxNoise, Usage: "stop once the 95% confidence interval of the median is within this fraction of it (0.01 = ±1%)"},
	&cli.DurationFlag{Name: "max-time", Value: measure.DefaultMaxTime, Usage: "stop sampling a benchmark after this long"},
	&cli.IntFlag{Name: "samples", Usage: "take exactly this many samples (overrides --max-noise and --max-time)"},
	&cli.StringFlag{Name: "timer", Value: "device", Usage: "device (event profiling), host (monotonic clock around enqueue..finish) or both"},
	&cli.BoolFlag{Name: "cold", Usage: "cold caches: overwrite a buffer larger than the device's cache before each launch; each sample is one launch"},
	&cli.BoolFlag{Name: "no-data-warmup", Usage: "do not write buffers before timing: first-touch costs fall into the cold run"},
	&cli.IntFlag{Name: "max-launches", Value: measure.DefaultMaxLaunches, Usage: "the most launches in one batch"},
	&cli.BoolFlag{Name: "sync-each", Usage: "finish after every launch: per-launch times are enqueue + finish round trips, not back-to-back throughput"},
	&cli.DurationFlag{Name: "kernel-timeout", Value: time.Minute, Usage: "give up on a kernel the device has not finished after this long (0: wait for ever)"},
}

// measureSettings reads the measureFlags.
func measureSettings(c *cli.Context) (measure.Settings, error) {
	s := measure.DefaultSettings()
	if w := c.String("warmup"); w != "" {
		wu, err := measure.ParseWarmup(w)
		if err != nil {
			return s, withCode(exitUsage, err)
		}
		s.Warmup = wu
	}
	s.MinSampleTime = c.Duration("min-sample-time")
	s.MinSamples = c.Int("min-samples")
	s.MaxNoise = c.Float64("max-noise")
	s.MaxTime = c.Duration("max-time")
	s.Samples = c.Int("samples")
	t, err := measure.ParseTimer(c.String("timer"))
	if err != nil {
		return s, withCode(exitUsage, err)
	}
	s.Timer = t
	s.Cold = c.Bool("cold")
	s.MaxLaunches = c.Int("max-launches")
	if s.MaxLaunches < 1 {
		return s, usageErr("--max-launches must be at least 1, got %d", s.MaxLaunches)
	}
	if c.Duration("kernel-timeout") < 0 {
		return s, usageErr("--kernel-timeout must not be negative")
	}
	if c.IsSet("samples") && s.Samples <= 0 {
		return s, usageErr("--samples must be positive, got %d", s.Samples)
	}
	if err := s.Validate(); err != nil {
		return s, withCode(exitUsage, err)
	}
	return s, nil
}

var runFlags = append([]cli.Flag{
	deviceFlag,
	&cli.StringFlag{Name: "kernel", Aliases: []string{"k"}, Usage: "the kernel function to run (FILE.cl)"},
	&cli.StringFlag{Name: "size", Aliases: []string{"n"}, Usage: "problem size N in elements (1Mi, 4K, 2^20); a comma list sweeps; FILE.cl expressions may use N"},
	&cli.StringFlag{Name: "global", Aliases: []string{"g"}, Usage: "global work size, 1-3 comma-separated expressions (4096,4096 or N)"},
	&cli.StringFlag{Name: "local", Aliases: []string{"l"}, Usage: "local work size (default: the driver picks)"},
	&cli.StringSliceFlag{Name: "arg", Aliases: []string{"a"}, Usage: "a kernel argument, once per argument in order (see below)"},
	&cli.StringSliceFlag{Name: "D", Usage: "a preprocessor definition for the build: -D TILE=16"},
	&cli.StringSliceFlag{Name: "I", Usage: "an include folder for the build"},
	&cli.StringFlag{Name: "options", Usage: "more build options, e.g. -cl-fast-relaxed-math"},
	&cli.StringFlag{Name: "bytes", Usage: "bytes moved per launch, an expression (2*N*4), for GB/s"},
	&cli.StringFlag{Name: "flops", Usage: "floating-point operations per launch, an expression (2*N), for GFLOP/s"},
	formatFlag("table", "json"),
	&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the full result file (JSON) here, benchmark by benchmark"},
	&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "also print what the driver wrote to stderr while building (compiler warnings)"},
}, append(measureFlags, cacheFlags...)...)

func init() {
	register(&cli.Command{
		Name:      "run",
		Usage:     "measure a built-in kernel, a kernel of yours (FILE.cl) or a spec file (FILE.yaml)",
		ArgsUsage: "BUILTIN | FILE.cl | FILE.yaml",
		Description: "Warms up, then takes samples of at least --min-sample-time each (batches of back-to-back\n" +
			"   launches for short kernels) until the median is known within --max-noise, and prints min,\n" +
			"   median, mean, geomean, CV and throughput. The cold first launch and first-touch costs are\n" +
			"   reported apart. Built-ins are checked against a CPU reference.\n\n" +
			"   Examples:\n" +
			"     clmeter run saxpy --size 16Mi\n" +
			"     clmeter run blur.cl --kernel blur --global 4096,4096 --local 16,16 \\\n" +
			"       --arg buf:float:4096*4096:rand --arg buf:float:4096*4096:zero:out --arg int:4096 \\\n" +
			"       --arg local:float:256 -D TILE=16 -I include/\n" +
			"     clmeter run sweep.yaml -o results.json\n\n" +
			"   BUILT-INS: " + strings.Join(clkernels.Names(), ", ") + "\n\n" +
			"   ARGUMENTS (" + indent(spec.ArgSyntax, "   ") + ")\n\n   " + indent(spec.FileSyntax, "   "),
		Flags: runFlags,
		Action: func(c *cli.Context) error {
			plan, err := planRun(c)
			if err != nil {
				return err
			}
			defer plan.mgr.Close()
			return executeRun(c.Context, plan, c.App.Writer, c.App.ErrWriter)
		},
	})
}

func indent(s, prefix string) string { return strings.ReplaceAll(s, "\n", "\n"+prefix) }

// A runPlan is a checked 'clmeter run': what to measure, where, and how.
type runPlan struct {
	mgr      *runtime.Manager
	items    []runItem
	settings measure.Settings
	format   string
	output   string
	command  []string

	kernelTimeout time.Duration
	noDataWarmup  bool
	syncEach      bool
	verbose       bool
}

// A runItem is one benchmark on one device, made only when it runs.
type runItem struct {
	name   string
	kind   string
	params []results.Param
	device *runtime.Device
	make   func() (*runtime.KernelBenchmark, error)
}

// planRun reads run's flags and argument and checks everything that can be
// checked before a device is touched.
func planRun(c *cli.Context) (*runPlan, error) {
	if c.NArg() != 1 {
		return nil, usageErr("'clmeter run' takes one target (a built-in: %s; a FILE.cl; or a FILE.yaml), got %d", strings.Join(clkernels.Names(), ", "), c.NArg())
	}
	target := c.Args().First()
	format, err := checkFormat(c, "table", "json")
	if err != nil {
		return nil, err
	}
	settings, err := measureSettings(c)
	if err != nil {
		return nil, err
	}
	plan := &runPlan{settings: settings, format: format, output: c.String("output"), command: os.Args,
		kernelTimeout: c.Duration("kernel-timeout"), noDataWarmup: c.Bool("no-data-warmup"), syncEach: c.Bool("sync-each"), verbose: c.Bool("verbose")}
	if plan.output != "" {
		if err := checkWritable(plan.output); err != nil {
			return nil, err
		}
	}
	var sizes []int64
	if s := c.String("size"); s != "" {
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
		if c.IsSet("kernel") || c.IsSet("global") || c.IsSet("arg") {
			return nil, usageErr("a spec file holds the kernel, sizes and arguments: drop --kernel, --global and --arg")
		}
		if kernel, err = spec.LoadFile(target); err != nil {
			return nil, withCode(exitUsage, err)
		}
		if sizes != nil {
			return nil, usageErr("a spec file sweeps its own axes: drop --size")
		}
	case ext == ".cl":
		if kernel, err = userKernel(c, target, sizes); err != nil {
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
		for _, f := range []string{"kernel", "global", "local", "arg", "D", "I", "options", "bytes", "flops"} {
			if c.IsSet(f) {
				return nil, usageErr("--%s is for your own kernels (FILE.cl); built-in %s sets its own", f, target)
			}
		}
		builtin, isBuiltin = b, true
	}

	plan.mgr = runtime.NewManager()
	if err := setupCache(c, plan.mgr); err != nil {
		return nil, err
	}
	devs, err := plan.mgr.Select(c.String("device"))
	if err != nil {
		plan.mgr.Close()
		return nil, err
	}
	for _, dev := range devs {
		dev := dev
		if isBuiltin {
			ns := sizes
			if ns == nil {
				ns = []int64{builtin.DefaultSize(dev)}
			}
			for _, n := range ns {
				n := n
				plan.items = append(plan.items, runItem{
					name: builtin.Name, kind: "run", device: dev,
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

// userKernel builds the description of FILE.cl from the flags.
func userKernel(c *cli.Context, path string, sizes []int64) (*spec.Kernel, error) {
	src, err := spec.ReadSource(path)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	k := &spec.Kernel{
		SourcePath: path, Source: src, Kernel: c.String("kernel"),
		Global: c.String("global"), Local: c.String("local"),
		Bytes: c.String("bytes"), Flops: c.String("flops"),
		Options: spec.BuildOptions(c.StringSlice("D"), c.StringSlice("I"), c.String("options")),
	}
	for _, a := range c.StringSlice("arg") {
		as, err := spec.ParseArg(a)
		if err != nil {
			return nil, withCode(exitUsage, err)
		}
		k.Args = append(k.Args, as)
	}
	if sizes != nil {
		k.Axes = []spec.Axis{{Name: "N", Values: sizes}}
	}
	if err := k.Check(); err != nil {
		return nil, withCode(exitUsage, err)
	}
	return k, nil
}

// checkWritable fails when path's folder does not take a new file, so that a bad
// -o is found before anything is measured. It leaves nothing behind.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usageErr("-o %s is a folder: name a file", path)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".clmeter-probe-*")
	if err != nil {
		return usageErr("-o %s: cannot write there: %v", path, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// executeRun measures every item in turn, printing the table at the end and
// appending each finished benchmark to the result file (so Ctrl-C keeps them).
func executeRun(ctx context.Context, plan *runPlan, stdout, stderr io.Writer) error {
	var w *results.Writer
	file := results.NewFile(results.ToolInfo{Name: "clmeter", Version: version}, plan.command)
	var done []results.Benchmark
	invalid := 0
	progress := progressWriter(stderr)
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
		if rb.Measurement != nil && rb.Measurement.StopReason == measure.StopCanceled {
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
		if err != nil {
			// The benchmark failed after setup: keep what finished, report it.
			writeRunReport(stdout, plan.format, file, done)
			return err
		}
	}
	if err := writeRunReport(stdout, plan.format, file, done); err != nil {
		return err
	}
	for _, b := range done {
		if plan.verbose && plan.format == "table" && b.Program != nil && b.Program.DriverOutput != "" {
			fmt.Fprintf(stdout, "driver output while building %s:\n%s\n", b.Program.Source, b.Program.DriverOutput)
		}
	}
	if ctx.Err() != nil {
		msg := fmt.Sprintf("interrupted after %d of %d benchmarks", len(done), len(plan.items))
		if plan.output != "" && len(done) > 0 {
			msg += "; the finished ones are in " + plan.output
		}
		return withCode(exitInterrupted, errors.New(msg))
	}
	if invalid > 0 {
		return withCode(exitInvalid, fmt.Errorf("%d result(s) failed validation against the CPU reference: see INVALID above", invalid))
	}
	return nil
}

// measureItem makes, measures and records one benchmark. A setup failure (bad
// build, bad arguments) returns no benchmark and the error.
func measureItem(ctx context.Context, plan *runPlan, it runItem, progress func(string, measure.Progress)) (*results.Benchmark, error) {
	s := plan.settings
	kb, err := it.make()
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	kb.Timeout = plan.kernelTimeout
	kb.OnHang = exitOnHang
	kb.NoDataWarmup = plan.noDataWarmup
	kb.HostOnly = s.Timer == measure.TimerHost
	kb.SyncEach = plan.syncEach
	label := it.name
	for _, p := range it.params {
		label += " " + p.Name + "=" + p.Value
	}
	if progress != nil {
		s.Progress = func(p measure.Progress) { progress(label, p) }
	}
	res, err := measure.Run(ctx, kb.Measurable(), s)
	if progress != nil {
		progress("", measure.Progress{})
	}
	if res == nil || (err != nil && len(res.Samples) == 0 && res.StopReason != measure.StopCanceled) {
		if err == nil {
			err = errors.New("no result")
		}
		return nil, err
	}
	rb := &results.Benchmark{Name: it.name, Kind: it.kind, Device: it.device.Describe(), Measurement: res}
	for _, p := range it.params {
		rb.SetParam(p.Name, p.Value)
	}
	rb.Program = kb.Build.ProgramInfo(kb.Source.Name)
	if kb.Local != nil {
		rb.SetParam("local", joinInts(kb.Local))
	}
	rb.SetParam("global", joinInts(kb.Global))
	if err != nil {
		rb.Error = err.Error()
	}
	return rb, err
}

// exitOnHang reports a kernel the device never finished and ends the process:
// OpenCL cannot stop a running kernel. Result files hold what finished before.
func exitOnHang(err error) {
	code := exitError
	if errors.Is(err, context.Canceled) {
		code = exitInterrupted
	}
	fmt.Fprintf(os.Stderr, "clmeter: %v\n", err)
	os.Exit(code)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// progressWriter returns a progress line printer for a terminal stderr, nil
// otherwise (progress is silent when piped or in CI).
func progressWriter(stderr io.Writer) func(string, measure.Progress) {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(label string, p measure.Progress) {
		if label == "" {
			fmt.Fprint(stderr, "\r\033[K")
			return
		}
		noise := "-"
		if p.Noise > 0 {
			noise = fmt.Sprintf("±%.2f%% (target %.2f%%)", 100*p.Noise, 100*p.Target)
		}
		fmt.Fprintf(stderr, "\r\033[K%s: %s, %d samples, noise %s, %s", label, p.Stage, p.Samples, noise, p.Elapsed.Round(time.Millisecond))
	}
}

// writeRunReport prints the finished benchmarks as a table or JSON.
func writeRunReport(w io.Writer, format string, file results.File, done []results.Benchmark) error {
	if format == "json" {
		file.Benchmarks = done
		_, err := file.WriteTo(w)
		return err
	}
	if len(done) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KERNEL\tPARAMS\tDEVICE\tLAUNCHES/SAMPLE\tSAMPLES\tMIN\tMEDIAN\tMEAN\tGEOMEAN\tCV\tTHROUGHPUT\tSTOP")
	var notes []string
	for _, b := range done {
		m := b.Measurement
		var params []string
		for _, p := range b.OrderedParams() {
			params = append(params, p.Name+"="+p.Value)
		}
		name := b.Name
		if m.Valid != nil && !*m.Valid {
			name += " INVALID"
		}
		s := m.Summary
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%.2f%%\t%s\t%s\n", name, strings.Join(params, " "), b.Device.Name,
			launchesRange(m), s.N, fmtDur(s.Min), fmtDur(s.Median), fmtDur(s.Mean), fmtDur(s.Geomean), 100*s.CV, throughput(m), m.StopReason)
		prefix := b.Name + " " + strings.Join(params, " ") + ": "
		notes = append(notes, fmt.Sprintf("%scold first launch %s; host data %s, upload %s, first touch %s; timer %s (resolution %s); build %s%s",
			prefix, fmtDur(firstLaunch(m)), fmtDur(m.HostPrep), fmtDur(m.Upload), fmtDur(m.FirstTouch), m.Timer, m.TimerResolution, fmtDur(b.Program.BuildTime), fromCache(b.Program)))
		if m.Phases != nil {
			notes = append(notes, fmt.Sprintf("%sphases (median, host timer): copy-in %s, compute %s, copy-out %s, total %s", prefix,
				fmtDur(m.Phases.CopyIn.Median), fmtDur(m.Phases.Compute.Median), fmtDur(m.Phases.CopyOut.Median), fmtDur(m.Phases.Total.Median)))
		}
		if m.ValidationError != "" {
			notes = append(notes, prefix+"INVALID: "+m.ValidationError)
		}
		for _, warn := range m.AllWarnings() {
			notes = append(notes, prefix+"warning: "+warn)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, "  "+n)
	}
	return nil
}

func fromCache(p *results.ProgramInfo) string {
	if p != nil && p.FromCache {
		return " (from clmeter's binary cache)"
	}
	return ""
}

func firstLaunch(m *measure.Result) time.Duration {
	if m.Cold.Device > 0 {
		return m.Cold.Device
	}
	return m.Cold.Host
}

func launchesRange(m *measure.Result) string {
	if len(m.Samples) == 0 {
		return "-"
	}
	lo, hi := m.Samples[0].Launches, m.Samples[0].Launches
	for _, s := range m.Samples {
		lo, hi = min(lo, s.Launches), max(hi, s.Launches)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

func throughput(m *measure.Result) string {
	if t := throughputText(m.Throughput, "%.2f"); t != "" {
		return t
	}
	return "-"
}

// throughputText writes t's figures with the number format given ("%.2f",
// "%.4g"): GB/s, then operations per second ("" when there are none).
func throughputText(t *measure.Throughput, num string) string {
	if t == nil {
		return ""
	}
	var parts []string
	if t.GBPerSecond > 0 {
		parts = append(parts, fmt.Sprintf(num+" GB/s", t.GBPerSecond))
	}
	if t.GOpsPerSecond > 0 {
		switch unit := t.OpsUnit; unit {
		case "launch":
			parts = append(parts, fmt.Sprintf(num+" launches/s", t.GOpsPerSecond*1e9))
		case "":
			parts = append(parts, fmt.Sprintf(num+" Gop/s", t.GOpsPerSecond))
		default:
			parts = append(parts, fmt.Sprintf(num+" G%s/s", t.GOpsPerSecond, unit))
		}
	}
	return strings.Join(parts, ", ")
}

// fmtDur writes a duration with 4 significant digits in a fitting unit.
func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.4gus", float64(d)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.4gms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.4gs", d.Seconds())
}
