package timeline

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime"
)

// counting hides everything but measure.Benchmark and counts the launches.
type counting struct {
	b        measure.Benchmark
	launches int
}

func (c *counting) Setup(ctx context.Context) (measure.SetupInfo, error) { return c.b.Setup(ctx) }
func (c *counting) Launch(ctx context.Context, k int) (measure.Batch, error) {
	c.launches += k
	return c.b.Launch(ctx, k)
}
func (c *counting) Teardown() error { return c.b.Teardown() }

type chromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	TS   float64        `json:"ts"`
	Dur  float64        `json:"dur"`
	TID  int            `json:"tid"`
	ID   string         `json:"id"`
	Args map[string]any `json:"args"`
}

func TestRecorderOnDevice(t *testing.T) {
	dev := firstDevice(t)
	rec := NewRecorder()
	q, err := rec.Queue(dev)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 16
	kb := &runtime.KernelBenchmark{Device: dev, Source: runtime.Source{Name: "add1.cl", Text: "__kernel void add1(__global float *x) { x[get_global_id(0)] += 1.0f; }\n"}, Kernel: "add1",
		Args: []runtime.Arg{{Kind: runtime.ArgBuffer, Name: "x", Bytes: 4 * n}}, Global: []int{n}, Tracer: q}
	cb := &counting{b: kb.Measurable()}
	s := measure.DefaultSettings()
	s.Samples, s.MinSampleTime, s.Warmup = 3, 2*time.Millisecond, measure.WarmupCount(1)
	if _, err := measure.Run(context.Background(), cb, s); err != nil {
		t.Fatal(err)
	}
	if err := q.Calibrate(); err != nil {
		t.Fatal(err)
	}
	clocks := q.Clocks()
	if len(clocks) != 2 || clocks[0].Uncertainty <= 0 || clocks[0].Uncertainty > 5*time.Millisecond {
		t.Errorf("clock samples %+v", clocks)
	}
	t.Logf("clock mapping: %+v (launches %d)", clocks, cb.launches)

	var buf bytes.Buffer
	if err := rec.Trace("clmeter trace add1").WriteChrome(&buf); err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []chromeEvent  `json:"traceEvents"`
		Metadata    map[string]any `json:"metadata"`
	}
	if err := json.Unmarshal(buf.Bytes(), &tr); err != nil {
		t.Fatalf("trace JSON: %v", err)
	}
	checkTrace(t, tr.TraceEvents, cb.launches, clocks[0].Uncertainty)
	if m, ok := tr.Metadata["clock_mappings"].([]any); !ok || len(m) != 1 || m[0].(map[string]any)["uncertainty_ns"] == nil {
		t.Errorf("metadata %v", tr.Metadata)
	}
}

// checkTrace checks the Chrome trace of a run of `launches` kernel launches:
// every lane's slices in order without overlap, one host enqueue, one device
// slice and one stage group per launch, and device times mapped near the host
// calls that caused them.
func checkTrace(t *testing.T, evs []chromeEvent, launches int, unc time.Duration) {
	t.Helper()
	last := map[int]float64{}
	lanes := map[int]string{}
	var enqueues, kernels []chromeEvent
	asyncKernels := 0
	open := map[string]int{}
	for _, e := range evs {
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				lanes[e.TID] = e.Args["name"].(string)
			}
		case "X":
			if e.TS < last[e.TID]-0.001 {
				t.Errorf("lane %d (%s): %s at %.3f us starts before the previous slice ends (%.3f)", e.TID, lanes[e.TID], e.Name, e.TS, last[e.TID])
			}
			last[e.TID] = e.TS + e.Dur
			if strings.HasPrefix(e.Name, "clEnqueueNDRangeKernel") {
				enqueues = append(enqueues, e)
			}
			if e.Cat == "kernel" {
				kernels = append(kernels, e)
			}
		case "b":
			open[e.ID]++
			if e.Cat == "stages" && e.Name == "add1" {
				asyncKernels++
			}
		case "e":
			open[e.ID]--
			if open[e.ID] < 0 {
				t.Errorf("async id %s ends more than it began", e.ID)
			}
		}
	}
	if lanes[HostLane] != "host thread" || len(lanes) != 2 {
		t.Errorf("lanes %v, want the host thread and one queue", lanes)
	}
	if len(enqueues) != launches || len(kernels) != launches || asyncKernels != launches {
		t.Errorf("%d launches, but %d enqueue calls, %d kernel slices, %d stage groups", launches, len(enqueues), len(kernels), asyncKernels)
	}
	for id, n := range open {
		if n != 0 {
			t.Errorf("async id %s left open", id)
		}
	}
	// A kernel cannot be queued before its enqueue call began.
	slack := float64(unc)/1e3 + 1
	for i := 0; i < len(enqueues) && i < len(kernels); i++ {
		q := kernels[i].Args["queued_us"].(float64)
		if q < enqueues[i].TS-slack {
			t.Errorf("launch %d queued at %.3f us, before its enqueue call began at %.3f us (slack %.3f)", i, q, enqueues[i].TS, slack)
			break
		}
	}
}

func TestToHostInterpolates(t *testing.T) {
	c := []ClockSample{{At: 0, Offset: 1000}, {At: 1000000, Offset: 2000}}
	if got := toHost(c, 1000); got != 0 {
		t.Errorf("at the first calibration: %v", got)
	}
	// Halfway the offset is 1500.
	if got := toHost(c, 501500); got < 499990 || got > 500010 {
		t.Errorf("halfway: %v, want 500000", got)
	}
	if got := toHost(c[:1], 5000); got != 4000 {
		t.Errorf("one calibration: %v", got)
	}
	tr := (&Recorder{}).Trace("x")
	if len(tr.Lanes) != 1 || tr.Metadata["clock_mappings"] == nil {
		t.Errorf("empty recorder trace %+v", tr)
	}
	var buf bytes.Buffer
	if err := tr.WriteChrome(&buf); err != nil || !strings.Contains(buf.String(), `"traceEvents":[`) {
		t.Errorf("%v %s", err, buf.String())
	}
}

// firstDevice returns the first OpenCL device, skipping when there is none.
func firstDevice(t *testing.T) *runtime.Device {
	t.Helper()
	m := runtime.NewManager()
	t.Cleanup(m.Close)
	return devtest.Select(t, m)
}
