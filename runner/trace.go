package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/timeline"
	"github.com/clmeter/clmeter/units"
)

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

// Trace runs a short measurement of opts.Target with a tracer on and writes a
// Chrome trace event file to opts.Output (required).
func Trace(ctx context.Context, opts RunOptions, stdout, stderr io.Writer) error {
	if opts.Output == "" {
		return usageErr("'clmeter trace' needs -o FILE.json for the trace")
	}
	output := opts.Output
	if err := results.CheckWritable(output); err != nil {
		return err
	}
	opts.Output = ""
	opts.Format = "table"
	plan, err := planRun(ctx, opts, stderr)
	if err != nil {
		return err
	}
	defer plan.mgr.CloseContext(ctx)
	if ok, err := rerunIsolated(ctx, opts.Child, planDevices(plan), stdout, stderr); ok {
		return err
	}
	plan.output = output
	rec := timeline.NewRecorder()
	tracers := map[*runtime.Device]*timeline.QueueTracer{}
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
			return fail.With(fail.Usage, err)
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
		fmt.Fprintf(stdout, "%s [%s]: %d launches traced, median %s\n", itemLabel(it), it.device.Info.Name, cb.launches, units.Duration(res.Summary.Median))
	}
	for _, q := range tracers {
		if err := q.Calibrate(); err != nil {
			runErr = errors.Join(runErr, err)
		}
	}
	tr := rec.Trace("clmeter trace " + strings.Join(names, ", "))
	tr.Metadata["command_line"] = plan.command
	tr.Metadata["launches"] = launches
	tr.Metadata["clmeter_version"] = plan.tool.Version
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

// writeTraceFile writes the trace atomically.
func writeTraceFile(path string, tr *results.Trace) error {
	return results.WriteAtomic(path, tr.WriteChrome)
}
