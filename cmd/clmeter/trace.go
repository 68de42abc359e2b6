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

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
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
			sub, err := subRunContext(c, c.Args().First())
			if err != nil {
				return err
			}
			plan, err := planRun(sub)
			if err != nil {
				return err
			}
			defer plan.mgr.Close()
			if !c.IsSet("samples") {
				plan.settings.Samples = traceDefaultSamples
			}
			return runTrace(c.Context, plan, c.App.Writer, c.App.ErrWriter)
		},
	})
}

// traceCounting hides all but measure.Benchmark (phases and validation launch
// without events, so they would be missing from the timeline) and counts the
// launches.
type traceCounting struct {
	b        measure.Benchmark
	launches int
}

func (t *traceCounting) Setup(ctx context.Context) (measure.SetupInfo, error) { return t.b.Setup(ctx) }
func (t *traceCounting) Launch(ctx context.Context, k int) (measure.Batch, error) {
	t.launches += k
	return t.b.Launch(ctx, k)
}
func (t *traceCounting) Teardown() error { return t.b.Teardown() }

func runTrace(ctx context.Context, plan *runPlan, stdout, stderr io.Writer) error {
	rec := runtime.NewRecorder()
	tracers := map[*runtime.Device]*runtime.QueueTracer{}
	launches := 0
	var names []string
	var runErr error
	for _, it := range plan.items {
		q := tracers[it.device]
		if q == nil {
			var err error
			if q, err = rec.Queue(it.device); err != nil {
				return err
			}
			tracers[it.device] = q
		}
		kb, err := it.make()
		if err != nil {
			return withCode(exitUsage, err)
		}
		kb.NoDataWarmup, kb.Tracer = plan.noDataWarmup, q
		cb := &traceCounting{b: kb.Measurable()}
		res, err := measure.Run(ctx, cb, plan.settings)
		launches += cb.launches
		names = append(names, itemLabel(it))
		if err != nil {
			runErr = fmt.Errorf("%s: %w", itemLabel(it), err)
			break
		}
		fmt.Fprintf(stdout, "%s [%s]: %d launches traced, median %s\n", itemLabel(it), it.device.Info.Name, cb.launches, results.FormatDuration(res.Summary.Median))
	}
	for _, q := range tracers {
		if err := q.Calibrate(); err != nil {
			runErr = errors.Join(runErr, err)
		}
	}
	tr := rec.Trace("clmeter trace " + strings.Join(names, ", "))
	tr.Metadata["command_line"] = plan.command
	tr.Metadata["launches"] = launches
	tr.Metadata["clmeter_version"] = version
	if err := writeTraceFile(plan.output, tr); err != nil {
		return errors.Join(runErr, err)
	}
	for _, m := range tr.Metadata["clock_mappings"].([]map[string]any) {
		fmt.Fprintf(stdout, "%s: clock mapping by %s, uncertainty ±%s, drift %s over the run\n", m["queue"], m["method"],
			time.Duration(m["uncertainty_ns"].(int64)), time.Duration(m["drift_ns"].(int64)))
	}
	fmt.Fprintf(stdout, "wrote %s: %d host calls, %d device commands; open it in https://ui.perfetto.dev or chrome://tracing\n",
		plan.output, len(tr.Slices), len(tr.Commands))
	return runErr
}

// writeTraceFile writes the trace atomically: a temporary file renamed over path.
func writeTraceFile(path string, tr *results.Trace) error {
	tmp, err := os.CreateTemp(dirOf(path), ".clmeter-trace-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tr.WriteChrome(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	os.Chmod(tmp.Name(), 0o644)
	return os.Rename(tmp.Name(), path)
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i+1]
	}
	return "."
}
