package doctor

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime"
)

// A TimerVerdict says which timer a benchmark's figures get on a device: the
// device timer (event profiling) when it passed its check against the host
// clock, else the host timer and why.
type TimerVerdict struct {
	// Timer is measure.TimerDevice or measure.TimerHost.
	Timer measure.Timer `json:"timer"`
	// Note says why the device timer is not used ("" when it is).
	Note string `json:"note,omitempty"`
	// Check is the batch the device timer was checked on (nil when none was).
	Check *measure.TimerCheck `json:"check,omitempty"`
}

const timerKernel = `__kernel void clmeter_timer(__global float *x, int iters) {
	size_t i = get_global_id(0);
	float v = x[i];
	for (int j = 0; j < iters; j++) v = v * 0.999f + 0.001f;
	x[i] = v;
}`

// CheckDeviceTimer measures a small kernel on dev the way every benchmark is
// measured (harness.Measure: warm-up batches checked against the host clock) and
// returns which timer the figures get. It takes well under a second on a
// healthy device, and at most about two seconds.
func CheckDeviceTimer(ctx context.Context, dev *runtime.Device) (TimerVerdict, error) {
	const n = 64
	kb := &runtime.KernelBenchmark{
		Device: dev, Source: runtime.Source{Name: "timer-check", Text: timerKernel}, Kernel: "clmeter_timer",
		Args: []runtime.Arg{
			{Kind: runtime.ArgBuffer, Name: "x", Bytes: 4 * n, Init: func(b []byte) {
				for i := 0; i < n; i++ {
					binary.LittleEndian.PutUint32(b[4*i:], 0x3f800000) // 1.0f
				}
			}},
			{Kind: runtime.ArgScalar, Name: "iters", Value: int32(64)},
		},
		Global: []int{n},
	}
	s := measure.Settings{Samples: 1, MinSampleTime: 10 * time.Millisecond, MaxTime: 2 * time.Second, KernelTimeout: 30 * time.Second}
	b, err := harness.Measure(ctx, harness.Item{Name: "timer-check", Kind: "doctor", Device: dev, Settings: s,
		Make: func() (harness.Bench, error) { return harness.Kernel(kb), nil }})
	r := b.Measurement
	if r == nil || err != nil {
		return TimerVerdict{}, err
	}
	return TimerVerdict{Timer: r.Timer, Note: r.TimerNote, Check: r.TimerCheck}, nil
}
