package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clmeter/clmeter/runtime/icd"
	"github.com/clmeter/clmeter/target"
)

// childEnv makes this test binary the check's child process (see TestMain);
// its value "crash-uninit" makes the child die of SIGSEGV whenever Oclgrind's
// uninitialized-value tracking is on, as Oclgrind has been seen to.
const childEnv = "CLMETER_CHECK_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		if mode == "crash-uninit" && os.Getenv("OCLGRIND_UNINITIALIZED") == "1" {
			os.Stderr.WriteString("goroutine 1 [running]:\nmain.main()\n")
			syscall.Kill(os.Getpid(), syscall.SIGSEGV)
			select {}
		}
		if err := Child(context.Background(), os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// needOclgrind fails the test where Oclgrind must be (CI installs it) and
// skips it elsewhere.
func needOclgrind(t *testing.T) {
	t.Helper()
	if _, err := icd.FindOclgrindICD(os.Getenv(icd.OclgrindICDEnv)); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI installs Oclgrind (make deps): %v", err)
		}
		t.Skipf("no Oclgrind here: %v", err)
	}
}

// checkRun runs Run with this test binary as the child.
func checkRun(t *testing.T, mode string, opts Options) (*Report, string, error) {
	t.Helper()
	t.Setenv(childEnv, mode)
	opts.Child = []string{os.Args[0]}
	opts.Output = filepath.Join(t.TempDir(), "check.json")
	var out, errb bytes.Buffer
	err := Run(context.Background(), opts, &out, &errb)
	b, rerr := os.ReadFile(opts.Output)
	if rerr != nil {
		t.Fatalf("no report file (%v); run: %v\n%s\n%s", rerr, err, out.String(), errb.String())
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep, out.String(), err
}

// TestBugs is the acceptance test: every planted bug in examples/bugs is found,
// with its kind and line, and the clean kernel has no finding.
func TestBugs(t *testing.T) {
	needOclgrind(t)
	files, _ := filepath.Glob("../examples/bugs/*.cl")
	if len(files) != 5 {
		t.Fatalf("examples/bugs has %d kernels, want 5", len(files))
	}
	rep, text, err := checkRun(t, "normal", Options{Targets: files})
	var fe *FindingsError
	if !errors.Is(err, ErrFindings) || !errors.As(err, &fe) || fe.Findings != 4 || fe.Configs != 4 {
		t.Fatalf("error %v, want 4 findings in 4 configurations\n%s", err, text)
	}
	want := map[string]struct {
		kind  Kind
		lines []int // the finding's line, and a race's other line
	}{
		"oob.cl":     {InvalidRead, []int{6}},
		"race.cl":    {DataRace, []int{6, 6}},
		"barrier.cl": {DataRace, []int{8, 9}},
		"uninit.cl":  {Uninitialized, []int{10}},
		"clean.cl":   {"", nil},
	}
	if len(rep.Configs) != 5 {
		t.Fatalf("%d configurations in the report", len(rep.Configs))
	}
	for _, c := range rep.Configs {
		name := filepath.Base(c.Target)
		w := want[name]
		if c.Error != "" {
			t.Errorf("%s not checked: %s", name, c.Error)
			continue
		}
		if len(c.Checks) != 5 {
			t.Errorf("%s: checks %v (uninitialized values dropped?) notes %v", name, c.Checks, c.Notes)
		}
		if w.kind == "" {
			if len(c.Findings) != 0 {
				t.Errorf("%s: findings in the clean kernel: %+v", name, c.Findings)
			}
			continue
		}
		if len(c.Findings) != 1 {
			t.Errorf("%s: %d findings, want 1 (one planted bug): %+v", name, len(c.Findings), c.Findings)
			continue
		}
		f := c.Findings[0]
		if f.Kind != w.kind || f.Location == nil || f.WorkItem == nil || f.Kernel != c.Kernel {
			t.Errorf("%s: %+v, want kind %s with a location and a work-item", name, f, w.kind)
			continue
		}
		got := []int{f.Location.Line}
		if f.Other != nil && f.Other.Location != nil {
			got = append(got, f.Other.Location.Line)
			if got[0] > got[1] {
				got[0], got[1] = got[1], got[0]
			}
		}
		if len(got) != len(w.lines) || got[0] != w.lines[0] || got[len(got)-1] != w.lines[len(w.lines)-1] {
			t.Errorf("%s: lines %v, want %v", name, got, w.lines)
		}
		if !strings.HasSuffix(f.Location.File, "examples/bugs/"+name) || f.Location.Code == "" {
			t.Errorf("%s: located at %s %q, want the user's file and its line", name, f.Location.File, f.Location.Code)
		}
		if !strings.Contains(text, f.Location.Code) {
			t.Errorf("%s: the text report does not quote line %d", name, f.Location.Line)
		}
	}
	oob := rep.Configs[2].Findings
	if len(oob) != 1 || oob[0].Buffer != "argument 0 (buf:float:N:rand: 256 float), element 256: past its end" {
		t.Errorf("the out-of-bounds read is not named as past the end of argument 0: %+v", oob)
	}
}

func TestCleanBuiltin(t *testing.T) {
	needOclgrind(t)
	rep, text, err := checkRun(t, "normal", Options{Targets: []string{"saxpy"}, Flags: target.Flags{Sizes: "512"}})
	if err != nil || rep.Findings != 0 || len(rep.Configs) != 1 || rep.Configs[0].Kernel != "saxpy" {
		t.Fatalf("saxpy: %v %+v\n%s", err, rep, text)
	}
	if !strings.Contains(rep.Device, "Oclgrind") || !strings.Contains(text, "no findings") {
		t.Errorf("device %q\n%s", rep.Device, text)
	}
}

// TestCrashIsAMessage: a child that dies of SIGSEGV with uninitialized-value
// tracking on is run again without it; the findings stay, and no stack dump
// reaches the user.
func TestCrashIsAMessage(t *testing.T) {
	needOclgrind(t)
	rep, text, err := checkRun(t, "crash-uninit", Options{Targets: []string{"../examples/bugs/race.cl"}})
	if !errors.Is(err, ErrFindings) || rep.Findings != 1 {
		t.Fatalf("%v\n%s", err, text)
	}
	c := rep.Configs[0]
	if len(c.Notes) == 0 || !strings.Contains(c.Notes[0], "crashed") || !strings.Contains(c.Notes[0], "SIGSEGV") {
		t.Errorf("notes %v", c.Notes)
	}
	for _, ch := range c.Checks {
		if strings.Contains(ch, "uninitialized") {
			t.Errorf("checks %v still claim uninitialized values", c.Checks)
		}
	}
	if strings.Contains(text, "goroutine") {
		t.Errorf("a stack dump reached the report:\n%s", text)
	}
}

func TestNotChecked(t *testing.T) {
	needOclgrind(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.cl")
	os.WriteFile(bad, []byte("__kernel void f(__global float *x) { x[0] = y; }\n"), 0o644)
	rep, text, err := checkRun(t, "normal", Options{Targets: []string{bad},
		Flags: target.Flags{Kernel: "f", Global: "N", Args: []string{"buf:float:N"}, Sizes: "16"}})
	if err == nil || errors.Is(err, ErrFindings) || rep.Failed != 1 || rep.Findings != 0 {
		t.Fatalf("build failure: %v %+v", err, rep)
	}
	if !strings.Contains(rep.Configs[0].Error, "undeclared identifier") || !strings.Contains(text, "NOT CHECKED") {
		t.Errorf("error %q\n%s", rep.Configs[0].Error, text)
	}
	// A spec file's expect is checked on the one launch.
	spec := filepath.Join(dir, "clean.yaml")
	src, _ := filepath.Abs("../examples/bugs/clean.cl")
	os.WriteFile(spec, []byte("source: "+src+"\nkernel: groupsum\nglobal: 128\nlocal: 64\nargs: [buf:float:128:ones, buf:float:2:zero:out, local:float:64]\nexpect:\n  - {arg: 1, value: 63}\n"), 0o644)
	rep, text, err = checkRun(t, "normal", Options{Targets: []string{spec}})
	if !errors.Is(err, ErrFindings) || rep.Findings != 1 || rep.Configs[0].Findings[0].Kind != WrongOutput {
		t.Fatalf("wrong expect: %v\n%s", err, text)
	}
}

func TestPlan(t *testing.T) {
	cfgs, notes, err := Plan([]string{"saxpy", "../examples/stencil/stencil.yaml"}, target.Flags{}, false)
	if err != nil || len(cfgs) != 2 || cfgs[0].N != DefaultSize || cfgs[1].Values[0] != 1024 {
		t.Fatalf("%v %+v", err, cfgs)
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "check's own default") {
		t.Errorf("notes %q", notes)
	}
	cfgs, _, err = Plan([]string{"../examples/stencil/stencil.yaml"}, target.Flags{}, true)
	if err != nil || len(cfgs) != 3 {
		t.Errorf("--all: %v %d", err, len(cfgs))
	}
	cfgs, _, err = Plan([]string{"../examples/stencil/stencil.yaml"}, target.Flags{Sizes: "64,32"}, false)
	if err != nil || len(cfgs) != 2 || cfgs[1].Values[0] != 32 {
		t.Errorf("--size on a spec file: %v %+v", err, cfgs)
	}
	cfgs, _, err = Plan([]string{"../examples/bugs/oob.cl"}, target.Flags{}, false)
	if err != nil || len(cfgs) != 1 || cfgs[0].Label != "../examples/bugs/oob.cl N=256" {
		t.Errorf("FILE.cl with a spec beside it: %v %+v", err, cfgs)
	}
	bad := []struct {
		targets []string
		flags   target.Flags
		want    string
	}{
		{nil, target.Flags{}, "one or more targets"},
		{[]string{"nosuch"}, target.Flags{}, "unknown kernel"},
		{[]string{"../examples/blur/blur.cl"}, target.Flags{}, "put a spec file blur.yaml beside it"},
		{[]string{"saxpy"}, target.Flags{Kernel: "x"}, "for your own kernels"},
		{[]string{"../examples/stencil/stencil.yaml"}, target.Flags{Global: "N"}, "a spec file holds"},
		{[]string{"../examples/blur/blur.cl"}, target.Flags{Kernel: "blur"}, "global size"},
	}
	for _, b := range bad {
		if _, _, err := Plan(b.targets, b.flags, false); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%v %+v: %v, want %q", b.targets, b.flags, err, b.want)
		}
	}
}

func TestNoOclgrind(t *testing.T) {
	if !strings.Contains(icd.ErrNoOclgrind.Error(), "apt-get install oclgrind") {
		t.Errorf("%v", icd.ErrNoOclgrind)
	}
	err := Run(context.Background(), Options{Targets: []string{"saxpy"}, Child: []string{os.Args[0]}, OclgrindICD: "/nonexistent/liboclgrind-rt-icd.so"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), icd.OclgrindICDEnv) {
		t.Errorf("%v", err)
	}
}

// TestBufferWithProgramConstant: a program-scope __constant array takes an
// allocation number before the arguments; the finding still names argument 0.
func TestBufferWithProgramConstant(t *testing.T) {
	needOclgrind(t)
	src := filepath.Join(t.TempDir(), "cst.cl")
	os.WriteFile(src, []byte("__constant float w[4] = {1, 2, 3, 4};\n"+
		"__kernel void f(__global const float *in, __global float *out)\n"+
		"{\n    int i = get_global_id(0);\n    out[i] = w[i % 4] * in[i + 1];\n}\n"), 0o644)
	rep, text, err := checkRun(t, "normal", Options{Targets: []string{src},
		Flags: target.Flags{Kernel: "f", Global: "N", Args: []string{"buf:float:N:rand", "buf:float:N:zero:out"}, Sizes: "64"}})
	if !errors.Is(err, ErrFindings) || rep.Findings != 1 {
		t.Fatalf("%v\n%s", err, text)
	}
	f := rep.Configs[0].Findings[0]
	if f.Kind != InvalidRead || f.Location.Line != 5 || f.Buffer != "argument 0 (buf:float:N:rand: 64 float), element 64: past its end" {
		t.Errorf("%+v", f)
	}
}
