package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStoreChildrenEndsOrphans: a process that leaves a detached child behind
// (its own session, as a miss leaves its store child) exits; end kills and
// reaps that child, and only it.
func TestStoreChildrenEndsOrphans(t *testing.T) {
	s := newStoreChildren()
	defer s.close()
	if !s.reaper {
		t.Skip("this kernel refuses PR_SET_CHILD_SUBREAPER")
	}
	if err := exec.Command("sh", "-c", "setsid sleep 60 </dev/null >/dev/null 2>&1 &").Run(); err != nil {
		t.Fatal(err)
	}
	got := children()
	if len(got) != 1 {
		t.Fatalf("children %v, want the one orphan", got)
	}
	pid := got[0]
	// The orphan may still be exec'ing setsid, then sleep.
	var cmdline []byte
	for i := 0; i < 200 && !strings.HasPrefix(string(cmdline), "sleep\x00"); i++ {
		time.Sleep(10 * time.Millisecond)
		cmdline, _ = os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	}
	if !strings.HasPrefix(string(cmdline), "sleep\x00") {
		t.Fatalf("the orphan %d runs %q, want sleep", pid, cmdline)
	}
	if err := s.end(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the orphan %d is still there (kill 0: %v)", pid, err)
	}
	if got := children(); len(got) != 0 {
		t.Errorf("children %v after end, want none", got)
	}
}
