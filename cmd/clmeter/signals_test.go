package main

import (
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
		{"suite", "all"},
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
