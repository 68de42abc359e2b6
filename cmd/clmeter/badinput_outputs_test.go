package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// badOutputRows are the bad-input rows of outputs (issue 44): a name over
// NAME_MAX, a socket, a file where a folder should be; each refused before
// any work, with one line.
func badOutputRows(fx badFixtures) []badInput {
	const u = exitUsage
	d := fx.dir
	long := filepath.Join(d, strings.Repeat("n", 300)+".json")
	sock := filepath.Join(d, "out.sock")
	if err := syscall.Mknod(sock, syscall.S_IFSOCK|0o644, 0); err != nil {
		panic(err)
	}
	under := filepath.Join(fx.good, "r.html")
	tooLong := []string{"305 bytes long", "over the 255", "shorter name"}
	return []badInput{
		{name: "run -o a name over NAME_MAX", args: []string{"run", "saxpy", "--size", "1Ki", "-o", long}, code: u, want: tooLong},
		{name: "suite -o a name over NAME_MAX", args: []string{"suite", "quick", "-o", long}, code: u, want: tooLong},
		{name: "trace -o a name over NAME_MAX", args: []string{"trace", "saxpy", "--size", "1Ki", "-o", long}, code: u, want: tooLong},
		{name: "tune -o a name over NAME_MAX", args: []string{"tune", "../../examples/matmul/tune.yaml", "-o", long}, code: u, want: tooLong},
		{name: "report -o a name over NAME_MAX", args: []string{"report", fx.good, "-o", long}, code: u, want: tooLong},
		{name: "run -o a socket", args: []string{"run", "saxpy", "--size", "1Ki", "-o", sock}, code: u, want: []string{"is a socket", "regular file, a character device or a FIFO"}},
		{name: "report -o a socket", args: []string{"report", fx.good, "-o", sock}, code: u, want: []string{"is a socket"}},
		{name: "report -o under a file", args: []string{"report", fx.good, "-o", under}, code: u, want: []string{"cannot write there", "not a directory"}},
	}
}

// TestOutputsToSpecialFiles: -o to a character device (a copy of /dev/null
// made with mknod), a FIFO (read by a goroutine) and a symbolic link writes
// through them or, for the link, replaces the file it names; each is what it
// was afterwards. Through report, and through run where there is a device.
func TestOutputsToSpecialFiles(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mknod of a character device needs root (CI runs as root)")
	}
	fx := makeBadFixtures(t)
	for _, cmd := range [][]string{{"report", fx.good, "--format", "json"}, append(append([]string{"run", "saxpy", "--size", "1Ki"}, fast...), "--no-cache")} {
		t.Run(cmd[0], func(t *testing.T) {
			if cmd[0] == "run" {
				needDevice(t)
			}
			dir := t.TempDir()
			null, fifo, real, link := filepath.Join(dir, "null"), filepath.Join(dir, "fifo"), filepath.Join(dir, "real.json"), filepath.Join(dir, "link")
			if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(real, []byte("old"), 0o644)
			os.Symlink("real.json", link)
			args := func(out string) []string { return append(append([]string{}, cmd...), "-o", out) }
			if code, _, errs := clm(t, args(null)...); code != 0 {
				t.Fatalf("-o a character device: exit %d: %s", code, errs)
			}
			got := make(chan []byte)
			go func() {
				b, _ := os.ReadFile(fifo)
				got <- b
			}()
			if code, _, errs := clm(t, args(fifo)...); code != 0 {
				t.Fatalf("-o a FIFO: exit %d: %s", code, errs)
			}
			if b := <-got; !isResultFile(b) {
				t.Errorf("the FIFO's reader got %.200q, want one whole JSON document", b)
			}
			if code, _, errs := clm(t, args(link)...); code != 0 {
				t.Fatalf("-o a link: exit %d: %s", code, errs)
			}
			if b, _ := os.ReadFile(real); !isResultFile(b) {
				t.Errorf("the link's file holds %.200q, want one whole JSON document", b)
			}
			for path, want := range map[string]os.FileMode{null: os.ModeCharDevice, fifo: os.ModeNamedPipe, link: os.ModeSymlink} {
				if fi, err := os.Lstat(path); err != nil || fi.Mode()&want == 0 {
					t.Errorf("%s is %v afterwards (%v), want %v", filepath.Base(path), fi.Mode(), err, want)
				}
			}
			if n := listFiles(t, dir); len(n) != 4 {
				t.Errorf("the folder holds %v, want the four", n)
			}
		})
	}
}

// isResultFile says b is one whole JSON document: a result file, or
// report's JSON.
func isResultFile(b []byte) bool {
	return json.Valid(b) && bytes.HasPrefix(b, []byte("{"))
}

// clmChild starts the test binary as clmeter with args and env; its stdout
// and stderr are kept.
func clmChild(t *testing.T, env []string, args ...string) (cmd *exec.Cmd, stdout, stderr *bytes.Buffer) {
	t.Helper()
	cmd = exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(append(os.Environ(), "CLMETER_TEST_MAIN=1"), env...)
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout, stderr
}

// TestBadVendorFile: a vendor file whose first byte is NUL (ocl-icd's loader
// crashes on it in clGetPlatformIDs) is named by doctor, and devices and run
// end with one line naming it, never a crash with a stack; compare of two
// files, which lists no platform, is not stopped by it.
func TestBadVendorFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.icd")
	os.WriteFile(bad, []byte("\x00libpocl.so.2\n"), 0o644)
	if b, err := os.ReadFile("/etc/OpenCL/vendors/pocl.icd"); err == nil {
		os.WriteFile(filepath.Join(dir, "pocl.icd"), b, 0o644)
	}
	env := []string{"OCL_ICD_VENDORS=" + dir}
	good := filepath.Join(dir, "good.json")
	f := storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0], Samples: 8, Created: time.Now()})
	if err := results.WriteFile(good, f); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"doctor"}, {"devices"}, {"run", "saxpy", "--size", "1Ki"}, {"compare", good, good}} {
		cmd, out, errb := clmChild(t, env, args...)
		cmd.Wait()
		code, errs := cmd.ProcessState.ExitCode(), errb.String()
		if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "SIGSEGV: segmentation") || code < 0 {
			t.Errorf("%v crashed (exit %d):\n%s", args, code, tail(errs, 600))
			continue
		}
		if args[0] == "doctor" {
			if !strings.Contains(out.String(), "FAIL "+bad+" holds a NUL byte at byte 0") {
				t.Errorf("doctor does not name %s:\n%s", bad, out.String())
			}
			continue
		}
		if args[0] == "compare" && code != 0 {
			t.Errorf("compare of two files: exit %d: %q", code, errs)
		}
		if code != 0 && (code != exitNoDevice || !strings.Contains(errs, bad) || strings.Count(strings.TrimSpace(errs), "\n") != 0) {
			t.Errorf("%v: exit %d, want 4 and one line naming %s: %q", args, code, bad, errs)
		}
	}
}

// TestInterruptedReportLeavesNoTempFile: report --format html -o of a large
// file, interrupted while it writes (once its temporary file is there), ends
// with 130, leaves no temporary file and the old output as it was, and does
// not speak of a device. The file grows until an interrupt lands mid-write.
func TestInterruptedReportLeavesNoTempFile(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "big.json"), filepath.Join(dir, "r.html")
	os.WriteFile(out, []byte("old"), 0o644)
	done := map[os.Signal]bool{}
	for n := 500; n <= 64000; n *= 2 {
		f := storetest.File(storetest.Suite(n), storetest.Options{Device: storetest.Devices[0], Samples: 8, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
		if err := results.WriteFile(in, f); err != nil {
			t.Fatal(err)
		}
		for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
			if done[sig] {
				continue
			}
			cmd, _, errb := clmChild(t, nil, "report", in, "--format", "html", "-o", out)
			landed := false
			for !landed && cmd.ProcessState == nil {
				if tmp, _ := filepath.Glob(filepath.Join(dir, ".r.html.tmp-*")); len(tmp) > 0 {
					landed = cmd.Process.Signal(sig) == nil
				}
				time.Sleep(time.Millisecond)
				if !landed {
					var ws syscall.WaitStatus
					if pid, _ := syscall.Wait4(cmd.Process.Pid, &ws, syscall.WNOHANG, nil); pid == cmd.Process.Pid {
						break // ended before the interrupt: a larger file
					}
				}
			}
			if !landed {
				cmd.Wait()
				os.WriteFile(out, []byte("old"), 0o644)
				continue
			}
			cmd.Wait()
			errs := errb.String()
			if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || strings.Contains(errs, "device") {
				t.Errorf("%v: exit %d, want 130 and no word of a device: %q", sig, code, errs)
			}
			if names := listFiles(t, dir); len(names) != 2 {
				t.Errorf("%v: the folder holds %v, want big.json and r.html only", sig, names)
			}
			if b, _ := os.ReadFile(out); string(b) != "old" {
				t.Errorf("%v: r.html holds %d bytes, want the old", sig, len(b))
			}
			t.Logf("%v landed mid-write with %d benchmarks: %s", sig, n, strings.TrimSpace(errs))
			if done[sig] = true; len(done) == 2 {
				return
			}
		}
	}
	t.Fatalf("interrupts landed while the report was written: %v, want SIGINT and SIGTERM", done)
}

// TestServeStoppedByInterrupt: serve stopped by Ctrl-C says the dashboard
// stopped and exits 0, not that it was interrupted after its work.
func TestServeStoppedByInterrupt(t *testing.T) {
	fx := makeBadFixtures(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "serve", "--store", fx.goodStore, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "CLMETER_TEST_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), "serving") {
			cmd.Process.Signal(os.Interrupt)
		}
	}
	cmd.Wait()
	all := strings.Join(append(lines, errb.String()), "\n")
	if code := cmd.ProcessState.ExitCode(); code != 0 || !strings.Contains(all, "the dashboard stopped") || strings.Contains(all, "after the work") {
		t.Errorf("exit %d, want 0 and a word that the dashboard stopped:\n%s", code, all)
	}
}
