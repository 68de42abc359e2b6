package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/timeline"
	"github.com/clmeter/clmeter/units"
)

// launchCounter counts the launches of the benchmark it wraps.
type launchCounter struct {
	measure.Benchmark
	launches int
}

func (t *launchCounter) Launch(ctx context.Context, k int) (measure.Batch, error) {
	t.launches += k
	return t.Benchmark.Launch(ctx, k)
}

// Flush and Abandon pass on to the counted benchmark (--cold, a kernel
// timeout).
func (t *launchCounter) Flush(ctx context.Context) error {
	if f, ok := t.Benchmark.(measure.Flusher); ok {
		return f.Flush(ctx)
	}
	return nil
}

func (t *launchCounter) Abandon() {
	if a, ok := t.Benchmark.(measure.Abandoner); ok {
		a.Abandon()
	}
}

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
		dev, _ := it.device.(*runtime.Device)
		q := tracers[dev]
		if q == nil {
			var err error
			if q, err = rec.Queue(dev); err != nil {
				return err
			}
			tracers[dev] = q
		}
		cb := &launchCounter{}
		hi := plan.harnessItem(it, "trace", nil)
		hi.Modes.Tracer = q
		hi.Wrap = func(b measure.Benchmark) measure.Benchmark { cb.Benchmark = b; return cb }
		rb, err := harness.Measure(ctx, hi)
		var makeErr *harness.MakeError
		if errors.As(err, &makeErr) {
			return fail.With(fail.Usage, makeErr.Err)
		}
		launches += cb.launches
		names = append(names, itemLabel(it))
		if err != nil {
			runErr = fmt.Errorf("%s: %w", itemLabel(it), err)
			break
		}
		fmt.Fprintf(stdout, "%s [%s]: %d launches traced, median %s%s\n", itemLabel(it), it.device.Describe().Name, cb.launches,
			units.Duration(rb.Measurement.Summary.Median), traceModes(rb))
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

// traceModes says how a traced benchmark was measured when not by default:
// " (timer host, sync-each)"; "" for the device timer and default modes.
func traceModes(b results.Benchmark) string {
	var modes []string
	if t := b.Measurement.Timer; t != measure.TimerDevice {
		modes = append(modes, "timer "+string(t))
	}
	if m, ok := b.Extra[harness.ExtraModes].(string); ok {
		modes = append(modes, m)
	}
	if len(modes) == 0 {
		return ""
	}
	return " (" + strings.Join(modes, ", ") + ")"
}
