package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
)

// TestSuiteExperimentsSmall runs each experiment suite end to end at its small
// size; coldstart re-executes this test binary as its fresh process.
func TestSuiteExperimentsSmall(t *testing.T) {
	needDevice(t)
	t.Setenv("CLMETER_TEST_MAIN", "1") // the fresh process is this test binary running main
	cases := []struct {
		suite string
		want  []string
		names []string
	}{
		{"coldstart", []string{"== coldstart on", "fresh clmeter process", "FRESH PROCESS", "IN-PROCESS TOTAL", "COPY-IN", "120x140x130", "start-up steps", "program build from source", "the first size took"},
			[]string{"coldstart/startup", "coldstart/fresh-process/30x50x40", "coldstart/fresh-process/120x140x130", "coldstart/in-process/30x50x40", "coldstart/in-process/120x140x130"}},
		{"firsttouch", []string{"== firsttouch on", "first-touch", "RUN 1", "RUN 5", "FIRST-TOUCH", "device/neither-warmed", "host/both-warmed", "kernel (device)"},
			[]string{"firsttouch/device/neither-warmed", "firsttouch/host/source-warmed", "firsttouch/device/both-warmed"}},
		{"matmul", []string{"== matmul on", "Naive versus tiled", "matmul/naive", "matmul/tiled", "tiled speedup"},
			[]string{"matmul/naive", "matmul/tiled", "matmul/speedup"}},
		{"reduction", []string{"== reduction on", "divergent", "reduction/nondivergent", "non-divergent speedup", "passes"},
			[]string{"reduction/divergent", "reduction/nondivergent", "reduction/speedup"}},
	}
	for _, c := range cases {
		t.Run(c.suite, func(t *testing.T) {
			if c.suite == "coldstart" {
				// Its nine columns need 111: at the default 100 the headers
				// are abbreviated (runner's TestTablesFit checks the fitting).
				t.Setenv("COLUMNS", "140")
			}
			path := filepath.Join(t.TempDir(), c.suite+".json")
			code, out, errs := suiteClm(t, append([]string{"suite", c.suite, "-o", path}, suiteFast...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s\n%s", code, errs, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "ERROR") {
				t.Errorf("report has errors:\n%s", out)
			}
			f, err := results.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, b := range f.Benchmarks {
				got[b.Name] = true
				if b.Error != "" || b.Kind != "suite:"+c.suite {
					t.Errorf("%s: kind %q error %q", b.Name, b.Kind, b.Error)
				}
			}
			for _, n := range c.names {
				if !got[n] {
					t.Errorf("result file lacks %s", n)
				}
			}
		})
	}
}

func TestSuiteChildUsage(t *testing.T) {
	if code, _, _ := suiteClm(t, "suite-child", "nope"); code != exitUsage {
		t.Errorf("suite-child nope: exit %d, want %d", code, exitUsage)
	}
	_, out, _ := suiteClm(t, "--help")
	if strings.Contains(out, "suite-child") {
		t.Errorf("the hidden command shows in help:\n%s", out)
	}
	for _, s := range []string{"coldstart", "firsttouch", "matmul", "reduction"} {
		_, out, _ := suiteClm(t, "suite", "--help")
		if !strings.Contains(out, s) {
			t.Errorf("suite help lacks %s", s)
		}
	}
}
