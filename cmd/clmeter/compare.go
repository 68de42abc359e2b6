package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

var compareFormats = []string{"table", "markdown", "json"}

// compareFlags are compare's own flags, then run's (for --interleave) but its
// --format.
var compareFlags = append([]cli.Flag{
	formatFlag(compareFormats...),
	&cli.StringFlag{Name: "fail-on-regression", Usage: "exit with status 5 when a benchmark is slower by more than this (5%, 0.05) with significance"},
	&cli.Float64Flag{Name: "alpha", Value: results.DefaultAlpha, Usage: "significance level of the Mann-Whitney U test"},
	&cli.BoolFlag{Name: "ignore-device", Usage: "match benchmarks by name and parameters only (to compare two devices)"},
	&cli.BoolFlag{Name: "ignore-name", Usage: "match benchmarks by parameters (and device) only (to compare two kernels over the same sizes)"},
	&cli.BoolFlag{Name: "interleave", Usage: "A and B are run targets (built-ins, FILE.cl, FILE.yaml): measure both now, alternating samples, then compare"},
}, withoutFlag(runFlags, "format")...)

func withoutFlag(fs []cli.Flag, name string) []cli.Flag {
	var out []cli.Flag
	for _, f := range fs {
		if f.Names()[0] != name {
			out = append(out, f)
		}
	}
	return out
}

func init() {
	register(&cli.Command{
		Name:      "compare",
		Usage:     "compare two sets of results (or measure two kernels interleaved) with significance tests",
		ArgsUsage: "OLD.json[,OLD2.json] NEW.json[,NEW2.json] | --interleave A B",
		Description: "Matches benchmarks by name, parameters and device (samples of the same benchmark in\n" +
			"   several files of a side are pooled). Per pair: the ratio of medians new/old with a confidence\n" +
			"   interval (percentile bootstrap, 2000 resamples, seeded), the Mann-Whitney U p-value\n" +
			"   and a verdict: faster, slower or ~ (no difference at --alpha). A geomean of the ratios\n" +
			"   ends the table; benchmarks found on one side only are listed.\n\n" +
			"   --interleave A B measures A and B in this process, alternating their samples (ABBA), so\n" +
			"   that drift hits both alike, and compares B against A; run's flags apply (size, device,\n" +
			"   samples ...) and -o keeps both results.\n\n" +
			"   Examples:\n" +
			"     clmeter compare old.json new.json --fail-on-regression 5%\n" +
			"     clmeter compare --interleave copy triad --size 4Mi\n\n   " + exitHelp,
		Flags: compareFlags,
		Action: func(c *cli.Context) error {
			format, err := checkFormat(c, compareFormats...)
			if err != nil {
				return err
			}
			opts := compareOptions{Format: format, Alpha: c.Float64("alpha"), IgnoreDevice: c.Bool("ignore-device"), IgnoreName: c.Bool("ignore-name"), Threshold: -1}
			if s := c.String("fail-on-regression"); s != "" {
				if opts.Threshold, err = parsePercent(s); err != nil {
					return usageErr("--fail-on-regression: %v", err)
				}
			}
			if opts.Alpha <= 0 || opts.Alpha >= 1 {
				return usageErr("--alpha must be between 0 and 1, got %v", opts.Alpha)
			}
			if c.NArg() != 2 {
				return usageErr("'clmeter compare' takes two arguments (OLD NEW, or A B with --interleave), got %d", c.NArg())
			}
			if c.Bool("interleave") {
				return runCompareInterleaved(c, opts)
			}
			opts.Old = strings.Split(c.Args().Get(0), ",")
			opts.New = strings.Split(c.Args().Get(1), ",")
			return runCompare(c.Context, opts, c.App.Writer, c.App.ErrWriter)
		},
	})
}

type compareOptions struct {
	Old, New     []string
	Format       string
	Alpha        float64
	IgnoreDevice bool
	IgnoreName   bool
	// Threshold is --fail-on-regression as a fraction; negative when not set.
	Threshold float64
}

// parsePercent reads "5%" as 0.05 and "0.05" as 0.05.
func parsePercent(s string) (float64, error) {
	t := strings.TrimSpace(s)
	div := 1.0
	if strings.HasSuffix(t, "%") {
		t, div = strings.TrimSuffix(t, "%"), 100
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("want a percentage like 5%% or a fraction like 0.05, got %q", s)
	}
	return v / div, nil
}

func runCompare(ctx context.Context, opts compareOptions, stdout, stderr io.Writer) error {
	old, badOld, err := readResultFiles(opts.Old, stderr)
	if err != nil {
		return fmt.Errorf("old: %w", err)
	}
	nw, badNew, err := readResultFiles(opts.New, stderr)
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	cmp := results.Compare(old, nw, results.CompareOptions{Alpha: opts.Alpha, IgnoreDevice: opts.IgnoreDevice, IgnoreName: opts.IgnoreName})
	if err := writeComparison(stdout, cmp, opts.Format); err != nil {
		return err
	}
	if err := checkRegressions(cmp, opts.Threshold); err != nil {
		return err
	}
	if bad := badOld + badNew; bad > 0 {
		return fmt.Errorf("%d result file(s) could not be read (see above)", bad)
	}
	if len(cmp.Pairs) == 0 {
		return errors.New("no benchmark is in both OLD and NEW (match is by name, parameters and device; --ignore-device drops the device, --ignore-name the name)")
	}
	return nil
}

func writeComparison(w io.Writer, c *results.Comparison, format string) error {
	switch format {
	case "markdown":
		return c.WriteMarkdown(w)
	case "json":
		return c.WriteJSON(w)
	}
	return c.WriteTable(w)
}

// checkRegressions returns an exitRegression error naming the pairs slower by
// more than threshold (none when threshold is negative).
func checkRegressions(c *results.Comparison, threshold float64) error {
	if threshold < 0 {
		return nil
	}
	regs := c.Regressions(threshold)
	if len(regs) == 0 {
		return nil
	}
	var names []string
	for _, p := range regs {
		names = append(names, fmt.Sprintf("%s %+.1f%%", p.Key, 100*(p.Ratio-1)))
	}
	return withCode(exitRegression, fmt.Errorf("%d regression(s) over %g%%: %s", len(regs), 100*threshold, strings.Join(names, "; ")))
}

// subRunContext returns a context that reads run's flags as c has them, with
// target as its one argument, for planRun.
func subRunContext(c *cli.Context, target string) (*cli.Context, error) {
	set := flag.NewFlagSet("run", flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range runFlags {
		if err := f.Apply(set); err != nil {
			return nil, err
		}
	}
	for _, f := range runFlags {
		name := f.Names()[0]
		if name == "format" || !c.IsSet(name) {
			continue
		}
		var vals []string
		if _, ok := f.(*cli.StringSliceFlag); ok {
			vals = c.StringSlice(name)
		} else {
			vals = []string{fmt.Sprint(c.Value(name))}
		}
		for _, v := range vals {
			if err := set.Set(name, v); err != nil {
				return nil, usageErr("--%s: %v", name, err)
			}
		}
	}
	if err := set.Parse([]string{target}); err != nil {
		return nil, usageErr("%v", err)
	}
	sub := cli.NewContext(c.App, set, c)
	sub.Context = c.Context
	sub.Command = c.Command
	return sub, nil
}

// runCompareInterleaved measures A and B alternately (measure.RunInterleaved)
// and compares B against A.
func runCompareInterleaved(c *cli.Context, opts compareOptions) error {
	ctx, stdout, stderr := c.Context, c.App.Writer, c.App.ErrWriter
	var plans [2]*runPlan
	for i, target := range []string{c.Args().Get(0), c.Args().Get(1)} {
		sub, err := subRunContext(c, target)
		if err != nil {
			return err
		}
		if plans[i], err = planRun(sub); err != nil {
			return err
		}
		defer plans[i].mgr.Close()
	}
	a, b := plans[0], plans[1]
	if len(a.items) != len(b.items) {
		return usageErr("--interleave: A makes %d benchmarks and B %d; give each the same sizes and devices", len(a.items), len(b.items))
	}
	if a.settings.Cold {
		return usageErr("--interleave does not take --cold")
	}
	file := results.NewFile(results.ToolInfo{Name: "clmeter", Version: version}, a.command)
	var w *results.Writer
	var pairs []results.Pair
	var measured []results.Benchmark
	for i := range a.items {
		ia, ib := a.items[i], b.items[i]
		ra, rb, err := measurePair(ctx, a, ia, ib)
		if err != nil {
			return err
		}
		if a.output != "" {
			if w == nil {
				if w, err = results.Create(a.output, file); err != nil {
					return err
				}
			}
			for _, rr := range []*results.Benchmark{ra, rb} {
				if err := w.Append(*rr); err != nil {
					return err
				}
			}
		}
		measured = append(measured, *ra, *rb)
		p := results.ComparePair(floats(ra.Measurement), floats(rb.Measurement), opts.Alpha)
		p.Key = results.Key{Name: itemLabel(ia) + " -> " + itemLabel(ib), Device: ra.Device.Name}
		pairs = append(pairs, p)
	}
	cmp := results.NewComparison(pairs, opts.Alpha)
	if err := writeComparison(stdout, cmp, opts.Format); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "clmeter: measured interleaved (ABBA): ratio = B / A\n")
	file.Benchmarks = measured
	if err := saveToStore(ctx, a.store, a.labels, a.output, file, stderr); err != nil {
		return err
	}
	return checkRegressions(cmp, opts.Threshold)
}

func itemLabel(it runItem) string {
	s := it.name
	for _, p := range it.params {
		s += " " + p.Name + "=" + p.Value
	}
	return s
}

func floats(m *measure.Result) []float64 {
	x := make([]float64, 0, len(m.Samples))
	for _, s := range m.Samples {
		if s.PerLaunch > 0 {
			x = append(x, float64(s.PerLaunch))
		}
	}
	return x
}

// measurePair makes both benchmarks and measures them interleaved.
func measurePair(ctx context.Context, plan *runPlan, ia, ib runItem) (*results.Benchmark, *results.Benchmark, error) {
	ka, err := ia.make()
	if err != nil {
		return nil, nil, withCode(exitUsage, fmt.Errorf("A: %w", err))
	}
	kb, err := ib.make()
	if err != nil {
		return nil, nil, withCode(exitUsage, fmt.Errorf("B: %w", err))
	}
	ka.Timeout, kb.Timeout = plan.kernelTimeout, plan.kernelTimeout
	ka.NoDataWarmup, kb.NoDataWarmup = plan.noDataWarmup, plan.noDataWarmup
	ra, rb, err := measure.RunInterleaved(ctx, ka.Measurable(), kb.Measurable(), plan.settings)
	if err != nil {
		return nil, nil, err
	}
	mk := func(it runItem, m *measure.Result) *results.Benchmark {
		b := &results.Benchmark{Name: it.name, Kind: "compare:interleaved", Device: it.device.Describe(), Measurement: m}
		for _, p := range it.params {
			b.SetParam(p.Name, p.Value)
		}
		return b
	}
	ba, bb := mk(ia, ra), mk(ib, rb)
	ba.Program, bb.Program = ka.Build.ProgramInfo(ka.Source.Name), kb.Build.ProgramInfo(kb.Source.Name)
	return ba, bb, nil
}
