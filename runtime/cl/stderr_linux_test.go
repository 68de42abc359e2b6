package cl

import (
	"strings"
	"syscall"
	"testing"
	"time"
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
		if got, shared := captureStderr(write(want)); got != want || shared {
			t.Fatalf("capture %d: got %d bytes (%.40q, shared %v), want %d alone", i, len(got), got, shared, len(want))
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
	fd := capture.fd
	if fd < 0 {
		t.Fatal("PrepareStderrCapture made no capture file")
	}
	PrepareStderrCapture()
	if got, _ := captureStderr(func() { syscall.Write(2, []byte("x\n")) }); got != "x\n" || capture.fd != fd {
		t.Fatalf("capture after prepare: got %q on fd %d, want \"x\\n\" on fd %d", got, capture.fd, fd)
	}
}

// Captures run at once (builds on two devices): one runs whole while another
// is held in its build, fd 2 stays captured until the last ends, each gets
// the bytes of its own span marked shared, and a lone capture after them
// gets its own bytes alone.
func TestCaptureStderrAtOnce(t *testing.T) {
	write := func(s string) { syscall.Write(2, []byte(s)) }
	inA, releaseA := make(chan struct{}), make(chan struct{})
	type got struct {
		out    string
		shared bool
	}
	doneA := make(chan got)
	go func() {
		out, shared := captureStderr(func() {
			write("a1\n")
			close(inA)
			<-releaseA
			write("a2\n")
		})
		doneA <- got{out, shared}
	}()
	<-inA
	doneB := make(chan got)
	go func() {
		out, shared := captureStderr(func() { write("b1\n") })
		doneB <- got{out, shared}
	}()
	var b got
	select {
	case b = <-doneB:
	case <-time.After(30 * time.Second):
		t.Fatal("a capture waited for another build to end: builds are serialised")
	}
	if b.out != "b1\n" || !b.shared {
		t.Errorf("B: %q shared %v, want \"b1\\n\" shared", b.out, b.shared)
	}
	// A still builds: fd 2 is still the capture.
	var st2, st syscall.Stat_t
	syscall.Fstat(2, &st2)
	syscall.Fstat(int(realStderr.Fd()), &st)
	if st2.Dev == st.Dev && st2.Ino == st.Ino {
		t.Error("fd 2 went back to the terminal while a build still ran")
	}
	close(releaseA)
	a := <-doneA
	if a.out != "a1\nb1\na2\n" || !a.shared {
		t.Errorf("A: %q shared %v, want its span \"a1 b1 a2\" shared", a.out, a.shared)
	}
	if out, shared := captureStderr(func() { write("c\n") }); out != "c\n" || shared {
		t.Errorf("a lone capture after them: %q shared %v", out, shared)
	}
	syscall.Fstat(2, &st2)
	if st2.Dev != st.Dev || st2.Ino != st.Ino {
		t.Fatal("fd 2 is not the process's stderr after the captures")
	}
}
