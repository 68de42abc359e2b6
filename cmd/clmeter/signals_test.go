package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSIGTERMEndsEveryCommand sends SIGTERM to compare --interleave and cache
// bench while they measure: each ends with exit 130 and says it was
// interrupted, well before its work would have finished.
func TestSIGTERMEndsEveryCommand(t *testing.T) {
	needDevice(t)
	for _, args := range [][]string{
		{"compare", "--interleave", "copy", "triad", "--size", "64Ki,128Ki,256Ki,512Ki", "--max-time", "5s", "--max-noise", "0.000001"},
		{"cache", "bench", "small", "large", "--trials", "20"},
		{"suite", "all", "--max-memory", "256MiB"},
	} {
		cmd := child(args...)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(4 * time.Second)
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: still running 30s after SIGTERM:\n%s", args, out.String())
		}
		if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || !strings.Contains(out.String(), "interrupted") {
			t.Errorf("%v: exit %d, want 130 and a word that it was interrupted:\n%s", args, code, tail(out.String(), 600))
		}
	}
}

// TestInterruptStuckDevice interrupts a run whose kernel never ends: the wait
// for the device is abandoned after the grace period with a message, and the
// process ends with 130 instead of waiting for ever.
func TestInterruptStuckDevice(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "hang.cl")
	os.WriteFile(src, []byte(`__kernel void hang(volatile __global int *flag) {
	while (flag[0] == 0) { }
}`), 0o644)
	cmd := child("run", src, "--kernel", "hang", "--global", "1", "--arg", "buf:int:1", "--kernel-timeout", "0")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(6 * time.Second) // past the build: the first launch never ends
	cmd.Process.Signal(syscall.SIGINT)
	sent := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 30s after SIGINT:\n%s", out.String())
	}
	t.Logf("ended %s after SIGINT: %s", time.Since(sent).Round(time.Millisecond), out.String())
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || !strings.Contains(out.String(), "its work was abandoned") {
		t.Errorf("exit %d, want 130 and a message that the device's work was abandoned:\n%s", code, out.String())
	}
}
