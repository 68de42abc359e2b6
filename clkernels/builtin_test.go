package clkernels

import (
	"context"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime"
)

// device is the test device, or skips t (devtest.Device).
func device(t testing.TB) *runtime.Device { return devtest.Device(t) }

// tiny are measure settings for tests: three short samples.
var tiny = measure.Settings{Samples: 3, MinSampleTime: time.Millisecond, Warmup: measure.WarmupCount(1), MaxTime: time.Second}

// runValid measures kb with tiny settings and fails unless it validated.
func runValid(t *testing.T, kb *runtime.KernelBenchmark) *measure.Result {
	t.Helper()
	r, err := measure.Run(context.Background(), kb.Measurable(), tiny)
	if err != nil {
		t.Fatalf("%s: %v", kb.Kernel, err)
	}
	if kb.Check != nil && (r.Valid == nil || !*r.Valid) {
		t.Fatalf("%s: not valid: %s", kb.Kernel, r.ValidationError)
	}
	if r.Summary.Median <= 0 {
		t.Fatalf("%s: median %v", kb.Kernel, r.Summary.Median)
	}
	return r
}

func TestLookupNames(t *testing.T) {
	names := Names()
	for _, want := range []string{"saxpy", "copy", "triad", "dot"} {
		if _, ok := Lookup(want); !ok {
			t.Errorf("Lookup(%q) not found; names %v", want, names)
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) found something")
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("Names not sorted: %v", names)
		}
	}
}

func TestBuiltinsValidate(t *testing.T) {
	dev := device(t)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			b, _ := Lookup(name)
			if b.Type == "double" && !dev.Info.FP64 {
				t.Skip("no fp64")
			}
			if d, err := b.DefaultSize(context.Background(), dev); d <= 0 || err != nil {
				t.Errorf("DefaultSize %d: %v", d, err)
			}
			kb, err := b.Make(dev, 4096+256)
			if err != nil {
				t.Fatal(err)
			}
			if kb.Check == nil {
				t.Fatal("no Check")
			}
			runValid(t, kb)
		})
	}
}

func TestBuiltinMakeErrors(t *testing.T) {
	dev := device(t)
	b, _ := Lookup("saxpy")
	if _, err := b.Make(dev, 0); err == nil {
		t.Error("Make(0) did not fail")
	}
	if _, err := b.Make(dev, dev.Info.MaxAllocBytes); err == nil {
		t.Error("Make(over max alloc) did not fail")
	}
}

// TestCheckCatchesWrongOutput makes sure the reference is not vacuous: a
// corrupted output fails the check.
func TestCheckCatchesWrongOutput(t *testing.T) {
	dev := device(t)
	for _, name := range []string{"saxpy", "copy", "dot"} {
		b, _ := Lookup(name)
		kb, err := b.Make(dev, 1024)
		if err != nil {
			t.Fatal(err)
		}
		in := map[int][]byte{}
		out := map[int][]byte{}
		for i, a := range kb.Args {
			if a.Kind != runtime.ArgBuffer {
				continue
			}
			d := make([]byte, a.Bytes)
			if a.Init != nil {
				a.Init(d)
			}
			in[i] = d
			if a.Output {
				out[i] = make([]byte, a.Bytes) // zeros: wrong for every kernel here
			}
		}
		if err := kb.Check(in, out); err == nil {
			t.Errorf("%s: zero output passed the check", name)
		}
	}
}
