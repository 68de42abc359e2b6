package main

import (
	"errors"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/changepoint"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/history"
	"github.com/clmeter/clmeter/store"
)

func init() {
	register(&cli.Command{
		Name:      "history",
		Usage:     "the stored runs of benchmarks: medians with confidence intervals, and change points",
		ArgsUsage: "[BENCHMARK-PATTERN]",
		Description: "Shows each series (a benchmark and its parameters on one device and driver) run by run:\n" +
			"   median, 95% CI, samples, change from the previous run and labels. PATTERN is a glob over\n" +
			"   benchmark names (* any text, ? one character); without one it is the exact name.\n\n" +
			"   --regressions analyses each series (penalised segmentation into flat and drifting\n" +
			"   stretches, each change tested at --significance; docs/CHANGEPOINTS.md) and prints:\n" +
			"     step     a change of level, with the runs either side, its size and confidence;\n" +
			"              it needs --min-runs runs on each side to be found;\n" +
			"     drift    a stretch getting steadily slower or faster, once, with its slope per run\n" +
			"              (Theil-Sen) and since when (Mann-Kendall test at --significance);\n" +
			"     outlier  a run, or fewer than --min-runs runs, off the level that came back.\n" +
			"   Where that finds no change, or a drift, a step scan looks for one step, tested against\n" +
			"   the scatter between runs and against each run's own samples (its CI) at 50 times\n" +
			"   --significance per series. A Why line under the table explains each step and drift:\n" +
			"   the runs either side, the size with its 95% CI, the test, its p-value and its noise.\n" +
			"   A step or drift larger than --threshold is a regression (slower) or an improvement.\n" +
			"   --ci reports only findings beyond --threshold and exits with status 5 when a regression\n" +
			"   starts within the newest --recent runs (a drift: crosses --threshold there).\n\n" +
			"   Examples:\n" +
			"     clmeter history triad --device h100 --since 30d\n" +
			"     clmeter history 'peaks/*' --label branch=main --regressions --threshold 3% --ci",
		Flags:  historyFlags,
		Action: runHistory,
	})
}

// historyFlags are the flags of 'clmeter history'.
var historyFlags = []cli.Flag{
	storeFlag,
	&cli.StringFlag{Name: "device", Aliases: []string{"d"}, Usage: "keep these stored devices, as --device everywhere: platform:device (1:0), name, vendor or driver text (h200, pocl), gpu, cpu, accelerator, all; several joined with commas"},
	&cli.StringFlag{Name: "device-key", Usage: "keep one device by its key (uuid:..., as 'clmeter devices' and 'clmeter fleet view' show it) or its UUID (at least its first 8 digits): one GPU across runs and drivers"},
	&cli.StringFlag{Name: "since", Usage: "keep runs since a date (2025-03-01) or within an age (30d, 12h)"},
	&cli.StringSliceFlag{Name: "label", Usage: "keep runs labelled key=value (repeat: all must match)"},
	formatFlag(resultFormats...),
	&cli.BoolFlag{Name: "regressions", Usage: "print the steps, drifts and outliers of each series instead of its runs"},
	&cli.StringFlag{Name: "threshold", Value: "5%", Usage: "a step or drift larger than this is a regression (slower) or an improvement (faster); with --ci, smaller findings are not reported (0 reports all)"},
	&cli.IntFlag{Name: "min-runs", Value: changepoint.DefaultMinSize, Usage: "the fewest runs on each side of a step; shorter excursions that come back are outliers"},
	&cli.Float64Flag{Name: "significance", Value: changepoint.DefaultMaxPValue, Usage: "the p-value each step and drift must pass (smaller finds fewer)"},
	&cli.BoolFlag{Name: "ci", Usage: "exit with status 5 when a regression beyond --threshold starts within the newest --recent runs"},
	&cli.IntFlag{Name: "recent", Value: history.DefaultRecent, Usage: "with --ci: how many of the newest runs of a series count as new"},
}

// runHistory is 'clmeter history': it reads the flags and prints the series.
func runHistory(c *cli.Context) error {
	opts, err := historyOptions(c)
	if err != nil {
		return err
	}
	st, err := store.Open(c.Context, c.String("store"), store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	err = history.Write(c.Context, st, opts, c.App.Writer)
	if errors.Is(err, history.ErrRegression) {
		return fail.With(fail.Regression, err)
	}
	return err
}

// historyOptions checks history's argument and flags and reads them into
// history.Options.
func historyOptions(c *cli.Context) (history.Options, error) {
	if c.NArg() > 1 {
		return history.Options{}, usageErr("'clmeter history' takes one benchmark pattern, got %d arguments (quote globs: 'peaks/*')", c.NArg())
	}
	if err := store.CheckPattern(c.Args().First()); err != nil {
		return history.Options{}, err
	}
	format, err := checkFormat(c, resultFormats...)
	if err != nil {
		return history.Options{}, err
	}
	since, err := history.ParseSince(c.String("since"), time.Now())
	if err != nil {
		return history.Options{}, usageErr("%v", err)
	}
	labels, err := store.ParseLabels(c.StringSlice("label"))
	if err != nil {
		return history.Options{}, usageErr("%v", err)
	}
	threshold, err := parsePercent(c.String("threshold"))
	if err != nil || threshold < 0 {
		return history.Options{}, usageErr("--threshold %q: want a percentage such as 5%% (0 for every change) or a fraction such as 0.05", c.String("threshold"))
	}
	if c.Int("min-runs") < 2 {
		return history.Options{}, usageErr("--min-runs %d: want at least 2 runs on each side of a change", c.Int("min-runs"))
	}
	if p := c.Float64("significance"); !(p > 0 && p < 1) {
		return history.Options{}, usageErr("--significance %g: want a p-value between 0 and 1, such as 0.001", p)
	}
	if c.Int("recent") < 1 {
		return history.Options{}, usageErr("--recent must be at least 1")
	}
	if k := c.String("device-key"); k != "" && !strings.Contains(k, ":") && len(strings.TrimSpace(k)) < 8 {
		return history.Options{}, usageErr("--device-key %q: give a device key (uuid:...) or at least the first 8 digits of its UUID", k)
	}
	return history.Options{
		Filter: store.Filter{Pattern: c.Args().First(), Device: c.String("device"), DeviceKey: c.String("device-key"), Since: since, Labels: labels},
		Format: format, Regressions: c.Bool("regressions"), Threshold: threshold, CI: c.Bool("ci"), Recent: c.Int("recent"),
		Changes: changepoint.Settings{MinSize: c.Int("min-runs"), MaxPValue: c.Float64("significance")},
	}, nil
}
