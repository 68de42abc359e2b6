package main

import (
	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/target"
)

// traceDefaultSamples keeps a trace short: every launch gets an event and a
// slice, so a default run of a short kernel would make hundreds of thousands.
const traceDefaultSamples = 3

func init() {
	register(&cli.Command{
		Name:      "trace",
		Usage:     "record a timeline of host calls and device commands (Chrome trace JSON for Perfetto)",
		ArgsUsage: "BUILTIN | FILE.cl | FILE.yaml  (as for run)",
		Description: "Runs a short measurement (3 samples unless --samples says otherwise; run's flags apply)\n" +
			"   with a tracer on, and writes a Chrome trace event file for ui.perfetto.dev or\n" +
			"   chrome://tracing: a lane for the host thread (builds, writes, enqueues, finishes), a lane per\n" +
			"   queue with each command from START to END, and per command its stages (queued, submitted,\n" +
			"   running) as nested slices in a row per kernel. Device timestamps are mapped onto the host\n" +
			"   clock with clGetDeviceAndHostTimer (OpenCL 2.1+) or else a marker, before and after the run;\n" +
			"   the trace's metadata holds the mapping and its uncertainty.\n\n" +
			"   " + indent(target.Rule, "   ") + "\n\n" +
			"   Example:\n" +
			"     clmeter trace saxpy --size 1Mi -o trace.json",
		Flags: withoutFlag(runFlags, "format"),
		Action: func(c *cli.Context) error {
			if c.String("output") == "" {
				return usageErr("'clmeter trace' needs -o FILE.json for the trace")
			}
			if c.NArg() != 1 {
				return usageErr("'clmeter trace' takes one target, as run does, got %d", c.NArg())
			}
			if err := checkOutput(c); err != nil {
				return err
			}
			if err := noTraceOnlyFlags(c); err != nil {
				return err
			}
			opts, err := runOptions(c, c.Args().First())
			if err != nil {
				return err
			}
			if !c.IsSet("samples") {
				opts.Settings.Samples = traceDefaultSamples
			}
			return runner.Trace(c.Context, opts, c.App.Writer, c.App.ErrWriter)
		},
	})
}
