package main

import (
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"
)

// TestVersionNamesTheBuild: --version gives the version, the commit, the
// build date, the Go version and the OpenCL headers, on a machine without
// an OpenCL library too (a child with CLMETER_OPENCL_LIB naming no file).
func TestVersionNamesTheBuild(t *testing.T) {
	cmd, stdout, stderr := clmChild(t, []string{"CLMETER_OPENCL_LIB=/nonexistent/libOpenCL.so.1"}, "--version")
	cmd.Wait()
	out := stdout.String()
	if code := cmd.ProcessState.ExitCode(); code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^clmeter version ` + regexp.QuoteMeta(version) + `$`),
		regexp.MustCompile(`(?m)^  commit +\S`),
		regexp.MustCompile(`(?m)^  built +\S`),
		regexp.MustCompile(`(?m)^  go +` + regexp.QuoteMeta(goruntime.Version()) + ` `),
		regexp.MustCompile(`(?m)^  OpenCL headers +[1-9]\.[0-9] \(CL_TARGET_OPENCL_VERSION [1-9][0-9]0\)$`),
	} {
		if !want.MatchString(out) {
			t.Errorf("--version does not match %s:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 5 {
		t.Errorf("%d lines, want 5:\n%s", n, out)
	}
}

// TestVersionFromLdflags: the commit and build date given by -ldflags (the
// Makefile's) are the ones printed.
func TestVersionFromLdflags(t *testing.T) {
	defer func(c, d string) { commit, buildDate = c, d }(commit, buildDate)
	commit, buildDate = "0123abc", "2026-11-28T22:00:00Z"
	var b strings.Builder
	writeVersion(&b)
	for _, want := range []string{"  commit          0123abc\n", "  built           2026-11-28T22:00:00Z\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
}
