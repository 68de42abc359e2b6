package harness_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/harness/harnesstest"
	"github.com/clmeter/clmeter/results"
)

// steps are a measured pair, a step that times itself, a record made while
// sizing, a step run only when a measured one ran, and one derived from the
// pair.
func steps(clock *harnesstest.Clock) []harness.Step {
	mk := func() (harness.Bench, error) { b := newBench(); b.Clock = clock; return b, nil }
	return []harness.Step{
		{Base: results.Benchmark{Name: "size/row"}, Record: true},
		{Base: results.Benchmark{Name: "a/1"}, Make: mk},
		{Base: results.Benchmark{Name: "a/2"}, Make: mk},
		{Base: results.Benchmark{Name: "b/self"}, Figures: func(context.Context) ([]results.Figure, map[string]any, error) {
			return []results.Figure{{Name: "x", Value: 1, Unit: "ms"}}, nil, nil
		}},
		{Base: results.Benchmark{Name: "b/when"}, Make: mk, When: func(ran map[string]results.Benchmark) bool { _, ok := ran["a/1"]; return ok }},
		{Base: results.Benchmark{Name: "a/best"}, From: []string{"a/1", "a/2"}, Derive: func(ran map[string]results.Benchmark) ([]results.Figure, map[string]any, bool) {
			return []results.Figure{{Name: "n", Value: float64(len(ran)), Unit: "runs"}}, nil, true
		}},
	}
}

func TestSequenceRunSteps(t *testing.T) {
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{"", []string{"size/row", "a/1", "a/2", "b/self", "b/when", "a/best"}},
		{"^a/2", []string{"size/row", "a/2", "a/best"}},
		{"^b/", []string{"size/row", "b/self"}},
	} {
		clock := harnesstest.NewClock()
		var emitted []string
		q := &harness.Sequence{Ctx: context.Background(), Device: &harnesstest.Device{}, Settings: harnesstest.Settings(clock),
			Emit: func(b results.Benchmark) error { emitted = append(emitted, b.Name); return nil }}
		if c.filter != "" {
			q.Filter = regexp.MustCompile(c.filter)
		}
		if err := q.Run(steps(clock)); err != nil {
			t.Fatal(err)
		}
		if !equal(emitted, c.want) {
			t.Errorf("filter %q ran %q, want %q", c.filter, emitted, c.want)
		}
		var listed []string
		for _, l := range q.List(steps(clock)) {
			listed = append(listed, l.Name)
		}
		// List cannot know what When decides: it lists b/when whenever the
		// filter keeps it.
		want := c.want
		if c.filter == "^b/" {
			want = append(want, "b/when")
		}
		if !equal(listed, want) {
			t.Errorf("filter %q listed %q, want %q", c.filter, listed, want)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
