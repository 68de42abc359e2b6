package clkernels

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
)

func names(bs []results.Benchmark) []string {
	var n []string
	for _, b := range bs {
		n = append(n, b.Name)
	}
	return n
}

// TestListQuickIsWhatRuns: the list of quick is, name for name and in order,
// what a Small run emits.
func TestListQuickIsWhatRuns(t *testing.T) {
	dev := device(t)
	s, _ := LookupSuite("quick")
	listed := names(s.List(dev, Options{Settings: tiny, Small: true}))
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
	if len(bs) == 0 || bs[0].Name != WorkingSetName || !strings.HasPrefix(bs[0].Params["probe"], "up to ") {
		t.Fatalf("peaks list does not start with the working-set probe: %q", names(bs))
	}
	seen := map[string]bool{}
	for _, b := range bs {
		seen[b.Name] = true
		if strings.HasPrefix(b.Name, "peaks/bandwidth/") && b.Params["size"] != "working set" {
			t.Errorf("%s: size %q, want the working set named", b.Name, b.Params["size"])
		}
		if b.Identity == nil || b.Identity.Suite != "peaks" || b.Kind != "suite:peaks" {
			t.Errorf("%s: identity %+v kind %q", b.Name, b.Identity, b.Kind)
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
	got := names(s.List(dev, Options{Small: true, Filter: regexp.MustCompile("compute/float/")}))
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
