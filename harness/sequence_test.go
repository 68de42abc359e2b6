package harness_test

import (
	"context"
	"errors"
	"regexp"
	"testing"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/harness/harnesstest"
	"github.com/clmeter/clmeter/results"
)

func TestSequence(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := harnesstest.NewClock()
	var emitted, started []string
	q := &harness.Sequence{Ctx: ctx, Device: &harnesstest.Device{}, Settings: harnesstest.Settings(clock),
		Filter:   regexp.MustCompile("^keep/"),
		Progress: func(name string) { started = append(started, name) },
		Emit:     func(b results.Benchmark) error { emitted = append(emitted, b.Name+" "+b.Error); return nil }}
	run := func(name string, b *harnesstest.Bench) error {
		return q.Step(harness.Step{Base: results.Benchmark{Name: name, Kind: "suite:fake"}, Make: func() (harness.Bench, error) {
			if b == nil {
				return nil, errors.New("no such kernel")
			}
			return b, nil
		}})
	}
	bad := newBench()
	bad.Clock, bad.Invalid = clock, "wrong"
	stuck := newBench()
	stuck.Clock = clock
	stuck.OnLaunch = func(i int) {
		if i == 1 {
			cancel()
		}
	}
	ok := newBench()
	ok.Clock = clock
	for _, c := range []struct {
		name  string
		b     *harnesstest.Bench
		stops bool
	}{{"keep/ok", ok, false}, {"skip/me", ok, false}, {"keep/missing", nil, false}, {"keep/bad", bad, false}, {"keep/stuck", stuck, true}} {
		if err := run(c.name, c.b); (err != nil) != c.stops {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	want := []string{"keep/ok ", "keep/missing no such kernel", "keep/bad validation failed: wrong"}
	if len(emitted) != len(want) {
		t.Fatalf("emitted %q, want %q", emitted, want)
	}
	for i := range want {
		if emitted[i] != want[i] {
			t.Errorf("emitted %q, want %q", emitted[i], want[i])
		}
	}
	if len(started) != 4 {
		t.Errorf("progress %q: want the four that the filter keeps", started)
	}
}
