package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/check"
	"github.com/clmeter/clmeter/runtime/icd"
)

func needOclgrind(t *testing.T) {
	t.Helper()
	if _, err := icd.FindOclgrindICD(os.Getenv(icd.OclgrindICDEnv)); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI installs Oclgrind (make deps): %v", err)
		}
		t.Skipf("no Oclgrind here: %v", err)
	}
}

// TestCheckCommand is the "done when": 'clmeter check
// examples/bugs/*.cl' finds each planted bug at its line, nothing in the clean
// kernel, and exits 3; -o writes the findings.
func TestCheckCommand(t *testing.T) {
	needOclgrind(t)
	t.Setenv("CLMETER_TEST_MAIN", "1") // the child processes are this test binary running main
	files, _ := filepath.Glob("../../examples/bugs/*.cl")
	out := filepath.Join(t.TempDir(), "check.json")
	code, stdout, stderr := clm(t, append(append([]string{"check"}, files...), "-o", out)...)
	if code != exitInvalid {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitInvalid, stdout, stderr)
	}
	for _, w := range []string{"INVALID READ at ../../examples/bugs/oob.cl:6:", "DATA RACE at ../../examples/bugs/race.cl:6:",
		"barrier.cl:9:", "barrier.cl:8:", "UNINITIALIZED VALUE at ../../examples/bugs/uninit.cl:10:", "clean.cl N=256 (kernel groupsum, global 256, local 64): no findings",
		"4 findings in 4, 1 clean"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
	if !strings.Contains(stderr, "4 findings") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("stderr should be one line: %q", stderr)
	}
	var rep check.Report
	b, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(b, &rep) != nil || rep.Findings != 4 || len(rep.Configs) != 5 {
		t.Errorf("report file: %v %s", err, b)
	}
	if code, _, errs := clm(t, "check"); code != exitUsage || !strings.Contains(errs, "targets") {
		t.Errorf("no target: %d %q", code, errs)
	}
	if code, _, errs := clm(t, "check", "../../examples/blur/blur.cl"); code != exitUsage || !strings.Contains(errs, "blur.yaml") {
		t.Errorf("FILE.cl without flags or spec: %d %q", code, errs)
	}
}

// TestRunCheck: run --check measures a clean kernel after checking it, and
// refuses, measuring nothing, a kernel with a bug.
func TestRunCheck(t *testing.T) {
	needOclgrind(t)
	needDevice(t)
	t.Setenv("CLMETER_TEST_MAIN", "1")
	code, stdout, stderr := clm(t, append([]string{"run", "saxpy", "--size", "64Ki", "--check"}, fast...)...)
	if code != 0 || !strings.Contains(stdout, "no findings") || !strings.Contains(stdout, "Time (median)") {
		t.Errorf("clean: %d\n%s\n%s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr = clm(t, append([]string{"run", "../../examples/bugs/oob.cl", "--kernel", "oob", "--global", "N", "--local", "64",
		"--arg", "buf:float:N:rand", "--arg", "buf:float:N:zero:out", "--arg", "int:N", "--size", "256", "--check", "-o", out}, fast...)...)
	if code != exitInvalid || strings.Contains(stdout, "MEDIAN") || !strings.Contains(stderr, "nothing was measured") {
		t.Errorf("bug: %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("run --check wrote %s though nothing was measured", out)
	}
}

func TestDoctorOclgrind(t *testing.T) {
	needOclgrind(t)
	dir := t.TempDir() // an empty vendor folder: Oclgrind installed, not registered
	t.Setenv("OCL_ICD_VENDORS", dir)
	_, out, _ := clm(t, "doctor")
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "Oclgrind (for 'clmeter check')") || !strings.Contains(flat, "installed, not in the vendor folder") {
		t.Errorf("doctor:\n%s", out)
	}
	lib, _ := icd.FindOclgrindICD(os.Getenv(icd.OclgrindICDEnv))
	os.WriteFile(filepath.Join(dir, "oclgrind.icd"), []byte(lib+"\n"), 0o644)
	_, out, _ = clm(t, "doctor")
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "registered by "+filepath.Join(dir, "oclgrind.icd")) { // lines wrap to the width
		t.Errorf("doctor with oclgrind.icd:\n%s", out)
	}
}
