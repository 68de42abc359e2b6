package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTraceCommand(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "trace.json")
	code, stdout, errs := clm(t, "trace", "saxpy", "--size", "64Ki", "--samples", "2", "--min-sample-time", "2ms", "--warmup", "1x", "-o", out)
	if code != 0 || !strings.Contains(stdout, "wrote "+out) {
		t.Fatalf("trace: %d %s\n%s", code, errs, stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []struct {
			Name string  `json:"name"`
			Cat  string  `json:"cat"`
			Ph   string  `json:"ph"`
			TS   float64 `json:"ts"`
			Dur  float64 `json:"dur"`
			TID  int     `json:"tid"`
		} `json:"traceEvents"`
		Metadata map[string]any `json:"metadata"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatalf("trace JSON: %v", err)
	}
	launches := int(tr.Metadata["launches"].(float64))
	enq, kern := 0, 0
	end := map[int]float64{}
	for _, e := range tr.TraceEvents {
		if e.Ph != "X" {
			continue
		}
		if e.TS < end[e.TID]-0.001 {
			t.Errorf("lane %d: %s at %.3f overlaps the slice before (ends %.3f)", e.TID, e.Name, e.TS, end[e.TID])
		}
		end[e.TID] = e.TS + e.Dur
		if strings.HasPrefix(e.Name, "clEnqueueNDRangeKernel") {
			enq++
		}
		if e.Cat == "kernel" {
			kern++
		}
	}
	if launches < 4 || enq != launches || kern != launches {
		t.Errorf("%d launches, %d enqueue calls, %d kernel slices", launches, enq, kern)
	}
	if m, ok := tr.Metadata["clock_mappings"].([]any); !ok || len(m) != 1 {
		t.Errorf("clock mappings: %v", tr.Metadata["clock_mappings"])
	}
	code, _, _ = clm(t, "trace", "saxpy")
	if code != exitUsage {
		t.Errorf("no -o: %d", code)
	}
}
