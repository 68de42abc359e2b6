package main

import (
	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/runner"
)

func init() {
	// --device without CLMETER_DEVICE: show lists every stored profile and
	// reset forgets nothing unless told which.
	device := &cli.StringFlag{Name: "device", Aliases: []string{"d"}, Usage: "the devices whose profiles to act on (the syntax of every command's --device)"}
	action := func(name string) cli.ActionFunc {
		return func(c *cli.Context) error {
			o := runner.ProfileOptions{Action: name, Device: c.String("device"), All: c.Bool("all"), Files: c.Args().Slice(), Dir: env.profileDir()}
			if c.Command.Name == "profile" && c.NArg() > 0 {
				return usageErr("%q is not a profile action: want show, rebuild or reset (see 'clmeter profile --help')", c.Args().First())
			}
			if name != runner.ProfileRebuild && c.NArg() > 0 {
				return usageErr("'clmeter profile %s' takes no arguments, got %q", name, c.Args().First())
			}
			if c.IsSet("format") || name != runner.ProfileReset {
				f, err := checkFormat(c, "table", "json")
				if err != nil {
					return err
				}
				o.Format = f
			}
			return runner.Profile(c.Context, o, c.App.Writer, c.App.ErrWriter)
		}
	}
	register(&cli.Command{
		Name:  "profile",
		Usage: "show, rebuild from result files, or reset the stored device profiles",
		Description: "A device profile holds a device's measured ceilings (global memory bandwidth by traffic\n" +
			"   pattern, local memory bandwidth, compute per precision, the launch floor, pinned transfers)\n" +
			"   that 'run' judges kernels against. Each figure is the best any measurement gave, with the\n" +
			"   benchmark, the command and the date it came from: the suites (peaks, streams, launch,\n" +
			"   transfers, quick, all) fold theirs in, and a later, weaker or smaller run never lowers one.\n" +
			"   A bandwidth whose working set fits in the caches is kept as the cache bandwidth, never as\n" +
			"   a memory ceiling. 'reset' forgets a profile; 'rebuild' makes it again from result files\n" +
			"   only (the way to lower a figure). Profiles live in the user cache folder/clmeter/profiles\n" +
			"   (CLMETER_PROFILE_DIR), one per platform, device and driver.",
		Action: action(runner.ProfileShow),
		Flags:  []cli.Flag{device, formatFlag("table", "json")},
		Subcommands: []*cli.Command{
			{
				Name:        "show",
				Usage:       "print the stored profiles (all of them, or those of --device), each figure with its origin",
				Description: "--format json prints the profiles as stored ([] when none).",
				Flags:       []cli.Flag{device, formatFlag("table", "json")},
				Action:      action(runner.ProfileShow),
			},
			{
				Name:      "rebuild",
				Usage:     "make the profiles again from result files alone, replacing the stored ones of their devices",
				ArgsUsage: "FILE...",
				Description: "Reads result files (clmeter suite ... -o FILE) and builds each device's profile from\n" +
					"   their benchmarks only: every figure the best of the files, its origin the file and its\n" +
					"   date. A file that cannot be read changes nothing.",
				Flags:  []cli.Flag{formatFlag("table", "json")},
				Action: action(runner.ProfileRebuild),
			},
			{
				Name:        "reset",
				Usage:       "forget the stored profile of --device, or every one with --all",
				Description: "The next suite, or run (a short profile), measures the device afresh.",
				Flags:       []cli.Flag{device, &cli.BoolFlag{Name: "all", Usage: "forget every stored profile"}},
				Action:      action(runner.ProfileReset),
			},
		},
	})
}
