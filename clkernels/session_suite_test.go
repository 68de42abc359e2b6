package clkernels

import (
	"context"
	"sync"
	"testing"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// The quick suite at its smallest on two identical devices at once, one
// goroutine a device: no race (run under -race), no error, and each device's
// records name it and only it.
func TestQuickSuiteOnTwoDevicesAtOnce(t *testing.T) {
	a, b, ok := devtest.Pair(t)
	if !ok {
		return
	}
	s, ok := LookupSuite("quick")
	if !ok {
		t.Fatal("no suite quick")
	}
	devs := []*runtime.Device{a, b}
	got := make([][]results.Benchmark, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, dev := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Run(context.Background(), dev, Options{Settings: tiny, Small: true, Emit: func(r results.Benchmark) error {
				got[i] = append(got[i], r)
				return nil
			}})
		}()
	}
	wg.Wait()
	for i, dev := range devs {
		if errs[i] != nil {
			t.Fatalf("device %s: %v", dev.Label(), errs[i])
		}
		if len(got[i]) == 0 {
			t.Fatalf("device %s: no benchmarks", dev.Label())
		}
		for _, r := range got[i] {
			if r.Error != "" {
				t.Errorf("device %s: %s: %s", dev.Label(), r.Name, r.Error)
			}
			if r.Device.Index != "" && r.Device.Index != dev.Ref() {
				t.Errorf("device %s: %s is recorded on device %s", dev.Label(), r.Name, r.Device.Index)
			}
		}
	}
}
