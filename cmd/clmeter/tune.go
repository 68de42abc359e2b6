package main

import (
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/target"
	"github.com/clmeter/clmeter/tune"
)

func init() {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "axis", Usage: "an axis to search (FILE.cl): --axis T=4,8,16"},
		&cli.DurationFlag{Name: "budget", Value: tune.DefaultBudget, Usage: "wall time for the search; configurations that started finish"},
		&cli.StringFlag{Name: "strategy", Value: tune.StrategyAuto, Usage: "auto (brute-force up to 64 configurations, else annealing), brute-force, random or annealing"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of random sampling and annealing"},
		&cli.Float64Flag{Name: "tolerance", Value: tune.DefaultTolerance, Usage: "largest relative difference of an output element from the first configuration's"},
		formatFlag("table", "json"),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the result file (JSON) here, configuration by configuration"},
	}
	register(&cli.Command{
		Name:      "tune",
		Usage:     "search a kernel's configurations (local sizes, -D values, any axis) for the fastest",
		ArgsUsage: "FILE.yaml | FILE.cl",
		Description: "Measures the configurations of a spec's axes (all of them when there are at most 64,\n" +
			"   else simulated annealing within --budget), checks each one's outputs against the first\n" +
			"   valid one's, skips invalid ones with the reason, and reports the best with its 95% CI and\n" +
			"   its speedup over the driver-chosen local size (Mann-Whitney test). Each configuration is\n" +
			"   measured with --max-time 2s unless set.\n\n" +
			"   Examples:\n" +
			"     clmeter tune examples/matmul/tune.yaml\n" +
			"     clmeter tune k.cl --kernel k --global N --local L --axis L=32,64,128,256 --size 1Mi \\\n" +
			"       --arg buf:float:N --budget 1m\n" +
			"     clmeter tune examples/matmul/tune.yaml --set N=512\n\n" +
			"   " + indent(target.Rule, "   "),
		Flags: flagList([]cli.Flag{deviceFlag}, kernelFlags, flags, measureFlags, cacheFlags),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("'clmeter tune' takes one FILE.yaml or FILE.cl, got %d arguments", c.NArg())
			}
			s, err := measureSettings(c)
			if err != nil {
				return err
			}
			// Zero is the package's default; given on the command line it is a mistake.
			if c.IsSet("budget") && c.Duration("budget") == 0 {
				return usageErr("--budget must be above zero, got 0s (the default is %s)", tune.DefaultBudget)
			}
			if c.IsSet("tolerance") && c.Float64("tolerance") == 0 {
				return usageErr("--tolerance must be a finite relative difference above zero, such as 1e-4 (the default), got 0")
			}
			if !c.IsSet("max-time") {
				s.MaxTime = 2 * time.Second
			}
			format, err := checkFormat(c, "table", "json")
			if err != nil {
				return err
			}
			if err := checkOutput(c); err != nil {
				return err
			}
			cache := cacheOptions(c)
			desc := kernelDescription(c)
			desc.Axes = c.StringSlice("axis")
			return tune.Run(c.Context, tune.Options{
				Target: c.Args().First(), Device: c.String("device"),
				Flags: desc, Budget: c.Duration("budget"),
				Strategy: strings.ToLower(c.String("strategy")), Seed: c.Uint64("seed"), Tolerance: c.Float64("tolerance"),
				NoDataWarmup: c.Bool("no-data-warmup"), SyncEach: c.Bool("sync-each"),
				Settings: s, Output: c.String("output"), Format: format,
				Cache: cache,
				Tool:  toolInfo(), Command: recordedCommand(c), Child: rerunCommand(c),
			}, c.App.Writer, c.App.ErrWriter)
		},
	})
}
