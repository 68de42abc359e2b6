package doctor

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/impls"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime"
)

// TestTimerEveryImplementation checks, on every installed implementation, the
// timer each device gets (Rusticl on llvmpipe reads 0-1 ns for any launch, so
// its figures must come from the host clock) and the quirks read from the
// device.
func TestTimerEveryImplementation(t *testing.T) {
	impls.Each(t, 5*time.Minute, func(t *testing.T, im impls.Impl) {
		m := runtime.NewManager()
		defer m.Close()
		devs, err := m.Select("")
		if err != nil {
			t.Fatal(err)
		}
		dev := devs[0]
		t.Logf("%s: device %s, %s, timer resolution %v", im.Label, dev.Label(), dev.Info.Version, dev.Info.TimerResolution)
		v, err := CheckDeviceTimer(context.Background(), dev)
		if err != nil {
			t.Fatalf("timer check: %v", err)
		}
		t.Logf("%s: timer %s %q, check %+v; quirks %q", im.Label, v.Timer, v.Note, v.Check, dev.Quirks())
		want := measure.TimerDevice
		if im.Name == "rusticl" {
			want = measure.TimerHost
		}
		if v.Timer != want || (want == measure.TimerHost) != (v.Note != "") || v.Check == nil {
			t.Errorf("%s: timer %s, note %q, check %+v; want the %s timer", im.Label, v.Timer, v.Note, v.Check, want)
		}
		quirks := strings.Join(dev.Quirks(), "; ")
		switch im.Name {
		case "oclgrind":
			if !strings.Contains(quirks, "OpenCL 1.2 device: queues come from clCreateCommandQueue") {
				t.Errorf("oclgrind quirks: %s", quirks)
			}
		case "rusticl":
			if !strings.Contains(quirks, "no fp64") || !strings.Contains(quirks, "no resolution") {
				t.Errorf("rusticl quirks: %s", quirks)
			}
		}

	})
}
