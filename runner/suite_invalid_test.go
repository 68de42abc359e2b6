package runner

import (
	"testing"

	"github.com/clmeter/clmeter/results"
)

// TestSuiteCountsInvalidByKind: the suite counts a benchmark invalid (exit
// status 4) when it was marked so (results.FailValidation), never from its
// error's text: a build error whose message starts with the same words is
// not a failed validation.
func TestSuiteCountsInvalidByKind(t *testing.T) {
	sr := &suiteRun{record: &record{}}
	r := &deviceRun{sr: sr}
	emit := r.options(SuiteOptions{}, nil).Emit
	var bad results.Benchmark
	bad.FailValidation("element 3 is 2, want 1")
	look := results.Benchmark{Error: "validation failed: says the kernel's own build log"}
	for _, b := range []results.Benchmark{{Name: "ok"}, bad, look} {
		if err := emit(b); err != nil {
			t.Fatal(err)
		}
	}
	if sr.invalid != 1 || len(sr.done) != 3 {
		t.Errorf("invalid %d of %d, want 1 of 3", sr.invalid, len(sr.done))
	}
	if bad.Error != "validation failed: element 3 is 2, want 1" || !bad.Invalid() || look.Invalid() {
		t.Errorf("FailValidation: %q %v %v", bad.Error, bad.Invalid(), look.Invalid())
	}
}
