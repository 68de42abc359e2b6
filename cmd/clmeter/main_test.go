package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/doctor"
	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/icd"
)

// clm runs clmeter in-process and returns its exit status, stdout and stderr.
func clm(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"clmeter"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// needDevice skips a test when this machine has no OpenCL device.
func needDevice(t *testing.T) { t.Helper(); devtest.Need(t) }

// fast are measurement flags that keep tests short.
var fast = []string{"--samples", "3", "--min-sample-time", "1ms", "--warmup", "1x"}

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := clm(t, "--help")
	if code != 0 || !strings.Contains(out, "devices") || !strings.Contains(out, "EXIT STATUS") {
		t.Errorf("help: %d %s", code, out)
	}
	code, out, _ = clm(t, "--version")
	if code != 0 || !strings.Contains(out, version) {
		t.Errorf("version: %d %s", code, out)
	}
	for _, cmd := range []string{"devices", "doctor", "run"} {
		code, out, _ = clm(t, cmd, "--help")
		if code != 0 || !strings.Contains(out, "clmeter "+cmd) {
			t.Errorf("%s --help: %d %s", cmd, code, out)
		}
	}
	code, _, errs := clm(t, "devices", "--bogus")
	if code != exitUsage || !strings.Contains(errs, "bogus") {
		t.Errorf("bad flag: %d %q", code, errs)
	}
	code, _, errs = clm(t, "nosuch")
	if code != exitUsage || !strings.Contains(errs, `"nosuch" is not a clmeter command`) || !strings.Contains(errs, "run, serve") {
		t.Errorf("unknown command: %d %q, want exit %d naming the commands", code, errs, exitUsage)
	}
}

func TestDevices(t *testing.T) {
	needDevice(t)
	code, out, _ := clm(t, "devices")
	if code != 0 || !strings.Contains(out, "IDX") || !strings.Contains(out, "enumeration took") {
		t.Errorf("devices: %d %s", code, out)
	}
	code, out, _ = clm(t, "devices", "-v")
	if code != 0 || !strings.Contains(out, "profiling timer resolution") {
		t.Errorf("devices -v: %d %s", code, out)
	}
	code, out, _ = clm(t, "devices", "--format", "json")
	var list []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) == 0 || list[0]["ref"] != "0:0" {
		t.Errorf("devices json: %d %s", code, out)
	}
	code, _, errs := clm(t, "devices", "--format", "xml")
	if code != exitUsage || !strings.Contains(errs, "table, json") {
		t.Errorf("bad format: %d %s", code, errs)
	}
}

func TestDoctorVendorFolder(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	good := ""
	if b, err := os.ReadFile("/etc/OpenCL/vendors/pocl.icd"); err == nil {
		good = strings.TrimSpace(string(b))
	} else {
		t.Skip("no pocl.icd to copy")
	}
	os.WriteFile(filepath.Join(dir, "good.icd"), []byte(good+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.icd"), []byte("libc.so.6\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "missing.icd"), []byte("/nonexistent/libnothing.so\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "empty.icd"), []byte(""), 0o644)
	t.Setenv("OCL_ICD_VENDORS", dir)
	d := icd.ReadVendorDir(dir, "OCL_ICD_VENDORS")
	status := map[string]icd.VendorFile{}
	for _, f := range d.Files {
		status[filepath.Base(f.Path)] = f
	}
	if !status["good.icd"].OK || status["good.icd"].Platforms < 1 {
		t.Errorf("good: %+v", status["good.icd"])
	}
	if status["broken.icd"].OK || !strings.Contains(status["broken.icd"].Problem, "not an OpenCL ICD") {
		t.Errorf("broken: %+v", status["broken.icd"])
	}
	if status["missing.icd"].OK || !strings.Contains(status["missing.icd"].Problem, "libnothing") {
		t.Errorf("missing: %+v", status["missing.icd"])
	}
	if status["empty.icd"].OK || !strings.Contains(status["empty.icd"].Problem, "names no library") {
		t.Errorf("empty: %+v", status["empty.icd"])
	}
	code, out, _ := clm(t, "doctor")
	if code != 0 || !strings.Contains(out, "FAIL "+filepath.Join(dir, "broken.icd")) || !strings.Contains(out, "usable device") || !strings.Contains(out, "ran correctly") {
		t.Errorf("doctor: %d\n%s", code, out)
	}
	code, out, _ = clm(t, "doctor", "--format", "json")
	var diag doctor.Diagnosis
	if code != 0 || json.Unmarshal([]byte(out), &diag) != nil || diag.UsableDevices < 1 || len(diag.VendorDirs[0].Files) != 4 {
		t.Errorf("doctor json: %d %s", code, out)
	}
}

// TestNoLibrary runs the binary's main in a child whose OpenCL library is
// missing: device commands fail with one line and exit 4, the rest works.
func TestNoLibrary(t *testing.T) {
	if os.Getenv("CLMETER_TEST_MAIN") == "1" {
		main()
		return
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, 0, "clmeter"},
		{[]string{"run", "--help"}, 0, "ARGUMENTS"},
		{[]string{"devices"}, exitNoDevice, "OpenCL ICD loader (libOpenCL.so.1) not found"},
		{[]string{"run", "saxpy", "--size", "1Ki"}, exitNoDevice, "ocl-icd-libopencl1"},
		{[]string{"doctor"}, exitNoDevice, "FAIL"},
	}
	for _, c := range cases {
		cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestNoLibrary$", "--"}, c.args...)...)
		cmd.Env = append(os.Environ(), "CLMETER_TEST_MAIN=1", "CLMETER_OPENCL_LIB=/nonexistent/libOpenCL.so.1")
		out, _ := cmd.CombinedOutput()
		code := cmd.ProcessState.ExitCode()
		if code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: exit %d, want %d; output:\n%s", c.args, code, c.code, out)
		}
		if c.code == exitNoDevice && c.args[0] != "doctor" && strings.Count(strings.TrimSpace(string(out)), "\n") > 0 {
			t.Errorf("%v: want one line, got:\n%s", c.args, out)
		}
	}
}

func TestMain(m *testing.M) {
	if os.Getenv("CLMETER_TEST_MAIN") == "1" {
		// Strip the test flags: the child runs clmeter's main with what follows "--".
		for i, a := range os.Args {
			if a == "--" {
				os.Args = append([]string{"clmeter"}, os.Args[i+1:]...)
				break
			}
		}
		rerunPrefix = []string{"--"} // an isolated child is this binary running main too
		main()
		return
	}
	rerunOff = true // commands run in this process: no child reruns them
	// Tests build into a private binary cache, never the user's.
	dir, err := os.MkdirTemp("", "clmeter-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("CLMETER_CACHE_DIR", dir)
	os.Setenv("CLMETER_PROFILE_DIR", filepath.Join(dir, "profiles")) // and a private device profile
	os.Setenv(cache.StoreWaitEnv, "1")                               // a child clmeter waits for its store child: none outlives a test
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestRunBuiltinWritesResult(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "r.json")
	args := append([]string{"run", "saxpy", "--size", "64Ki,128Ki", "-o", out, "--timer", "both"}, fast...)
	code, stdout, errs := clm(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	if !strings.Contains(stdout, "saxpy") || !strings.Contains(stdout, "B/s") || !strings.Contains(stdout, "sample-count") {
		t.Errorf("table:\n%s", stdout)
	}
	f, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Benchmarks) != 2 || f.Benchmarks[0].Measurement == nil || len(f.Benchmarks[0].Measurement.Samples) != 3 {
		t.Fatalf("result file: %+v", f.Benchmarks)
	}
	m := f.Benchmarks[1].Measurement
	if m.Valid == nil || !*m.Valid || m.Throughput == nil || m.Throughput.GBPerSecond <= 0 || m.HostSummary == nil || m.Phases == nil {
		t.Errorf("measurement %+v", m)
	}
	if f.Benchmarks[1].Params["n"] != "131072" || f.Benchmarks[0].Device.Name == "" {
		t.Errorf("params %+v device %+v", f.Benchmarks[1].Params, f.Benchmarks[0].Device)
	}
	code, stdout, _ = clm(t, append([]string{"run", "copy", "--size", "4Ki", "--format", "json"}, fast...)...)
	var jf results.File
	if code != 0 || json.Unmarshal([]byte(stdout), &jf) != nil || len(jf.Benchmarks) != 1 {
		t.Errorf("json: %d %s", code, stdout)
	}
}

const userCL = `
__kernel void scale(__global const float *x, __global float *y, float a) {
	size_t i = get_global_id(0);
	y[i] = a * x[i] * FACTOR;
}
__kernel void tiled(__global float *y, __local float *tmp) {
	size_t l = get_local_id(0);
	tmp[l] = (float)l;
	barrier(CLK_LOCAL_MEM_FENCE);
	y[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}
`

func TestRunUserKernelAndSpec(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	cl := filepath.Join(dir, "k.cl")
	os.WriteFile(cl, []byte(userCL), 0o644)
	code, stdout, errs := clm(t, append([]string{"run", cl, "--kernel", "scale", "--global", "N", "--local", "16", "--size", "1Ki",
		"--arg", "buf:float:N:ones", "--arg", "buf:float:N:zero:out", "--arg", "float:2", "-D", "FACTOR=3", "--bytes", "8*N", "--flops", "2*N"}, fast...)...)
	if code != 0 || !strings.Contains(stdout, "scale") || !strings.Contains(stdout, "FLOP/s") {
		t.Fatalf("user kernel: %d %s %s", code, stdout, errs)
	}
	code, stdout, errs = clm(t, append([]string{"run", cl, "--kernel", "tiled", "--global", "256", "--local", "64", "-D", "FACTOR=1",
		"--arg", "buf:float:256:zero:out", "--arg", "local:float:64"}, fast...)...)
	if code != 0 {
		t.Fatalf("local memory kernel: %d %s %s", code, stdout, errs)
	}

	spec := filepath.Join(dir, "s.yaml")
	os.WriteFile(spec, []byte(`source: k.cl
kernel: scale
defines: [FACTOR=2]
global: N
args: [buf:float:N:ones, buf:float:N:zero:out, float:1.5]
bytes: 8*N
axes:
  N: [1Ki, 4Ki]
expect:
  - {arg: 1, value: 3}
`), 0o644)
	out := filepath.Join(dir, "r.json")
	code, stdout, errs = clm(t, append([]string{"run", spec, "-o", out}, fast...)...)
	if code != 0 || strings.Count(stdout, "scale") < 2 {
		t.Fatalf("spec: %d %s %s", code, stdout, errs)
	}
	f, err := results.Read(out)
	if err != nil || len(f.Benchmarks) != 2 || f.Benchmarks[1].Params["N"] != "4096" || !*f.Benchmarks[0].Measurement.Valid {
		t.Fatalf("spec result: %v %+v", err, f)
	}

	// A failing expected-output check marks the result invalid: exit 3, file kept.
	os.WriteFile(spec, []byte(`source: k.cl
kernel: scale
defines: [FACTOR=2]
global: 64
args: [buf:float:64:ones, buf:float:64:zero:out, float:1.5]
expect:
  - {arg: 1, value: 4}
`), 0o644)
	out2 := filepath.Join(dir, "r2.json")
	code, stdout, errs = clm(t, append([]string{"run", spec, "-o", out2}, fast...)...)
	if code != exitInvalid || !strings.Contains(stdout, "INVALID") || !strings.Contains(errs, "failed validation") {
		t.Errorf("invalid: %d %s %s", code, stdout, errs)
	}
	if f, err := results.Read(out2); err != nil || *f.Benchmarks[0].Measurement.Valid {
		t.Errorf("invalid result file: %v", err)
	}
}

// TestRunBadInput: each bad input gives one clear line, a non-zero exit and no
// result file.
func TestRunBadInput(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	cl := filepath.Join(dir, "k.cl")
	os.WriteFile(cl, []byte(userCL), 0o644)
	bad := filepath.Join(dir, "bad.cl")
	os.WriteFile(bad, []byte("__kernel void broken(__global float *x) { x[0] = nosuchthing; }"), 0o644)
	os.WriteFile(filepath.Join(dir, "syntax.yaml"), []byte("source: k.cl\nkernel: scale\nglobal: [1,\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "unknown.yaml"), []byte("source: k.cl\nkernel: scale\nglobal: 4\ncolour: red\n"), 0o644)
	m := runtime.NewManager()
	maxAlloc := devtest.Select(t, m).Info.MaxAllocBytes
	m.Close()
	user := []string{"run", cl, "--kernel", "scale", "-D", "FACTOR=1"}
	three := []string{"--arg", "buf:float:64", "--arg", "buf:float:64:zero:out", "--arg", "float:1"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown kernel name", []string{"run", "sxapy"}, "unknown kernel \"sxapy\""},
		{"build failure", []string{"run", bad, "--kernel", "broken", "--global", "4", "--arg", "buf:float:4"}, "nosuchthing"},
		{"no such kernel in file", append([]string{"run", cl, "--kernel", "nope", "--global", "64", "-D", "FACTOR=1"}, three...), "has no kernel \"nope\""},
		{"wrong argument count", append(user, "--global", "64", "--arg", "buf:float:64"), "takes 3 arguments, 1 were given"},
		{"wrong argument type", append(user, "--global", "64", "--arg", "buf:float:64", "--arg", "buf:float:64:zero:out", "--arg", "double:1"), "is float, but --arg \"double:1\" gives a value of double"},
		{"value for a buffer", append(user, "--global", "64", "--arg", "int:5", "--arg", "buf:float:64:zero:out", "--arg", "float:1"), "is __global float*, but --arg \"int:5\" gives a value of int"},
		{"bad argument grammar", append(user, "--global", "64", "--arg", "buf:flaot:64"), "unknown type \"flaot\""},
		{"global not a multiple of local", append(append(user, "--global", "100", "--local", "16"), three...), "not a multiple of local size"},
		{"local over device maximum", append(append(user, "--global", "1Mi", "--local", "1Mi"), three...), "over the device's maximum"},
		{"buffer over max alloc", append(user, "--global", "64", "--arg", "buf:float:"+itoa(maxAlloc/4+1), "--arg", "buf:float:64:zero:out", "--arg", "float:1"), "CL_DEVICE_MAX_MEM_ALLOC_SIZE"},
		{"spec syntax error", []string{"run", filepath.Join(dir, "syntax.yaml")}, "syntax.yaml:"},
		{"spec unknown field", []string{"run", filepath.Join(dir, "unknown.yaml")}, "unknown.yaml:4: field colour"},
		{"zero size", []string{"run", "saxpy", "--size", "0"}, "must be positive"},
		{"negative size", []string{"run", "saxpy", "--size", "-5"}, "must be positive"},
		{"negative global", append(append(user, "--global", "-64"), three...), "must be positive"},
		{"missing kernel flag", []string{"run", cl, "--global", "4"}, "--kernel"},
		{"flags for built-in", []string{"run", "saxpy", "--global", "4"}, "--global is for your own kernels"},
		{"no target", []string{"run"}, "takes one target"},
		{"bad timer", []string{"run", "saxpy", "--timer", "sundial"}, "sundial"},
		{"bad warmup", []string{"run", "saxpy", "--warmup", "lots"}, "--warmup"},
		{"output is a folder", []string{"run", "saxpy", "-o", dir}, "is a folder"},
	}
	for _, c := range cases {
		out := filepath.Join(dir, "out-"+strings.ReplaceAll(c.name, " ", "-")+".json")
		// The case's own flags come last, so they win over the fast defaults.
		args := append(append([]string{c.args[0]}, fast...), c.args[1:]...)
		args = append(args, "--no-cache") // no note about storing binaries before the error
		if c.name != "output is a folder" {
			args = append(args, "-o", out)
		}
		code, stdout, errs := clm(t, args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want it to contain %q (stdout %q)", c.name, code, errs, c.want, stdout)
		}
		if c.name != "build failure" && strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%s: want one line, got %q", c.name, errs)
		}
		if !strings.HasPrefix(errs, "clmeter: ") {
			t.Errorf("%s: stderr %q", c.name, errs)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: left a result file", c.name)
		}
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".*")); len(entries) > 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestUnwritableOutputFailsFirst: a -o that cannot be written is a usage error
// (exit 2) before anything is measured, for every command that measures.
func TestUnwritableOutputFailsFirst(t *testing.T) {
	needDevice(t)
	bad := filepath.Join(t.TempDir(), "no-such-folder", "out.json")
	for _, args := range [][]string{
		append([]string{"run", "saxpy", "--size", "4Ki", "-o", bad}, fast...),
		append([]string{"suite", "launch", "-o", bad}, fast...),
		{"cache", "bench", "small", "--trials", "1", "-o", bad},
		append([]string{"tune", "../../examples/matmul/tune.yaml", "--set", "N=256", "-o", bad}, fast...),
	} {
		code, out, errs := clm(t, args...)
		if code != exitUsage || !strings.Contains(errs, "cannot write there") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q, want exit %d and one line saying -o cannot be written", args[:2], code, errs, exitUsage)
		}
		if strings.Contains(out, "BENCHMARK") || strings.Contains(out, "time to first result") || strings.Contains(out, "CONFIGURATION") {
			t.Errorf("%v measured before failing on -o:\n%s", args[:2], out)
		}
	}
}
