package main

import (
	"errors"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/fail"
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
			"   --regressions finds change points in each series (E-Divisive energy statistic with a\n" +
			"   t-test at p <= 0.001, as Apache Otava) and prints each with the runs either side, its\n" +
			"   size and confidence. A change needs 3 runs after it to be found. --ci exits with status 5\n" +
			"   when a regression beyond --threshold starts within the newest --recent runs.\n\n" +
			"   Examples:\n" +
			"     clmeter history triad --device h100 --since 30d\n" +
			"     clmeter history 'peaks/*' --label branch=main --regressions --threshold 3% --ci",
		Flags: []cli.Flag{
			storeFlag,
			&cli.StringFlag{Name: "device", Aliases: []string{"d"}, Usage: "keep these stored devices, as --device everywhere: platform:device (1:0), name, vendor or driver text (h200, pocl), gpu, cpu, accelerator, all; several joined with commas"},
			&cli.StringFlag{Name: "since", Usage: "keep runs since a date (2025-03-01) or within an age (30d, 12h)"},
			&cli.StringSliceFlag{Name: "label", Usage: "keep runs labelled key=value (repeat: all must match)"},
			formatFlag(resultFormats...),
			&cli.BoolFlag{Name: "regressions", Usage: "print the change points of each series instead of its runs"},
			&cli.StringFlag{Name: "threshold", Value: "5%", Usage: "a change larger than this is a regression (slower) or an improvement (faster)"},
			&cli.BoolFlag{Name: "ci", Usage: "exit with status 5 when a regression beyond --threshold starts within the newest --recent runs"},
			&cli.IntFlag{Name: "recent", Value: store.DefaultRecent, Usage: "with --ci: how many of the newest runs of a series count as new"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageErr("'clmeter history' takes one benchmark pattern, got %d arguments (quote globs: 'peaks/*')", c.NArg())
			}
			if err := store.CheckPattern(c.Args().First()); err != nil {
				return err
			}
			format, err := checkFormat(c, resultFormats...)
			if err != nil {
				return err
			}
			since, err := store.ParseSince(c.String("since"), time.Now())
			if err != nil {
				return usageErr("%v", err)
			}
			labels, err := store.ParseLabels(c.StringSlice("label"))
			if err != nil {
				return usageErr("%v", err)
			}
			threshold, err := parsePercent(c.String("threshold"))
			if err != nil || threshold <= 0 {
				return usageErr("--threshold %q: want a positive percentage such as 5%% or a fraction such as 0.05", c.String("threshold"))
			}
			if c.Int("recent") < 1 {
				return usageErr("--recent must be at least 1")
			}
			opts := store.HistoryOptions{
				Filter: store.Filter{Pattern: c.Args().First(), Device: c.String("device"), Since: since, Labels: labels},
				Format: format, Regressions: c.Bool("regressions"), Threshold: threshold, CI: c.Bool("ci"), Recent: c.Int("recent"),
			}
			st, err := store.Open(c.Context, c.String("store"), store.Options{ReadOnly: true})
			if err != nil {
				return err
			}
			defer st.Close()
			err = store.WriteHistory(c.Context, st, opts, c.App.Writer)
			if errors.Is(err, store.ErrRegression) {
				return fail.With(fail.Regression, err)
			}
			return err
		},
	})
}
