package clkernels

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/results"
)

func names(bs []results.Benchmark) []string {
	var n []string
	for _, b := range bs {
		n = append(n, b.Name)
	}
	return n
}

func listedNames(ls []harness.Listed) []string {
	var n []string
	for _, l := range ls {
		n = append(n, l.Name)
	}
	return n
}

func paramOf(l harness.Listed, name string) string {
	for _, p := range l.Params {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// TestListQuickIsWhatRuns: the list of quick is, name for name and in order,
// what a Small run emits.
func TestListQuickIsWhatRuns(t *testing.T) {
	dev := device(t)
	s, _ := LookupSuite("quick")
	listed := listedNames(s.List(dev, Options{Settings: tiny, Small: true}))
	ran := names(runSuite(t, "quick"))
	if strings.Join(listed, "\n") != strings.Join(ran, "\n") {
		t.Errorf("quick lists\n  %q\nbut runs\n  %q", listed, ran)
	}
}

// TestListPeaksNamesTheWorkingSet: at full size the peaks list starts with
// the working-set probe and names, not probes, the memory working set.
func TestListPeaksNamesTheWorkingSet(t *testing.T) {
	dev := device(t)
	s, _ := LookupSuite("peaks")
	bs := s.List(dev, Options{})
	if len(bs) == 0 || bs[0].Name != WorkingSetName || bs[0].How != harness.HowSizing || !strings.HasPrefix(paramOf(bs[0], "probe"), "up to ") {
		t.Fatalf("peaks list does not start with the working-set probe: %q", listedNames(bs))
	}
	seen := map[string]bool{}
	for _, b := range bs {
		seen[b.Name] = true
		if strings.HasPrefix(b.Name, "peaks/bandwidth/") && paramOf(b, "size") != ProbedSize {
			t.Errorf("%s: size %q, want the working set named", b.Name, paramOf(b, "size"))
		}
		if b.Identity == nil || b.Identity.Suite != "peaks" {
			t.Errorf("%s: identity %+v", b.Name, b.Identity)
		}
	}
	for _, n := range []string{"peaks/bandwidth/stride/float4", "peaks/bandwidth-best", "peaks/local-bandwidth-best", "peaks/compute/float/4", "peaks/compute-best/float"} {
		if !seen[n] {
			t.Errorf("peaks list lacks %s", n)
		}
	}
}

// TestListFilter: --filter applies to the list; a best is listed with the
// benchmarks it is the best of.
func TestListFilter(t *testing.T) {
	dev := device(t)
	s, _ := LookupSuite("peaks")
	got := listedNames(s.List(dev, Options{Small: true, Filter: regexp.MustCompile("compute/float/")}))
	want := []string{}
	for _, w := range VectorWidths {
		want = append(want, "peaks/compute/float/"+itoa(w))
	}
	want = append(want, "peaks/compute-best/float")
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("filtered list %q, want %q", got, want)
	}
}

func itoa(n int) string { return fmt.Sprint(n) }
