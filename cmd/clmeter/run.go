package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/isolate"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/runtime/spec"
	"github.com/clmeter/clmeter/target"
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
			return s, fail.With(fail.Usage, err)
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
		return s, fail.With(fail.Usage, err)
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
	s.KernelTimeout = c.Duration("kernel-timeout")
	if c.IsSet("samples") && s.Samples <= 0 {
		return s, usageErr("--samples must be positive, got %d", s.Samples)
	}
	if err := s.ValidateGiven(); err != nil {
		return s, fail.With(fail.Usage, err)
	}
	if note := s.SamplingNote(); note != "" {
		fmt.Fprintf(c.App.ErrWriter, "clmeter: %s\n", note)
	}
	return s, nil
}

var runFlags = flagList([]cli.Flag{deviceFlag}, kernelFlags, []cli.Flag{
	formatFlag(runner.RunFormats...),
	&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the full result file (JSON) here, benchmark by benchmark"},
	&cli.BoolFlag{Name: "no-profile", Usage: "do not measure a short device profile when none is stored (no roofline then)"},
	&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "also print each kernel's resources (work-group limits, local and private memory, registers), clocks, and what the driver wrote while building"},
	&cli.BoolFlag{Name: "check", Usage: "first run 'clmeter check' on the target (Oclgrind, check's own size); measure only when it finds nothing"},
}, measureFlags, cacheFlags, storeFlags, fleetFlags)

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
			"     clmeter run sweep.yaml -o results.json\n" +
			"     clmeter run sweep.yaml --size 1Mi --set T=16\n\n" +
			"   " + indent(target.Rule, "   ") + "\n\n" +
			"   BUILT-INS: " + strings.Join(clkernels.Names(), ", ") + "\n\n" +
			"   ARGUMENTS (" + indent(spec.ArgSyntax, "   ") + ")\n\n   " + indent(spec.FileSyntax, "   "),
		Flags: runFlags,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("'clmeter run' takes one target (a built-in: %s; a FILE.cl; or a FILE.yaml), got %d", strings.Join(clkernels.Names(), ", "), c.NArg())
			}
			if err := checkOutput(c); err != nil {
				return err
			}
			if c.Bool("check") && !isolate.Active() { // checked already when this is the isolated child
				if err := checkBeforeRun(c); err != nil {
					return err
				}
			}
			opts, err := runOptions(c, c.Args().First())
			if err != nil {
				return err
			}
			if opts.Fleet, err = fleetFrom(c); err != nil {
				return err
			}
			if opts.Format, err = checkFormat(c, runner.RunFormats...); err != nil {
				return err
			}
			return runner.Run(c.Context, opts, c.App.Writer, c.App.ErrWriter)
		},
	})
}

func indent(s, prefix string) string { return strings.ReplaceAll(s, "\n", "\n"+prefix) }

// runOptions reads run's flags (but --format) and target into runner.RunOptions;
// trace and compare --interleave share them.
func runOptions(c *cli.Context, name string) (runner.RunOptions, error) {
	settings, err := measureSettings(c)
	if err != nil {
		return runner.RunOptions{}, err
	}
	st, labels, err := storeTarget(c)
	if err != nil {
		return runner.RunOptions{}, err
	}
	return runner.RunOptions{
		Target: name, Flags: kernelDescription(c),
		NoDataWarmup: c.Bool("no-data-warmup"), SyncEach: c.Bool("sync-each"), Verbose: c.Bool("verbose"),
		SessionOptions: sessionOptions(c, settings),
		OutputOptions:  outputOptions(c),
		StoreOptions:   runner.StoreOptions{Store: st, Labels: labels},
		ProfileUse:     profileUse(c),
	}, nil
}
