package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/store/storetest"
)

// cutsRows are the paper cuts of issue 44 (item 10), each refused with one
// line before any work. The result files they read are written into fx.dir
// here, before TestBadInputTable lists the folder.
func cutsRows(fx badFixtures) []badInput {
	const u = exitUsage
	d := fx.dir
	write := func(name, body string) string {
		p := filepath.Join(d, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	good, _ := os.ReadFile(fx.good)
	// The first benchmark's name: given twice, and with a NUL byte.
	i := max(strings.Index(string(good), `"benchmarks"`), 0)
	inName := func(old, new string) string { return string(good[:i]) + strings.Replace(string(good[i:]), old, new, 1) }
	dup := write("dup-key.json", inName(`"name": `, `"name": "first", "name": `))
	nul := write("nul-name.json", inName(`"name": "`, `"name": "a\u0000b`))
	saxpy := func(more ...string) []string { return append([]string{"run", "saxpy", "--size", "1Ki"}, more...) }
	tune := func(more ...string) []string {
		return append([]string{"tune", "../../examples/matmul/tune.yaml"}, more...)
	}
	cmp := func(more ...string) []string { return append([]string{"compare", fx.good, fx.good}, more...) }
	return []badInput{
		{name: "compare alpha NaN", args: cmp("--alpha", "NaN"), code: u, want: []string{"--alpha must be between 0 and 1", "NaN"}},
		{name: "compare alpha NaN as JSON", args: cmp("--alpha", "NaN", "--format", "json"), code: u, want: []string{"--alpha must be between 0 and 1"}},
		{name: "tune negative budget", args: tune("--budget", "-1s"), code: u, want: []string{"--budget must be above zero", "-1s", "2m0s"}},
		{name: "tune zero budget", args: tune("--budget", "0"), code: u, want: []string{"--budget must be above zero"}},
		{name: "tune tolerance NaN", args: tune("--tolerance", "NaN"), code: u, want: []string{"--tolerance", "NaN"}},
		{name: "tune tolerance negative", args: tune("--tolerance", "-1"), code: u, want: []string{"--tolerance", "-1"}},
		{name: "tune tolerance Inf", args: tune("--tolerance", "Inf"), code: u, want: []string{"--tolerance", "Inf"}},
		{name: "tune tolerance zero", args: tune("--tolerance", "0"), code: u, want: []string{"--tolerance", "above zero"}},
		{name: "warmup of 10^14 launches", args: saxpy("--warmup", "99999999999999x"), code: u, want: []string{"--warmup 99999999999999x", "more than 1000000 launches"}},
		{name: "warmup of two hours", args: saxpy("--warmup", "2h"), code: u, want: []string{"--warmup 2h0m0s", "longer than 1h0m0s"}},
		{name: "suite warmup of 10^14 launches", args: []string{"suite", "quick", "--warmup", "99999999999999x"}, code: u, want: []string{"more than 1000000 launches"}},
		{name: "cache bench a billion trials", args: []string{"cache", "bench", "--trials", "1000000000"}, code: u, want: []string{"--trials must be from 1 to 1000", "1000000000"}},
		{name: "cache bench zero trials", args: []string{"cache", "bench", "--trials", "0"}, code: u, want: []string{"--trials must be from 1 to 1000"}},
		{name: "report a key given twice", args: []string{"report", dup}, code: u, want: []string{"dup-key.json:", `key "name" appears twice`}},
		{name: "store add a key given twice", args: []string{"store", "add", "--store", filepath.Join(d, "add.db"), dup}, code: u, want: []string{`key "name" appears twice`, "nothing was stored"}},
		{name: "store add a NUL in a name", args: []string{"store", "add", "--store", filepath.Join(d, "add.db"), nul}, code: u, want: []string{"nul-name.json: benchmark 1: name", "NUL byte", "nothing was stored"}},
		{name: "label not UTF-8", args: saxpy("--store", filepath.Join(d, "s.db"), "--label", "k=\xff"), code: u, want: []string{"not valid UTF-8", "a store cannot keep"}},
		{name: "label with a NUL", args: saxpy("--store", filepath.Join(d, "s.db"), "--label", "k=a\x00b"), code: u, want: []string{"NUL byte"}},
		{name: "stored argument not UTF-8", args: []string{"run", fx.cl, "--kernel", "scale", "--global", "64", "-D", "FACTOR=\xff", "--arg", "buf:float:64",
			"--arg", "buf:float:64:zero:out", "--store", filepath.Join(d, "s.db")}, code: u, want: []string{`the argument "FACTOR=\xff" is not valid UTF-8`}},
		{name: "store add label not UTF-8", args: []string{"store", "add", "--store", filepath.Join(d, "add.db"), "--label", "k=caf\xc3", fx.good}, code: u, want: []string{"not valid UTF-8"}},
		{name: "run device spec malformed", args: saxpy("--device", "1:x"), code: u, want: []string{`device spec "1:x"`}, device: true},
		{name: "run device index negative", args: saxpy("--device", "-1"), code: u, want: []string{"an index is 0 or more"}, device: true},
		{name: "suite device spec empty part", args: []string{"suite", "quick", "--device", "all,"}, code: u, want: []string{"has an empty part"}, device: true},
		{name: "tune device spec malformed", args: tune("--device", "0:0:0"), code: u, want: []string{"want platform:device"}, device: true},
		{name: "compare --interleave device spec malformed", args: []string{"compare", "--interleave", "copy", "triad", "--size", "1Ki", "--device", "1:"}, code: u, want: []string{"want platform:device"}, device: true},
	}
}

// TestBadSwitchVariable: a CLMETER_* switch set to neither on nor off is
// one line naming the variable and its values, exit 2, no parser internals.
func TestBadSwitchVariable(t *testing.T) {
	for _, name := range []string{cache.OffEnv, cache.DebugEnv} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, "maybe")
			code, stdout, errs := clm(t, "run", "saxpy", "--size", "1Ki")
			if code != exitUsage || !strings.Contains(errs, name+`="maybe"`) || !strings.Contains(errs, "want 1") ||
				strings.Count(strings.TrimSpace(errs), "\n") > 0 || strings.Contains(errs, "strconv") || stdout != "" {
				t.Errorf("exit %d, stderr %q, want exit 2 and one line naming %s", code, errs, name)
			}
		})
	}
	t.Setenv(cache.OffEnv, "true")
	if code, _, errs := clm(t, "history", "--store", filepath.Join(t.TempDir(), "none.db")); code == exitUsage {
		t.Errorf("%s=true refused: %q", cache.OffEnv, errs)
	}
}

// TestStdoutWriteError: output that cannot be written (stdout on /dev/full)
// is an error with one line, not exit 0 (report said so before; history
// and run did not).
func TestStdoutWriteError(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	fx := makeBadFixtures(t)
	cases := [][]string{{"history", "--store", fx.goodStore}, {"report", fx.good}}
	if devicesHere() {
		cases = append(cases, append([]string{"run", "saxpy", "--size", "1Ki", "--no-cache", "--no-profile"}, fast...))
	}
	for _, args := range cases {
		var errb bytes.Buffer
		code := run(context.Background(), append([]string{"clmeter"}, args...), full, &errb)
		errs := errb.String()
		// run's note that the device has no profile may come first.
		if code != exitError || !strings.Contains(errs, "no space left") || strings.Count(errs, "clmeter: ") != 1 {
			t.Errorf("%s into /dev/full: exit %d, stderr %q; want exit 1 and one error line", args[0], code, errs)
		}
	}
}

// devicesHere reports whether this machine has an OpenCL device, without
// failing or skipping the test.
func devicesHere() bool {
	var out, errb bytes.Buffer
	return run(context.Background(), []string{"clmeter", "devices"}, &out, &errb) == 0
}

// TestResultFileWithBOM: a result file that starts with a UTF-8 byte order
// mark (as some editors save it) is read.
func TestResultFileWithBOM(t *testing.T) {
	fx := makeBadFixtures(t)
	good, _ := os.ReadFile(fx.good)
	bom := filepath.Join(fx.dir, "bom.json")
	os.WriteFile(bom, append([]byte("\xef\xbb\xbf"), good...), 0o644)
	if code, out, errs := clm(t, "report", bom); code != 0 || out == "" {
		t.Errorf("report of a file with a BOM: exit %d, stderr %q", code, errs)
	}
}

// TestPostgresRefusals: a PostgreSQL server that answers but refuses the
// login or has no such database says so, with its fix, not that it does not
// answer; nothing is measured first.
func TestPostgresRefusals(t *testing.T) {
	pg, _ := storetest.PrivatePostgres(t)
	base, _ := url.Parse(pg.URL("postgres"))
	noRole, noDB := *base, *base
	noRole.User = url.User("nosuchrole")
	noDB.Path = "/nosuchdb"
	for _, c := range []struct {
		u    *url.URL
		want string
	}{{&noRole, "refuses the login"}, {&noDB, "has no such database"}} {
		code, _, errs := clm(t, "history", "--store", c.u.String())
		if code != exitError || !strings.Contains(errs, c.want) || strings.Contains(errs, "does not answer") ||
			strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.u.Redacted(), code, errs, c.want)
		}
	}
}
