package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/check"
	"github.com/clmeter/clmeter/runtime/icd"
	"github.com/clmeter/clmeter/target"
)

func init() {
	register(&cli.Command{
		Name:      "check",
		Usage:     "run kernels once on Oclgrind and report invalid accesses, data races, uninitialized values and divergence",
		ArgsUsage: "BUILTIN | FILE.cl | FILE.yaml ...",
		Description: "Runs each configuration once on Oclgrind, the OpenCL device simulator, in a child process\n" +
			"   with a private ICD vendor folder (your measurements never see the simulator) and its checks\n" +
			"   on: invalid memory accesses, data races, uninitialized values, barrier and work-group\n" +
			"   divergence, API misuse. Each finding gives its kind, the kernel, your file and line with the\n" +
			"   line quoted, the work-item (global, local, group ids) and the address or kernel argument.\n" +
			"   Exit status 3 when there is any finding.\n\n" +
			fmt.Sprintf("   Oclgrind simulates every work-item, so check has its own size: --size defaults to %d.\n", check.DefaultSize) +
			"   Targets take run's arguments.\n   " + indent(target.Rule, "   ") + "\n" +
			"   So 'clmeter check bugs/*.cl' checks each kernel as its spec file beside it says (bugs/oob.cl ->\n" +
			"   bugs/oob.yaml), at the smallest value of each axis --size and --set leave (--all: every one).\n" +
			"   Needs Oclgrind: " + icd.OclgrindInstall + ".\n\n" +
			"   Examples:\n" +
			"     clmeter check examples/bugs/*.cl\n" +
			"     clmeter check saxpy --size 4096\n" +
			"     clmeter check blur.cl --kernel blur --global 64,64 --local 16,16 --arg buf:float:64*64:rand ...\n" +
			"     clmeter run saxpy --check    (check first, measure only when clean)",
		Flags: flagList(kernelFlags, []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "check every combination of a spec file's axes, not only the smallest"},
			&cli.BoolFlag{Name: "uniform-writes", Usage: "also report write-write races where every work-item writes the same value"},
			&cli.DurationFlag{Name: "timeout", Value: check.DefaultTimeout, Usage: "give up on a configuration Oclgrind has not finished after this long"},
			&cli.IntFlag{Name: "max-errors", Value: check.DefaultMaxErrors, Usage: "Oclgrind stops reporting after this many errors per configuration"},
			formatFlag("text", "json"),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the findings here (JSON)"},
		}),
		Action: func(c *cli.Context) error {
			opts, err := checkOptions(c, c.Args().Slice())
			if err != nil {
				return err
			}
			return check.Run(c.Context, opts, c.App.Writer, c.App.ErrWriter)
		},
	})
	register(&cli.Command{
		Name:   "check-child",
		Usage:  "one configuration of 'clmeter check' on Oclgrind (internal): reads JSON on stdin",
		Hidden: true,
		Action: func(c *cli.Context) error { return check.Child(c.Context, os.Stdin, c.App.Writer) },
	})
}

// checkOptions reads check's flags (or run's, for run --check) into Options.
func checkOptions(c *cli.Context, targets []string) (check.Options, error) {
	opts := check.Options{Targets: targets, Command: recordedCommand(c), Version: version, OclgrindICD: env.oclgrindICD(), Flags: kernelDescription(c)}
	if c.Command.Name != "check" {
		opts.Flags = opts.Flags.WithoutN() // run --check: check's own size
	}
	exe, err := os.Executable()
	if err != nil {
		return opts, fmt.Errorf("check: cannot re-run clmeter: %w", err)
	}
	opts.Child = []string{exe, "check-child"}
	if len(targets) == 0 {
		return opts, usageErr("'clmeter check' takes one or more targets: a built-in, a FILE.cl or a FILE.yaml")
	}
	if c.Command.Name == "check" {
		if err := checkOnlyFlags(c, &opts); err != nil {
			return opts, err
		}
	}
	if _, _, err := check.Plan(opts.Targets, opts.Flags, opts.All); err != nil {
		return opts, err
	}
	return opts, nil
}

// checkOnlyFlags reads the flags check has and run has not.
func checkOnlyFlags(c *cli.Context, opts *check.Options) error {
	format, err := checkFormat(c, "text", "json")
	if err != nil {
		return err
	}
	opts.JSON = format == "json"
	opts.All, opts.UniformWrites = c.Bool("all"), c.Bool("uniform-writes")
	opts.Timeout, opts.MaxErrors = c.Duration("timeout"), c.Int("max-errors")
	if opts.Timeout <= 0 || opts.MaxErrors <= 0 {
		return usageErr("--timeout and --max-errors must be positive")
	}
	opts.Output = c.String("output")
	if err := checkOutput(c); err != nil {
		return err
	}
	return nil
}

// checkBeforeRun is run --check: the run's target is checked on Oclgrind at
// check's own size first, and measured only when clean.
func checkBeforeRun(c *cli.Context) error {
	opts, err := checkOptions(c, c.Args().Slice())
	if err != nil {
		return err
	}
	if err := check.Run(c.Context, opts, c.App.Writer, c.App.ErrWriter); err != nil {
		return fmt.Errorf("run --check: %w; nothing was measured", err)
	}
	fmt.Fprintln(c.App.Writer)
	return nil
}

// writeOclgrind is doctor's section on Oclgrind.
func writeOclgrind(w io.Writer, st *icd.OclgrindStatus) {
	fmt.Fprintln(w, "Oclgrind (for 'clmeter check')")
	switch {
	case st == nil:
		fmt.Fprintf(w, "  --   not installed: 'clmeter check' needs it (%s)\n", icd.OclgrindInstall)
	case st.Registered == "":
		fmt.Fprintf(w, "  ok   %s: installed, not in the vendor folder. 'clmeter check' loads it in a child process\n"+
			"       through a private vendor folder (OCL_ICD_VENDORS), so runs and suites never see the simulator\n", st.Library)
	default:
		fmt.Fprintf(w, "  ok   %s: registered by %s, so it is also a device for run and suite (a slow\n"+
			"       simulator: pick devices with --device); 'clmeter check' uses it through a private vendor folder\n", st.Library, st.Registered)
	}
}
