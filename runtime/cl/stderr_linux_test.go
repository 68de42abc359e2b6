package cl

import (
	"strings"
	"syscall"
	"testing"
)

// TestCaptureStderr: each capture holds what was written to fd 2 during it,
// nothing of an earlier, longer one, and more than a page whole; fd 2 is
// back where it was after.
func TestCaptureStderr(t *testing.T) {
	write := func(s string) func() {
		return func() { syscall.Write(2, []byte(s)) }
	}
	long := strings.Repeat("warning: x\n", 1000) // 11 kB
	for i, want := range []string{long, "short\n", "", "again\n"} {
		if got := captureStderr(write(want)); got != want {
			t.Fatalf("capture %d: got %d bytes (%.40q), want %d", i, len(got), got, len(want))
		}
	}
	var st2, st syscall.Stat_t
	if err := syscall.Fstat(2, &st2); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Fstat(int(realStderr.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	if st2.Dev != st.Dev || st2.Ino != st.Ino {
		t.Fatal("fd 2 is not the process's stderr after a capture")
	}
}

// TestPrepareStderrCapture: the capture's file is made ahead, once, and the
// captures then use it.
func TestPrepareStderrCapture(t *testing.T) {
	PrepareStderrCapture()
	fd := stderrFD
	if fd < 0 {
		t.Fatal("PrepareStderrCapture made no capture file")
	}
	PrepareStderrCapture()
	if got := captureStderr(func() { syscall.Write(2, []byte("x\n")) }); got != "x\n" || stderrFD != fd {
		t.Fatalf("capture after prepare: got %q on fd %d, want \"x\\n\" on fd %d", got, stderrFD, fd)
	}
}
