package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
)

// child returns a command that runs clmeter's main in a child process.
func child(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestNoLibrary$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "CLMETER_TEST_MAIN=1")
	return cmd
}

// TestInterruptKeepsFinished sends SIGINT during a long run: the result file
// holds the finished benchmarks, is valid, and the exit status is 130.
func TestInterruptKeepsFinished(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "r.json")
	cmd := child("run", "copy", "--size", "1Ki,2Ki,4Ki,8Ki,16Ki,32Ki", "--max-time", "3s", "--max-noise", "0.000001", "--min-sample-time", "1ms", "-o", out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if f, err := results.Read(out); err == nil && len(f.Benchmarks) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no benchmark finished within 60s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit %d (%v), want 130; stderr %s", code, err, stderr.String())
	}
	f, err := results.Read(out)
	if err != nil {
		t.Fatalf("result file after SIGINT: %v", err)
	}
	if n := len(f.Benchmarks); n < 1 || n >= 6 {
		t.Errorf("%d benchmarks kept, want between 1 and 5", n)
	}
	for _, b := range f.Benchmarks {
		if b.Measurement == nil || len(b.Measurement.Samples) == 0 {
			t.Errorf("a kept benchmark has no samples: %+v", b)
		}
	}
	if !strings.Contains(stderr.String(), "interrupted after") || !strings.Contains(stderr.String(), out) {
		t.Errorf("stderr %q", stderr.String())
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*tmp*")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestKernelTimeout runs a kernel that never finishes: it is reported as such,
// not waited on for ever.
func TestKernelTimeout(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	cl := filepath.Join(dir, "hang.cl")
	os.WriteFile(cl, []byte(`__kernel void hang(volatile __global int *flag) {
	while (flag[0] == 0) { }
}`), 0o644)
	cmd := child("run", cl, "--kernel", "hang", "--global", "1", "--arg", "buf:int:1", "--kernel-timeout", "2s", "-o", filepath.Join(dir, "r.json"))
	start := time.Now()
	done := make(chan struct{})
	var out []byte
	go func() { out, _ = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatal("a hung kernel was waited on for 90s despite --kernel-timeout 2s")
	}
	code := cmd.ProcessState.ExitCode()
	if code == 0 || !strings.Contains(string(out), "still running after --kernel-timeout 2s") {
		t.Errorf("exit %d after %s: %s", code, time.Since(start), out)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.json")); err == nil {
		t.Error("a result file was written for a kernel that never finished")
	}
}

// TestNoDeviceWrongICD points the ICD loader at vendor files that name no usable
// driver (the device "disappeared"): run fails with one clear line and exit 4,
// and writes no result file.
func TestNoDeviceWrongICD(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "gone.icd"), []byte("/nonexistent/libgone.so\n"), 0o644)
	out := filepath.Join(dir, "r.json")
	cmd := child("run", "saxpy", "--size", "1Ki", "-o", out)
	cmd.Env = append(cmd.Env, "OCL_ICD_VENDORS="+dir, "OCL_ICD_FILENAMES=")
	b, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != exitNoDevice || !strings.Contains(string(b), "no OpenCL device found") {
		t.Errorf("exit %d: %s", code, b)
	}
	if strings.Count(strings.TrimSpace(string(b)), "\n") > 0 {
		t.Errorf("want one line, got %q", b)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a result file was written")
	}
}

// TestSyncEach measures enqueue+finish round trips in batches: each sample
// holds many launches, each waited for.
func TestSyncEach(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, errs := clm(t, "run", "../../bench/empty.cl", "--kernel", "empty", "--global", "1", "--timer", "host",
		"--sync-each", "--samples", "3", "--min-sample-time", "2ms", "--warmup", "1x", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	f, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	m := f.Benchmarks[0].Measurement
	if len(m.Samples) != 3 || m.Samples[2].Launches < 2 || m.Timer != "host" {
		t.Errorf("samples %+v timer %s", m.Samples, m.Timer)
	}
}
