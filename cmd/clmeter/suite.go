package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

func init() {
	flags := []cli.Flag{
		deviceFlag,
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the result file (JSON) here, benchmark by benchmark (Ctrl-C keeps what finished)"},
		formatFlag("table", "json"),
		&cli.DurationFlag{Name: "max-time", Usage: "stop sampling a benchmark after this long (default 1s for quick, 3s otherwise)"},
		&cli.IntFlag{Name: "min-samples", Value: 5, Usage: "take at least this many samples of each benchmark"},
		&cli.DurationFlag{Name: "min-sample-time", Value: measure.DefaultMinSampleTime, Usage: "each sample is a batch of back-to-back launches lasting at least this"},
		&cli.Float64Flag{Name: "max-noise", Value: measure.DefaultMaxNoise, Usage: "stop once the 95% confidence interval of the median is within this fraction of it"},
		&cli.IntFlag{Name: "samples", Usage: "take exactly this many samples of each benchmark (tests)"},
		&cli.StringFlag{Name: "warmup", Usage: "warm-up before sampling: a duration (200ms) or a count (3x); default one batch of --min-sample-time"},
		&cli.BoolFlag{Name: "small", Usage: "use the smallest sizes (smoke tests)"},
		&cli.StringFlag{Name: "max-size", Value: "256MiB", Usage: "largest transfer size (4KiB..256MiB, also capped by the device's largest allocation)"},
	}
	flags = append(append(flags, cacheFlags...), storeFlags...)
	register(&cli.Command{
		Name:      "suite",
		Usage:     "run a built-in suite: " + strings.Join(suiteChoices(), ", "),
		ArgsUsage: "[SUITE]",
		Description: "Runs a suite of built-in benchmarks on each selected device and prints a table per\n" +
			"   suite (benchmark, params, median, throughput, % of the device's measured peak, CV,\n" +
			"   warnings). 'quick' (the default) is a one-minute subset ending with a summary.\n\n" +
			suiteHelp(),
		Flags: flags,
		Action: func(c *cli.Context) error {
			opts, err := suiteOptionsFrom(c)
			if err != nil {
				return err
			}
			m := runtime.NewManager()
			defer m.Close()
			if err := setupCache(c, m); err != nil {
				return err
			}
			return runSuite(c.Context, m, opts, c.App.Writer, c.App.ErrWriter)
		},
	})
}

func suiteChoices() []string {
	return append(append([]string{}, clkernels.SuiteOrder...), "quick", "all")
}

func suiteHelp() string {
	var b strings.Builder
	b.WriteString("SUITES:\n")
	for _, n := range suiteChoices() {
		if s, ok := clkernels.LookupSuite(n); ok {
			fmt.Fprintf(&b, "   %-10s %s\n", n, s.Description)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// suiteOptions is what 'clmeter suite' was asked to do.
type suiteOptions struct {
	Suite    string
	Device   string
	Output   string
	Format   string
	Settings measure.Settings
	Small    bool
	MaxSize  int64
	Command  []string
	// Store is --store ("" for none), Labels --label.
	Store  string
	Labels map[string]string
}

func suiteOptionsFrom(c *cli.Context) (suiteOptions, error) {
	o := suiteOptions{Suite: "quick", Device: c.String("device"), Output: c.String("output"), Small: c.Bool("small"), Command: os.Args}
	if c.NArg() > 1 {
		return o, usageErr("'clmeter suite' takes one suite name, got %d arguments", c.NArg())
	}
	if c.NArg() == 1 {
		o.Suite = strings.ToLower(c.Args().First())
	}
	if _, ok := clkernels.LookupSuite(o.Suite); !ok {
		return o, usageErr("no suite %q: want one of %s", o.Suite, strings.Join(suiteChoices(), ", "))
	}
	f, err := checkFormat(c, "table", "json")
	if err != nil {
		return o, err
	}
	o.Format = f
	if o.Store, o.Labels, err = storeTarget(c); err != nil {
		return o, err
	}
	size, err := runtime.ParseSize(c.String("max-size"))
	if err != nil || size <= 0 {
		return o, usageErr("--max-size: want a size like 64MiB, got %q", c.String("max-size"))
	}
	o.MaxSize = size
	w, err := measure.ParseWarmup(c.String("warmup"))
	if err != nil {
		return o, usageErr("%v", err)
	}
	maxTime := c.Duration("max-time")
	if maxTime <= 0 {
		maxTime = 3 * time.Second
		if o.Suite == "quick" {
			maxTime = time.Second
		}
	}
	o.Settings = measure.Settings{
		Warmup: w, MinSampleTime: c.Duration("min-sample-time"), MinSamples: c.Int("min-samples"),
		MaxNoise: c.Float64("max-noise"), MaxTime: maxTime, Samples: c.Int("samples"),
	}
	if err := o.Settings.Validate(); err != nil {
		return o, usageErr("%v", err)
	}
	return o, nil
}

// runSuite runs the suite on every selected device, writing each benchmark to
// the result file as it finishes, then prints the report.
func runSuite(ctx context.Context, m *runtime.Manager, o suiteOptions, stdout, stderr io.Writer) error {
	devs, err := m.Select(o.Device)
	if err != nil {
		return withCode(exitNoDevice, err)
	}
	suite, _ := clkernels.LookupSuite(o.Suite)
	file := results.NewFile(results.ToolInfo{Name: "clmeter", Version: version}, o.Command)
	var w *results.Writer
	if o.Output != "" {
		if w, err = results.Create(o.Output, file); err != nil {
			return err
		}
	}
	exe, _ := os.Executable()
	var done []results.Benchmark
	invalid := 0
	copts := clkernels.Options{
		Settings: o.Settings, Small: o.Small, MaxSize: o.MaxSize, Executable: exe,
		Progress: func(name string) { fmt.Fprintf(stderr, "  %s\n", name) },
		Emit: func(b results.Benchmark) error {
			done = append(done, b)
			if strings.HasPrefix(b.Error, "validation failed") {
				invalid++
			}
			if w != nil {
				return w.Append(b)
			}
			return nil
		},
	}
	var runErr error
	for _, d := range devs {
		fmt.Fprintf(stderr, "suite %s on %s\n", o.Suite, d.Label())
		if runErr = suite.Run(ctx, d, copts); runErr != nil {
			break
		}
	}
	file.Benchmarks = done
	if o.Format == "json" {
		if err := writeJSON(stdout, file); err != nil {
			return err
		}
	} else {
		writeSuiteReport(stdout, done)
		if o.Output != "" {
			fmt.Fprintf(stdout, "\nresults: %s (%d benchmarks)\n", o.Output, len(done))
		}
	}
	if err := saveToStore(ctx, o.Store, o.Labels, o.Output, file, stderr); err != nil {
		return err
	}
	switch {
	case runErr != nil && errors.Is(runErr, context.Canceled):
		return withCode(exitInterrupted, fmt.Errorf("interrupted: %d benchmarks finished and kept", len(done)))
	case runErr != nil:
		return runErr
	case invalid > 0:
		return withCode(exitInvalid, fmt.Errorf("%d benchmark(s) failed validation against the CPU reference", invalid))
	}
	return nil
}
