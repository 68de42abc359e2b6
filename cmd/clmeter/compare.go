package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/results/compare"
	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/target"
)

// compareFlags are compare's own flags, then run's (for --interleave) but its
// --format.
var compareFlags = append([]cli.Flag{
	formatFlag(runner.CompareFormats...),
	&cli.StringFlag{Name: "fail-on-regression", Usage: "exit with status 5 when a benchmark is slower by more than this (5%, 0.05) with significance"},
	&cli.Float64Flag{Name: "alpha", Value: compare.DefaultAlpha, Usage: "significance level of the Mann-Whitney U test"},
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
			"   samples ...) and -o keeps both results.\n\n   " + indent(target.Rule, "   ") + "\n\n" +
			"   Examples:\n" +
			"     clmeter compare old.json new.json --fail-on-regression 5%\n" +
			"     clmeter compare --interleave copy triad --size 4Mi\n\n   " + exitHelp,
		Flags: compareFlags,
		Action: func(c *cli.Context) error {
			if err := checkOutput(c); err != nil {
				return err
			}
			opts := runner.CompareOptions{Format: strings.ToLower(c.String("format")), Alpha: c.Float64("alpha"),
				IgnoreDevice: c.Bool("ignore-device"), IgnoreName: c.Bool("ignore-name"), Threshold: -1}
			if s := c.String("fail-on-regression"); s != "" {
				var err error
				if opts.Threshold, err = parsePercent(s); err != nil {
					return usageErr("--fail-on-regression: %v", err)
				}
			}
			if c.NArg() != 2 {
				return usageErr("'clmeter compare' takes two arguments (OLD NEW, or A B with --interleave), got %d", c.NArg())
			}
			if c.Bool("interleave") {
				a, err := runOptions(c, c.Args().Get(0))
				if err != nil {
					return err
				}
				b := a
				b.Target = c.Args().Get(1)
				return runner.CompareInterleaved(c.Context, a, b, opts, c.App.Writer, c.App.ErrWriter)
			}
			if err := noMeasuringFlags(c); err != nil {
				return err
			}
			opts.Old = strings.Split(c.Args().Get(0), ",")
			opts.New = strings.Split(c.Args().Get(1), ",")
			return runner.Compare(c.Context, opts, c.App.Writer, c.App.ErrWriter)
		},
	})
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
