package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/check"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime/icd"
)

// TestKernelFlagsShared: run, check, tune, compare and trace take the one
// kernel flag set, with one help text each.
func TestKernelFlagsShared(t *testing.T) {
	newApp(io.Discard, io.Discard)
	for _, name := range []string{"run", "check", "tune", "compare", "trace"} {
		cmd := findCommand(commands, name)
		if cmd == nil {
			t.Fatalf("no command %s", name)
		}
		for _, f := range kernelFlags {
			if !slices.Contains(cmd.Flags, f) {
				t.Errorf("%s lacks the kernel flag --%s", name, f.Names()[0])
			}
		}
	}
}

const sameScaleCL = `__kernel void scale(__global const float *in, __global float *out) {
	out[get_global_id(0)] = in[get_global_id(0)] * FACTOR;
}
`

const sameSweepYAML = `source: scale.cl
kernel: scale
defines: [FACTOR=$F]
global: N
args: [buf:float:N:ones, buf:float:N:zero:out]
axes:
  N: [1Ki, 4Ki]
  F: [1, 2, 3]
`

// TestSameTargetEveryCommand: the same target and kernel flags resolve to the
// same configurations in run, compare --interleave, trace, tune and check: a
// spec file's axes overridden by --size and --set, and a FILE.cl described by
// the flags.
func TestSameTargetEveryCommand(t *testing.T) {
	needDevice(t)
	dev := cpuDevice(t)
	dir := t.TempDir()
	cl, yaml := filepath.Join(dir, "scale.cl"), filepath.Join(dir, "sweep.yaml")
	os.WriteFile(cl, []byte(sameScaleCL), 0o644)
	os.WriteFile(yaml, []byte(sameSweepYAML), 0o644)
	forms := []struct {
		name string
		args []string // the target, then its flags
		want []string
	}{
		{"spec file with --size and --set", []string{yaml, "--size", "2Ki", "--set", "F=1,2"}, []string{"N=2048,F=1", "N=2048,F=2"}},
		{"FILE.cl with flags", []string{cl, "--kernel", "scale", "--global", "N", "--arg", "buf:float:N:ones", "--arg", "buf:float:N:zero:out",
			"-D", "FACTOR=2", "--size", "1Ki,2Ki"}, []string{"N=1024", "N=2048"}},
	}
	_, oclgrind := icd.FindOclgrindICD(os.Getenv(icd.OclgrindICDEnv))
	for _, form := range forms {
		for _, cmd := range []string{"run", "compare", "trace", "tune", "check"} {
			if cmd == "check" && oclgrind != nil {
				t.Logf("check skipped: no Oclgrind here (%v)", oclgrind)
				continue
			}
			got := resolvedBy(t, cmd, form.args, dev)
			if !slices.Equal(got, form.want) {
				t.Errorf("%s, %s: configurations %q, want %q", form.name, cmd, got, form.want)
			}
		}
	}
}

// resolvedBy runs cmd on the target and flags of args and returns the
// configurations it measured (or checked), as "N=2048,F=1", sorted.
func resolvedBy(t *testing.T, cmd string, args []string, dev string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), cmd+".json")
	measuring := append([]string{"--device", dev, "-o", out}, fast...)
	var line []string
	switch cmd {
	case "run":
		line = append(append([]string{cmd, "--no-profile"}, args...), measuring...)
	case "trace":
		line = append(append([]string{cmd}, args...), measuring...)
	case "compare":
		line = append(append([]string{cmd, "--interleave", args[0]}, args...), measuring...)
	case "tune":
		line = append(append([]string{cmd, "--max-time", "1s"}, args...), measuring...)
	case "check":
		t.Setenv("CLMETER_TEST_MAIN", "1") // the child processes are this test binary running main
		line = append([]string{cmd, "-o", out}, args...)
	}
	code, stdout, errs := clm(t, line...)
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s\n%s", strings.Join(line, " "), code, stdout, errs)
	}
	seen := map[string]bool{}
	switch cmd {
	case "trace":
		for _, l := range strings.Split(stdout, "\n") {
			if name, _, ok := strings.Cut(l, " ["); ok && strings.HasPrefix(name, "scale ") {
				seen[strings.ReplaceAll(strings.TrimPrefix(name, "scale "), " ", ",")] = true
			}
		}
	case "check":
		var rep check.Report
		b, err := os.ReadFile(out)
		if err != nil || json.Unmarshal(b, &rep) != nil {
			t.Fatalf("check report: %v %s", err, b)
		}
		for _, c := range rep.Configs {
			seen[c.Label[strings.LastIndex(c.Label, " ")+1:]] = true
		}
	default:
		f, err := results.Read(out)
		if err != nil {
			t.Fatalf("%s result file: %v", cmd, err)
		}
		for _, b := range f.Benchmarks {
			if b.Name == "scale" {
				seen[axisLabel(b.Params)] = true
			}
		}
	}
	var got []string
	for l := range seen {
		got = append(got, l)
	}
	sort.Strings(got)
	return got
}

// axisLabel writes a benchmark's axis values N and F as "N=2048,F=1".
func axisLabel(params map[string]string) string {
	var parts []string
	for _, n := range []string{"N", "F"} {
		if v, ok := params[n]; ok {
			parts = append(parts, n+"="+v)
		}
	}
	return strings.Join(parts, ",")
}
