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

// measureItem makes, measures and records one benchmark. A setup failure (bad
// build, bad arguments) returns no benchmark and the error.
func measureItem(ctx context.Context, plan *runPlan, it runItem, progress func(string, measure.Progress)) (*results.Benchmark, error) {
	var kb *runtime.KernelBenchmark
	hi := plan.harnessItem(it, it.kind, &kb)
	if progress != nil {
		label := itemLabel(it)
		hi.Settings.Progress = func(p measure.Progress) { progress(label, p) }
	}
	if plan.analysis == nil {
		plan.analysis = newAnalysis(plan.profileDir, plan.noProfile, plan.verbose, io.Discard)
	}
	dev, real := it.device.(*runtime.Device)
	if real {
		hi.Watch = func() harness.Watcher { return plan.analysis.watch(dev) }
	}
	rb, err := harness.Measure(ctx, hi)
	if progress != nil {
		progress("", measure.Progress{})
	}
	var makeErr *harness.MakeError
	if errors.As(err, &makeErr) {
		return nil, fail.With(fail.Usage, makeErr.Err)
	}
	var overrun *runtime.OverrunError
	if errors.As(err, &overrun) {
		// The guard zone caught it: one line, the kernel's fault, no figures.
		return nil, fail.With(fail.Invalid, overrun)
	}
	res := rb.Measurement
	if res == nil || (err != nil && len(res.Samples) == 0 && res.StopReason != measure.StopCanceled) {
		if err == nil {
			err = errors.New("no result")
		}
		return nil, err
	}
	if rb.HasFigure() && real && kb != nil {
		plan.analysis.annotate(ctx, dev, kb, it.precision, &rb)
	}
	return &rb, err
}
