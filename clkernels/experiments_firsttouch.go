package clkernels

import (
	"fmt"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// FirstTouchRuns is how many times each firsttouch case copies over the same
// buffers.
const FirstTouchRuns = 5

// A FirstTouchCase says which buffers are warmed (written in full) before the
// timed runs.
type FirstTouchCase struct {
	Name                 string
	WarmSource, WarmDest bool
}

// FirstTouchCases are the article's three cases, in its order.
var FirstTouchCases = []FirstTouchCase{
	{"neither-warmed", false, false},
	{"source-warmed", true, false},
	{"both-warmed", true, true},
}

// FirstTouchElems is the firsttouch experiment's size in ints: 32 Mi (the
// article's), 1 Mi when small, halved until two buffers fit the device.
func FirstTouchElems(dev *runtime.Device, small bool) int64 {
	n := int64(32 << 20)
	if small {
		n = 1 << 20
	}
	return capElems(dev, n, 4, 2)
}

// firstTouchWarmValue is what warming writes (the article's 0xBADDF00D).
var firstTouchWarmValue = int32(-0x45220ff3)

// FirstTouchCaseName returns the name of a case's benchmark: where is
// "device" or "host".
func FirstTouchCaseName(where, c string) string { return "firsttouch/" + where + "/" + c }

// FirstTouchRunFigure is the name of run i's figure (1-based); kernel adds the
// device-timer variant.
func FirstTouchRunFigure(i int, kernel bool) string {
	if kernel {
		return fmt.Sprintf("run %d kernel", i)
	}
	return fmt.Sprintf("run %d", i)
}

// FirstTouchCost names the figure run 1 minus the median of the later runs.
const FirstTouchCost = "first-touch cost"

func runFirstTouch(r *runner) error {
	n := FirstTouchElems(r.dev, r.o.Small)
	dt, err := newDeviceToucher(r.dev)
	if err != nil {
		b := r.newBenchmark(FirstTouchCaseName("device", "setup"), nil)
		b.Error = err.Error()
		return r.emit(b)
	}
	defer dt.release()
	params := func(c FirstTouchCase) []param {
		return []param{{"elements", fmt.Sprint(n)}, {"array", sizeLabel(n * 4)}, {"warm source", fmt.Sprint(c.WarmSource)}, {"warm destination", fmt.Sprint(c.WarmDest)}}
	}
	for _, c := range FirstTouchCases {
		for _, where := range []string{"device", "host"} {
			if err := r.ctx.Err(); err != nil {
				return err
			}
			name := FirstTouchCaseName(where, c.Name)
			if r.o.Progress != nil {
				r.o.Progress(name)
			}
			b := r.newBenchmark(name, params(c))
			var host, kernel []time.Duration
			var note string
			if where == "device" {
				host, kernel, err = dt.run(n, c)
				note = "copy kernel, enqueue + finish (host timer), fresh buffers"
			} else {
				host, err = hostFirstTouch(n, c)
				note = "Go copy, " + hostMemNote
			}
			if err != nil {
				b.Error = err.Error()
			} else {
				b.Figures = firstTouchFigures(host, kernel, note)
			}
			if err := r.emit(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// firstTouchFigures returns run 1..5 (and their kernel times) and the
// first-touch cost: run 1 minus the median of the later runs.
func firstTouchFigures(host, kernel []time.Duration, note string) []results.Figure {
	var figs []results.Figure
	for i, d := range host {
		figs = append(figs, results.Figure{Name: FirstTouchRunFigure(i+1, false), Value: ms(d), Unit: "ms", Note: note})
	}
	for i, d := range kernel {
		figs = append(figs, results.Figure{Name: FirstTouchRunFigure(i+1, true), Value: ms(d), Unit: "ms", Note: "END - START (device timer)"})
	}
	if len(host) > 1 {
		cost := host[0] - medianDur(host[1:])
		figs = append(figs, results.Figure{Name: FirstTouchCost, Value: ms(cost), Unit: "ms", Note: "run 1 minus the median of runs 2-5"})
	}
	return figs
}

// hostFirstTouch copies n ints between two fresh host arrays five times. It
// times them itself, outside the harness: run 1, on pages the OS has not yet
// given, is the figure and runs 2-5 its baseline; the harness's warm-up and
// sampling to a stable figure would remove the very cost measured
// (internal/archcheck lists it).
func hostFirstTouch(n int64, c FirstTouchCase) ([]time.Duration, error) {
	src, freeSrc, err := freshHostInts(n)
	if err != nil {
		return nil, fmt.Errorf("host source of %s: %w", sizeLabel(n*4), err)
	}
	defer freeSrc()
	dst, freeDst, err := freshHostInts(n)
	if err != nil {
		return nil, fmt.Errorf("host destination of %s: %w", sizeLabel(n*4), err)
	}
	defer freeDst()
	warm := func(a []int32) {
		for i := range a {
			a[i] = firstTouchWarmValue
		}
	}
	if c.WarmSource {
		warm(src)
	}
	if c.WarmDest {
		warm(dst)
	}
	times := make([]time.Duration, FirstTouchRuns)
	for i := range times {
		t := time.Now()
		copy(dst, src)
		times[i] = time.Since(t)
	}
	if c.WarmSource && dst[n-1] != firstTouchWarmValue {
		return times, fmt.Errorf("host copy: destination[%d] = %d, want %d", n-1, dst[n-1], firstTouchWarmValue)
	}
	return times, nil
}

// deviceToucher holds the firsttouch program, built and JIT-warmed once.
type deviceToucher struct {
	dev        *runtime.Device
	ctx        *cl.Context
	q          *cl.Queue
	prog       *cl.Program
	copyK, fil *cl.Kernel
}

func newDeviceToucher(dev *runtime.Device) (*deviceToucher, error) {
	c, q, err := dev.Context()
	if err != nil {
		return nil, err
	}
	p, _, err := dev.BuildProgram(source("firsttouch.cl"), "")
	if err != nil {
		return nil, err
	}
	dt := &deviceToucher{dev: dev, ctx: c, q: q, prog: p}
	if dt.copyK, err = p.CreateKernel("copy_int"); err != nil {
		dt.release()
		return nil, err
	}
	if dt.fil, err = p.CreateKernel("fill_int"); err != nil {
		dt.release()
		return nil, err
	}
	// The article's WarmUpKernel: launch both kernels on tiny buffers first, so
	// compilation at first launch stays out of run 1.
	a, err := c.CreateBuffer(cl.MemReadWrite, 4*64, nil)
	if err != nil {
		dt.release()
		return nil, err
	}
	defer a.Release()
	b, err := c.CreateBuffer(cl.MemReadWrite, 4*64, nil)
	if err != nil {
		dt.release()
		return nil, err
	}
	defer b.Release()
	if err := dt.fill(a, 64); err == nil {
		err = dt.copyRun(a, b, 64, nil)
	}
	if err != nil {
		dt.release()
		return nil, fmt.Errorf("firsttouch warm-up launch: %w", err)
	}
	return dt, nil
}

func (dt *deviceToucher) release() {
	dt.copyK.Release()
	dt.fil.Release()
	dt.prog.Release()
}

func (dt *deviceToucher) fill(buf *cl.Buffer, n int64) error {
	if err := dt.fil.SetArgs(buf, firstTouchWarmValue); err != nil {
		return err
	}
	if err := dt.q.EnqueueNDRangeNoEvent(dt.fil, []int{int(n)}, nil, nil); err != nil {
		return err
	}
	return dt.q.Finish()
}

// copyRun launches the copy and waits; with times set it records the host
// time (enqueue + finish) and the kernel's END - START.
func (dt *deviceToucher) copyRun(src, dst *cl.Buffer, n int64, times *[2]time.Duration) error {
	if err := dt.copyK.SetArgs(src, dst); err != nil {
		return err
	}
	t := time.Now()
	ev, err := dt.q.EnqueueNDRange(dt.copyK, []int{int(n)}, localFor(dt.dev, n), nil)
	if err != nil {
		return err
	}
	defer ev.Release()
	if err := dt.q.Finish(); err != nil {
		return err
	}
	if times != nil {
		times[0] = time.Since(t)
		if p, err := ev.Profile(); err == nil {
			times[1] = time.Duration(p.End - p.Start)
		}
	}
	return nil
}

// run copies n ints between two fresh device buffers five times, warming
// what the case says first, and checks the destination after. As
// hostFirstTouch, outside the harness: run 1 on fresh buffers is the figure.
func (dt *deviceToucher) run(n int64, c FirstTouchCase) (host, kernel []time.Duration, err error) {
	src, err := dt.ctx.CreateBuffer(cl.MemReadWrite, n*4, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("device source of %s: %w", sizeLabel(n*4), err)
	}
	defer src.Release()
	dst, err := dt.ctx.CreateBuffer(cl.MemReadWrite, n*4, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("device destination of %s: %w", sizeLabel(n*4), err)
	}
	defer dst.Release()
	if c.WarmSource {
		if err := dt.fill(src, n); err != nil {
			return nil, nil, err
		}
	}
	if c.WarmDest {
		if err := dt.fill(dst, n); err != nil {
			return nil, nil, err
		}
	}
	for range FirstTouchRuns {
		var t [2]time.Duration
		if err := dt.copyRun(src, dst, n, &t); err != nil {
			return host, kernel, err
		}
		host = append(host, t[0])
		if t[1] > 0 {
			kernel = append(kernel, t[1])
		}
	}
	if c.WarmSource {
		got := make([]byte, 4)
		ev, err := dt.q.EnqueueReadBuffer(dst, true, (n-1)*4, got)
		if err != nil {
			return host, kernel, err
		}
		ev.Release()
		if v := int32(tInt.get(got, 0)); v != firstTouchWarmValue {
			return host, kernel, fmt.Errorf("device copy: destination[%d] = %d, want %d", n-1, v, firstTouchWarmValue)
		}
	}
	return host, kernel, nil
}
