package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/units"
)

func init() {
	flags := []cli.Flag{
		deviceFlag,
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the result file (JSON) here, benchmark by benchmark (Ctrl-C keeps what finished)"},
		formatFlag(resultFormats...),
		&cli.DurationFlag{Name: "max-time", Usage: "stop sampling a benchmark after this long (default: the suite's own, 0.8s for quick, 1.5s for peaks, 3s otherwise)"},
		&cli.IntFlag{Name: "min-samples", Value: 5, Usage: "take at least this many samples of each benchmark"},
		&cli.DurationFlag{Name: "min-sample-time", Value: measure.DefaultMinSampleTime, Usage: "each sample is a batch of back-to-back launches lasting at least this"},
		&cli.Float64Flag{Name: "max-noise", Value: measure.DefaultMaxNoise, Usage: "stop once the 95% confidence interval of the median is within this fraction of it"},
		&cli.IntFlag{Name: "samples", Usage: "take exactly this many samples of each benchmark (tests)"},
		&cli.StringFlag{Name: "warmup", Usage: "warm-up before sampling: a duration (200ms) or a count (3x); default one batch of --min-sample-time"},
		&cli.BoolFlag{Name: "small", Usage: "use the smallest sizes (smoke tests)"},
		&cli.StringFlag{Name: "max-size", Value: "256MiB", Usage: "largest transfer size (4KiB..256MiB, also capped by the device's largest allocation)"},
		&cli.StringFlag{Name: "filter", Usage: "run only the benchmarks whose names match this regular expression (e.g. 'compute/(float|double)')"},
		&cli.StringFlag{Name: "max-memory", Usage: "lower the memory budget of one benchmark's buffers to this size (default: a quarter of the smaller of the device's memory and the host's available memory, each buffer within the device's largest allocation)"},
		&cli.BoolFlag{Name: "no-profile", Usage: "leave the stored device profile alone (peaks, streams, launch, transfers, quick and all update it)"},
		&cli.IntFlag{Name: "parallel", Usage: "measure at most N devices at once (default: every GPU at once, CPU devices alone after them; 1: one after another)"},
		&cli.DurationFlag{Name: "kernel-timeout", Value: time.Minute, Usage: "give up on a kernel the device has not finished after this long (0: wait for ever)"},
		&cli.StringFlag{Name: "outlier-tolerance", Value: "5%", Usage: "with several devices, flag one whose figure is worse than the median of its peers of the same model by more than this (5%, 0.05; above 0) and outside its noise"},
		&cli.BoolFlag{Name: "fail-on-outlier", Usage: "exit with status 6 when the node view flags a device (several devices selected)"},
	}
	flags = append(append(append(flags, cacheFlags...), storeFlags...), fleetFlags...)
	register(&cli.Command{
		Name:      "suite",
		Usage:     "run a built-in suite: " + strings.Join(runner.SuiteChoices(), ", "),
		ArgsUsage: "[SUITE]",
		Description: "Runs a suite of built-in benchmarks on each selected device and prints a table per\n" +
			"   suite (benchmark, params, median, throughput, % of the device's measured peak, CV,\n" +
			"   warnings). 'quick' (the default) is a one-minute subset ending with a summary.\n" +
			"   With several devices a node view follows: one row per benchmark, one column per device,\n" +
			"   a device worse than the median of its peers (same model) by more than --outlier-tolerance\n" +
			"   and outside its noise marked '!'.\n\n" +
			runner.SuiteHelp(),
		Flags: flags,
		Action: func(c *cli.Context) error {
			if err := checkOutput(c); err != nil {
				return err
			}
			opts, err := suiteOptionsFrom(c)
			if err != nil {
				return err
			}
			return runner.Suite(c.Context, opts, c.App.Writer, c.App.ErrWriter)
		},
	})
}

func suiteOptionsFrom(c *cli.Context) (runner.SuiteOptions, error) {
	o := runner.SuiteOptions{Suite: "quick", Small: c.Bool("small"), Filter: c.String("filter"),
		SessionOptions: sessionOptions(c, measure.Settings{}), OutputOptions: outputOptions(c), ProfileUse: profileUse(c)}
	if c.NArg() > 1 {
		return o, usageErr("'clmeter suite' takes one suite name, got %d arguments", c.NArg())
	}
	if c.NArg() == 1 {
		o.Suite = strings.ToLower(c.Args().First())
	}
	f, err := checkFormat(c, resultFormats...)
	if err != nil {
		return o, err
	}
	o.Format = f
	if o.OutlierTolerance, err = outlierTolerance(c); err != nil {
		return o, err
	}
	o.FailOnOutlier = c.Bool("fail-on-outlier")
	if o.Store, o.Labels, err = storeTarget(c); err != nil {
		return o, err
	}
	if o.Fleet, err = fleetFrom(c); err != nil {
		return o, err
	}
	size, err := units.ParseByteSize(c.String("max-size"))
	if err != nil || size <= 0 {
		return o, usageErr("--max-size: want a size like 64MiB, got %q", c.String("max-size"))
	}
	o.MaxSize = size
	if v := c.String("max-memory"); v != "" {
		mem, err := units.ParseByteSize(v)
		if err != nil || mem < 1<<20 {
			return o, usageErr("--max-memory: want a size of at least 1MiB like 512MiB, got %q", v)
		}
		o.MaxMemory = mem
	}
	w, err := measure.ParseWarmup(c.String("warmup"))
	if err != nil {
		return o, usageErr("%v", err)
	}
	maxTime := c.Duration("max-time")
	if c.IsSet("max-time") && maxTime <= 0 {
		return o, usageErr("--max-time must be above zero, got %s (the default is the suite's own: 0.8s for quick, 1.5s for peaks, 3s otherwise)", maxTime)
	}
	if c.IsSet("parallel") && c.Int("parallel") < 1 {
		return o, usageErr("--parallel must be 1 or more, got %d (leave it out to measure every GPU at once)", c.Int("parallel"))
	}
	o.Parallel = c.Int("parallel")
	if c.IsSet("samples") && c.Int("samples") <= 0 {
		return o, usageErr("--samples must be positive, got %d", c.Int("samples"))
	}
	o.Settings = measure.Settings{
		Warmup: w, MinSampleTime: c.Duration("min-sample-time"), MinSamples: c.Int("min-samples"),
		MaxNoise: c.Float64("max-noise"), MaxTime: maxTime, Samples: c.Int("samples"), KernelTimeout: c.Duration("kernel-timeout"),
		MaxLaunches: measure.DefaultMaxLaunches,
	}
	if c.Duration("kernel-timeout") < 0 {
		return o, usageErr("--kernel-timeout must not be negative")
	}
	given := o.Settings
	if given.MaxTime == 0 { // not given: each suite has its own
		given.MaxTime = measure.DefaultMaxTime
	}
	if err := given.ValidateGiven(); err != nil {
		return o, usageErr("%v", err)
	}
	if note := o.Settings.SamplingNote(); note != "" {
		fmt.Fprintf(c.App.ErrWriter, "clmeter: %s\n", note)
	}
	return o, nil
}

// outlierTolerance reads --outlier-tolerance: a percentage ("5%") or a
// fraction (0.05), above 0 and below 100%.
func outlierTolerance(c *cli.Context) (float64, error) {
	s := c.String("outlier-tolerance")
	tol, err := parsePercent(s)
	if err == nil {
		err = peers.CheckTolerance(tol)
	}
	if err != nil {
		return 0, usageErr("--outlier-tolerance %s: %v", s, err)
	}
	return tol, nil
}
