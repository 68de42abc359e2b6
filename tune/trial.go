package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/spec"
	"github.com/clmeter/clmeter/units"
)

func nanos(t *Trial) []float64 {
	var out []float64
	for _, s := range t.Bench.Measurement.Samples {
		out = append(out, float64(s.PerLaunch))
	}
	return out
}

// runTrial measures one configuration. local, when not nil, replaces the
// spec's local size (empty: the driver's choice).
func runTrial(ctx context.Context, k *spec.Kernel, dev *runtime.Device, in spec.Instance, local []int, ref *reference, o Options, stderr io.Writer) *Trial {
	t := &Trial{Label: in.Label()}
	it := harness.Item{Name: k.Kernel, Kind: "tune", Device: dev, Figures: []results.Figure{}, Settings: o.Settings,
		Modes: harness.Modes{SyncEach: o.SyncEach, NoDataWarmup: o.NoDataWarmup}}
	for i, n := range in.Names {
		it.Params = append(it.Params, results.Param{Name: n, Value: strconv.FormatInt(in.Values[i], 10)})
	}
	skip := func(b results.Benchmark, reason string) *Trial {
		t.Skipped = reason
		b.Error = "skipped: " + reason
		t.Bench = b
		return t
	}
	kb, err := k.Benchmark(dev, in)
	if err != nil {
		return skip(it.Record(), reason(err))
	}
	if local != nil {
		kb.Local = nil
		it.Params = append(it.Params, results.Param{Name: "local", Value: "driver"})
		t.Label += " local=driver"
	} else if kb.Local != nil {
		it.Params = append(it.Params, results.Param{Name: "local", Value: units.Dims(kb.Local)})
	}
	it.Params = append(it.Params, results.Param{Name: "global", Value: units.Dims(kb.Global)})
	if kb.Local != nil {
		if reason := localTooBig(dev, kb.Local); reason != "" {
			return skip(it.Record(), reason)
		}
	}
	fmt.Fprintf(stderr, "  %s %s\n", k.Kernel, t.Label)
	own := kb.Check
	kb.Check = func(in, out map[int][]byte) error {
		if own != nil {
			if err := own(in, out); err != nil {
				return err
			}
		}
		return ref.check(out)
	}
	ref.pending = true
	b, stop := measureTrial(ctx, dev, it, kb)
	switch res := b.Measurement; {
	case stop != nil:
		// The harness's rule for an interruption and abandoned work: the
		// search stops (the device may still be busy), keeping the record.
		t.stop, t.Skipped, t.Bench = stop, "stopped: "+reason(stop), b
		return t
	case res != nil && res.Valid != nil && !*res.Valid:
		return skip(b, "output differs: "+res.ValidationError)
	case b.Error != "":
		return skip(b, strings.TrimPrefix(reason(errors.New(b.Error)), "setup: "))
	}
	ref.commit()
	t.Bench = b
	return t
}

// measureTrial measures kb as the step of a harness.Sequence (the loop of
// every suite and of the short profile) and returns its record and what
// must stop the search (harness.Stops).
func measureTrial(ctx context.Context, dev *runtime.Device, it harness.Item, kb *runtime.KernelBenchmark) (results.Benchmark, error) {
	base := it.Record()
	var rec *results.Benchmark
	q := &harness.Sequence{Ctx: ctx, Device: dev, Settings: it.Settings, Emit: func(b results.Benchmark) error {
		rec = &b
		return nil
	}}
	stop := q.Step(harness.Step{Base: base, Modes: it.Modes, Make: func() (harness.Bench, error) { return harness.Kernel(kb), nil }})
	if rec == nil && stop != nil { // stopped without figures
		base.Error = stop.Error()
		return base, stop
	}
	if rec == nil {
		return base, errors.New("tune: the sequence handed nothing on") // cannot happen: no filter
	}
	return *rec, stop
}

// localTooBig says why a local size cannot run on dev ("" when it can).
func localTooBig(dev *runtime.Device, local []int) string {
	p := 1
	for _, l := range local {
		p *= l
	}
	if m := dev.Info.MaxWorkGroupSize; m > 0 && p > m {
		return fmt.Sprintf("local size %s is %d work-items, over the device's limit of %d (CL_DEVICE_MAX_WORK_GROUP_SIZE)", units.Dims(local), p, m)
	}
	for d, l := range local {
		if d < len(dev.Info.MaxWorkItemSizes) && l > dev.Info.MaxWorkItemSizes[d] {
			return fmt.Sprintf("local size %d in dimension %d is over the device's limit of %d (CL_DEVICE_MAX_WORK_ITEM_SIZES)", l, d, dev.Info.MaxWorkItemSizes[d])
		}
	}
	return ""
}

// reason is an error in one line: its first, and for a build failure the
// log's first line that names an error.
func reason(err error) string {
	first, rest, _ := strings.Cut(err.Error(), "\n")
	for _, l := range strings.Split(rest, "\n") {
		if strings.Contains(l, "error") {
			return first + ": " + strings.TrimSpace(l)
		}
	}
	return first
}
