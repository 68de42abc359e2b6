package isolate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv tells this test binary to act as the child: the value names what
// it does.
const childEnv = "ISOLATE_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "ok":
		fmt.Println("table row")
		fmt.Fprintln(os.Stderr, "a warning")
		fmt.Fprintln(os.Stderr, "clmeter: a line that is not the last")
		fmt.Fprintln(os.Stderr, "the last line")
		os.Exit(0)
	case "fail":
		fmt.Println("partial table")
		fmt.Fprintln(os.Stderr, "a warning")
		fmt.Fprintln(os.Stderr, "clmeter: kernel k wrote past the end of argument 1")
		os.Exit(3)
	case "panic":
		fmt.Fprintln(os.Stderr, "a warning")
		panic("the driver's state is broken")
	case "segv":
		// A real fault, as a driver's would arrive (the Go runtime reports
		// a SIGSEGV it did not cause itself with its stack dump).
		fmt.Fprintln(os.Stderr, "a warning")
		syscall.Kill(os.Getpid(), syscall.SIGSEGV)
		select {}
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	case "env":
		fmt.Println(os.Getenv(Env))
		os.Exit(0)
	case "echo":
		// The child protocol: read a request, answer in JSON lines.
		var req map[string]int
		json.NewDecoder(os.Stdin).Decode(&req)
		fmt.Println("not json")
		fmt.Printf("{\"stage\": 1}\n{\"n\": %d, \"marker\": %q, \"traceback\": %q}\n", req["n"]*2, os.Getenv(Env), os.Getenv("GOTRACEBACK"))
		os.Exit(0)
	case "sleep":
		time.Sleep(time.Minute)
	}
}

func runChild(t *testing.T, mode string) (string, string, error) {
	t.Helper()
	t.Setenv(childEnv, mode)
	var out, errb strings.Builder
	err := Run(context.Background(), Options{Command: []string{os.Args[0]}, Driver: "the test driver", Fix: "try another"}, &out, &errb)
	return out.String(), errb.String(), err
}

func TestSuccessPassesOutputThrough(t *testing.T) {
	out, errs, err := runChild(t, "ok")
	if err != nil || out != "table row\n" || errs != "a warning\nclmeter: a line that is not the last\nthe last line\n" {
		t.Errorf("err %v; stdout %q; stderr %q", err, out, errs)
	}
	if out, _, _ := runChild(t, "env"); out != "1\n" {
		t.Errorf("the child does not see %s=1: %q", Env, out)
	}
}

func TestFailureKeepsStatusAndLine(t *testing.T) {
	out, errs, err := runChild(t, "fail")
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 3 || ee.Msg != "kernel k wrote past the end of argument 1" {
		t.Fatalf("want the child's status and line, got %#v", err)
	}
	if out != "partial table\n" || errs != "a warning\n" {
		t.Errorf("stdout %q; stderr %q (the error line is the parent's to print)", out, errs)
	}
}

func TestCrashIsOneLine(t *testing.T) {
	cases := []struct {
		mode, signal, reason string
	}{
		{"panic", "", "panic: the driver's state is broken"},
		{"segv", "SIGSEGV", "segmentation violation"},
		{"kill", "SIGKILL", "killed by killed"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			_, errs, err := runChild(t, c.mode)
			var ce *CrashError
			if !errors.As(err, &ce) {
				t.Fatalf("want a CrashError, got %#v; stderr:\n%s", err, errs)
			}
			if ce.Signal != c.signal || !strings.HasPrefix(ce.Reason, c.reason) || ce.Driver != "the test driver" || ce.Fix != "try another" {
				t.Errorf("got %+v", ce)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "the test driver crashed") || !strings.HasSuffix(msg, "; try another") {
				t.Errorf("message: %q", msg)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "SIG") || strings.Contains(errs, "panic") {
				t.Errorf("the crash report reached stderr:\n%s", errs)
			}
		})
	}
}

func TestCallFromStackDump(t *testing.T) {
	f := &filter{out: &strings.Builder{}}
	f.Write([]byte("warning\nSIGSEGV: segmentation violation\nPC=0x7f m=7 sigcode=1 addr=0x0\nsignal arrived during cgo execution\n\ngoroutine 24 [syscall]:\n" +
		"runtime.cgocall(0x10293b0, 0x1b4280c65b60)\ngithub.com/clmeter/clmeter/runtime/cl._Cfunc_clm_clEnqueueWriteBuffer(0x7f4f40003d80)\n"))
	f.close()
	c := crash(fakeExit(t), f)
	if c == nil || c.Signal != "SIGSEGV" || c.Call != "clEnqueueWriteBuffer" || c.Reason != "segmentation violation" {
		t.Errorf("got %+v", c)
	}
}

// fakeExit is the ExitError of a process that exited with status 2, as the Go
// runtime does after a crash report.
func fakeExit(t *testing.T) *exec.ExitError {
	t.Helper()
	err := exec.Command("sh", "-c", "exit 2").Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("sh: %v", err)
	}
	return ee
}

func TestDescribe(t *testing.T) {
	exit2 := fakeExit(t)
	cases := []struct {
		err    error
		stderr string
		want   string
	}{
		{exit2, "note\nSIGSEGV: segmentation violation\nPC=0x1\ngoroutine 1 [running]:\nx._Cfunc_clm_clBuildProgram(0x1)\n",
			"crashed (SIGSEGV) in clBuildProgram: segmentation violation"},
		{exit2, "clmeter: --device 7: no such device\n", "--device 7: no such device"},
		{exit2, "something\nthe last word\n", "exit status 2: the last word"},
		{exit2, "", "exit status 2"},
	}
	for _, c := range cases {
		if got := Describe(c.err, c.stderr); got != c.want {
			t.Errorf("%q: got %q, want %q", c.stderr, got, c.want)
		}
	}
}

// callChild runs this test binary as a child of the protocol in mode.
func callChild(t *testing.T, mode string, c Child) *Reply {
	t.Helper()
	c.Command = []string{os.Args[0]}
	c.Env = append(os.Environ(), childEnv+"="+mode)
	r, err := Call(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCallRequestReply: the request reaches the child's stdin, its JSON lines
// come back, the last one decoded, with the marker and GOTRACEBACK set.
func TestCallRequestReply(t *testing.T) {
	r := callChild(t, "echo", Child{Request: map[string]int{"n": 21}})
	var got struct {
		N                 int
		Marker, Traceback string
	}
	if err := r.Failure(); err != nil || len(r.Lines) != 2 || r.Decode(&got) != nil || got.N != 42 || got.Marker != "1" || got.Traceback != "single" || r.Wall <= 0 {
		t.Errorf("reply %+v, failure %v, decoded %+v", r, r.Failure(), got)
	}
	if r.Crash() != "" {
		t.Errorf("a child that exited 0 crashed: %q", r.Crash())
	}
}

// TestCallFailures: a failed child's own line, a crash in one line, no result
// and a time-out are each told apart.
func TestCallFailures(t *testing.T) {
	r := callChild(t, "fail", Child{})
	if err := r.Failure(); err == nil || err.Error() != "kernel k wrote past the end of argument 1" || r.Crash() != "" {
		t.Errorf("fail: %v, crash %q", err, r.Crash())
	}
	var v struct{}
	if err := r.Decode(&v); err == nil || !strings.Contains(err.Error(), "printed no result") {
		t.Errorf("decode of no JSON: %v", err)
	}
	r = callChild(t, "segv", Child{})
	if err := r.Failure(); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "SIGSEGV") || !strings.HasPrefix(r.Crash(), "SIGSEGV") {
		t.Errorf("segv: %v, crash %q", err, r.Crash())
	}
	r = callChild(t, "sleep", Child{Timeout: 200 * time.Millisecond})
	if !r.TimedOut || r.Failure() == nil {
		t.Errorf("sleep: timed out %v, failure %v", r.TimedOut, r.Failure())
	}
	if _, err := Call(context.Background(), Child{Command: []string{"/nonexistent/clmeter"}}); err == nil {
		t.Error("a child that cannot start is no error")
	}
}
