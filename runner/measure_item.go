package runner

import (
	"context"
	"errors"
	"io"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// harnessItem is it as the harness measures it, with the plan's settings and
// modes; kb receives the kernel benchmark once it is made (nil for a bench
// that is not a kernel).
func (plan *runPlan) harnessItem(it runItem, kind string, kb **runtime.KernelBenchmark) harness.Item {
	return harness.Item{
		Name: it.name, Kind: kind, Params: it.params, Device: it.device,
		Settings: plan.settings, RecordSizes: true,
		Modes: harness.Modes{SyncEach: plan.syncEach, NoDataWarmup: plan.noDataWarmup},
		Make: func() (harness.Bench, error) {
			if it.bench != nil {
				return it.bench()
			}
			k, err := it.make()
			if err != nil {
				return nil, err
			}
			if kb != nil {
				*kb = k
			}
			return harness.Kernel(k), nil
		},
	}
}

// step is it as a step of the run's harness.Sequence: measured on its
// device with the plan's modes, its clocks watched, its progress shown under
// its label, and, once it gave figures, its roofline and (verbose) resources
// set (analysis.annotate).
func (plan *runPlan) step(ctx context.Context, it runItem, progress func(string, measure.Progress)) harness.Step {
	var kb *runtime.KernelBenchmark
	hi := plan.harnessItem(it, it.kind, &kb)
	st := harness.Step{Base: hi.Record(), Device: it.device, Modes: hi.Modes, Make: hi.Make, RecordSizes: true}
	if progress != nil {
		label := itemLabel(it)
		st.Progress = func(p measure.Progress) { progress(label, p) }
	}
	if plan.analysis == nil {
		plan.analysis = newAnalysis(plan.profileDir, plan.noProfile, plan.verbose, io.Discard)
	}
	dev, real := it.device.(*runtime.Device)
	if real {
		st.Watch = func() harness.Watcher { return plan.analysis.watch(dev) }
	}
	st.Finish = func(rb *results.Benchmark) {
		if progress != nil {
			progress("", measure.Progress{})
		}
		if rb.HasFigure() && real && kb != nil {
			plan.analysis.annotate(ctx, dev, kb, it.precision, rb)
		}
	}
	return st
}

// runError is the error that stopped a run's sequence as the command says
// it: a benchmark that could not be made is the user's to fix (a bad build,
// bad arguments), and one whose kernel wrote outside its buffers is invalid.
func runError(err error) error {
	var makeErr *harness.MakeError
	if errors.As(err, &makeErr) {
		return fail.With(fail.Usage, makeErr.Err)
	}
	var overrun *runtime.OverrunError
	if errors.As(err, &overrun) {
		// The guard zone caught it: one line, the kernel's fault, no figures.
		return fail.With(fail.Invalid, overrun)
	}
	return err
}
