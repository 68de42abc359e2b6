package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/runtime"
)

// listSuiteOut runs 'clmeter suite NAME --list' on the test device.
func listSuiteOut(t *testing.T, o SuiteOptions) (string, error) {
	t.Helper()
	devtest.Need(t)
	o.List, o.Device = true, os.Getenv(runtime.DeviceEnv)
	o.Cache.Off = true
	var out, errb bytes.Buffer
	err := Suite(context.Background(), o, &out, &errb)
	return out.String(), err
}

func TestSuiteListQuick(t *testing.T) {
	out, err := listSuiteOut(t, SuiteOptions{Suite: "quick", Small: true})
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	for _, n := range []string{"peaks/bandwidth/stride/float4", "peaks/bandwidth-best", "peaks/compute-best/float", "streams/triad/float", "launch/throughput", "transfers/pinned/read/64KiB", "quick/summary"} {
		i := strings.Index(out, n)
		if i < 0 || i < last {
			t.Errorf("%s missing or out of order in\n%s", n, out)
		}
		last = i
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "(nothing measured)") || strings.Contains(out, "working-set") {
		t.Errorf("a small list needs no probe and says it measured nothing:\n%s", out)
	}
}

func TestSuiteListPeaksFiltered(t *testing.T) {
	out, err := listSuiteOut(t, SuiteOptions{Suite: "peaks", OutputOptions: OutputOptions{Format: "json"}, Filter: "local-bandwidth/float(4|8)$"})
	if err != nil {
		t.Fatal(err)
	}
	var lists []listedSuite
	if err := json.Unmarshal([]byte(out), &lists); err != nil || len(lists) == 0 {
		t.Fatalf("%v: %s", err, out)
	}
	var got []string
	for _, s := range lists[0].Steps {
		if s.How != harness.HowSizing {
			got = append(got, s.Name)
		}
	}
	want := "peaks/local-bandwidth/float4 peaks/local-bandwidth/float8 peaks/local-bandwidth-best"
	if strings.Join(got, " ") != want {
		t.Errorf("listed %q, want %q", got, want)
	}
	if _, err := listSuiteOut(t, SuiteOptions{Suite: "peaks", Filter: "no-such"}); fail.KindOf(err) != fail.Usage {
		t.Errorf("a filter matching nothing: %v, want a usage error", err)
	}
}
