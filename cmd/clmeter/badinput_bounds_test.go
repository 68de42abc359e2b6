package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// limitedDataKiB is the data segment (RLIMIT_DATA, in KiB) of the child a
// limited row runs in: the rows of inputs that once were read whole or
// expanded in memory (/dev/zero, 10^12 configurations) fail the test there
// instead of exhausting the machine. RLIMIT_DATA, not RLIMIT_AS, so that
// a -race binary (whose shadow memory is reserved, not written) starts; 1 GiB
// lets PoCL build a kernel under -race.
const limitedDataKiB = 1 << 20

// clmLimited runs clmeter's main in a child process (this test binary) under
// limitedDataKiB and returns its exit status, stdout and stderr. A child that
// has not finished after two minutes is killed (a read that blocks on a FIFO
// fails the row rather than hanging the test).
func clmLimited(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	script := fmt.Sprintf(`ulimit -d %d && exec "$0" "$@"`, limitedDataKiB)
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", script, os.Args[0], "-test.run=^TestNoLibrary$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "CLMETER_TEST_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("still running after two minutes (blocked on a read?): killed")
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// runRow runs a row's command line: in this process, or in a child under a
// memory limit (limited).
func runRow(t *testing.T, limited bool, args []string) (int, string, string) {
	if limited {
		return clmLimited(t, args...)
	}
	return clm(t, args...)
}

// boundFixtures makes the files the bound rows read, in dir: FIFOs, sparse
// files just past each limit (no disk used), a source including /dev/zero,
// a spec of 10^12 configurations.
func boundFixtures(dir string) map[string]string {
	p := map[string]string{}
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	write := func(name, body string) {
		p[name] = filepath.Join(dir, name)
		must(os.WriteFile(p[name], []byte(body), 0o644))
	}
	for _, name := range []string{"fifo.json", "fifo.cl", "fifo.yaml", "fifo.h", "fifo.db"} {
		p[name] = filepath.Join(dir, name)
		must(syscall.Mkfifo(p[name], 0o644))
	}
	for name, size := range map[string]int64{"big-result.json": 256<<20 + 1, "big-spec.yaml": 1<<20 + 1, "big-source.cl": 16<<20 + 1, "big.h": 16<<20 + 1} {
		p[name] = filepath.Join(dir, name)
		f, err := os.Create(p[name])
		must(err)
		must(f.Truncate(size))
		f.Close()
	}
	const kernel = "kernel void k(global float *x) { x[get_global_id(0)] = 1; }\n"
	write("inc-zero.cl", "#include \"/dev/zero\"\n"+kernel)
	write("inc-fifo.cl", "#include \"fifo.h\"\n"+kernel)
	write("inc-big.cl", "#include \"big.h\"\n"+kernel)
	write("plain.cl", kernel)
	write("fifo-source.yaml", "source: fifo.cl\nkernel: k\nglobal: 4\nargs: [buf:float:4]\n")
	var axes strings.Builder
	for _, a := range []string{"N", "A", "B", "C", "D", "E"} {
		v := make([]string, 100)
		for i := range v {
			v[i] = fmt.Sprint(i + 1)
		}
		fmt.Fprintf(&axes, "  %s: [%s]\n", a, strings.Join(v, ","))
	}
	write("configs.yaml", "source: plain.cl\nkernel: k\nglobal: N\nargs: [buf:float:N]\naxes:\n"+axes.String())
	return p
}

// boundRows are the bad inputs of issue 44's items 5 and 6: every read has a
// bound, special files are refused before they are read, configurations are
// counted before they are expanded, size arithmetic never wraps. The rows
// that once read without a bound run under a memory limit (limited).
func boundRows(fx badFixtures) []badInput {
	const u, e = exitUsage, exitError
	p := boundFixtures(fx.dir)
	sizes := make([]string, 10_001)
	for i := range sizes {
		sizes[i] = fmt.Sprint(i + 1)
	}
	userRun := func(src string, more ...string) []string {
		return append([]string{"run", src, "--kernel", "k", "--global", "4", "--arg", "buf:float:4"}, more...)
	}
	special := "is a character device, not a regular file"
	return []badInput{
		{name: "report /dev/zero", args: []string{"report", "/dev/zero"}, code: u, want: []string{"/dev/zero " + special, "a result file"}, limited: true},
		{name: "report /dev/urandom", args: []string{"report", "/dev/urandom"}, code: u, want: []string{"/dev/urandom " + special}, limited: true},
		{name: "report /dev/null", args: []string{"report", os.DevNull}, code: u, want: []string{"/dev/null " + special}},
		{name: "report a FIFO", args: []string{"report", p["fifo.json"]}, code: u, want: []string{"fifo.json is a FIFO (named pipe), not a regular file"}, limited: true},
		{name: "report a folder", args: []string{"report", fx.dir}, code: u, want: []string{"is a folder, not a regular file"}},
		{name: "report past the result file limit", args: []string{"report", p["big-result.json"]}, code: u, want: []string{"big-result.json is larger than the 256 MiB limit for a result file"}, limited: true},
		{name: "compare /dev/zero", args: []string{"compare", "/dev/zero", fx.good}, code: u, want: []string{"/dev/zero " + special}, limited: true},
		{name: "compare a FIFO", args: []string{"compare", fx.good, p["fifo.json"]}, code: u, want: []string{"is a FIFO"}, limited: true},
		{name: "store add /dev/zero", args: []string{"store", "add", "--store", filepath.Join(fx.dir, "z.db"), "/dev/zero"}, code: u, want: []string{"/dev/zero " + special, "nothing was stored"}, limited: true},
		{name: "store add a FIFO", args: []string{"store", "add", "--store", filepath.Join(fx.dir, "z.db"), p["fifo.json"]}, code: u, want: []string{"is a FIFO", "nothing was stored"}, limited: true},
		{name: "history on a FIFO store", args: []string{"history", "--store", p["fifo.db"]}, code: u, want: []string{"store " + p["fifo.db"] + " is a FIFO (named pipe), not a regular file"}, limited: true},
		{name: "store add to a FIFO store", args: []string{"store", "add", "--store", p["fifo.db"], fx.good}, code: u, want: []string{"fifo.db is a FIFO"}, limited: true},
		{name: "history on a device store", args: []string{"history", "--store", "/dev/zero"}, code: u, want: []string{"store /dev/zero is a character device"}, limited: true},
		{name: "cache bench program a FIFO", args: []string{"cache", "bench", p["fifo.cl"]}, code: u, want: []string{"fifo.cl is a FIFO"}, limited: true},
		{name: "profile rebuild /dev/zero", args: []string{"profile", "rebuild", "/dev/zero"}, code: u, want: []string{"/dev/zero " + special, "no profile was changed"}, limited: true},
		{name: "run a FIFO as FILE.cl", args: userRun(p["fifo.cl"]), code: u, want: []string{"fifo.cl is a FIFO", "a kernel source"}, limited: true},
		{name: "run a FIFO as a spec", args: []string{"run", p["fifo.yaml"]}, code: u, want: []string{"fifo.yaml is a FIFO", "a spec file"}, limited: true},
		{name: "run a spec whose source is a FIFO", args: []string{"run", p["fifo-source.yaml"]}, code: u, want: []string{"fifo-source.yaml", "fifo.cl is a FIFO"}, limited: true},
		{name: "run a spec past its limit", args: []string{"run", p["big-spec.yaml"]}, code: u, want: []string{"big-spec.yaml is larger than the 1 MiB limit for a spec file"}, limited: true},
		{name: "run a source past its limit", args: userRun(p["big-source.cl"]), code: u, want: []string{"big-source.cl is larger than the 16 MiB limit for a kernel source"}, limited: true},
		{name: "run 10^12 configurations", args: []string{"run", p["configs.yaml"]}, code: u, want: []string{"1000000000000 configurations", "more than the limit of 10000", "--max-configs"}, limited: true},
		{name: "tune 10^12 configurations", args: []string{"tune", p["configs.yaml"]}, code: u, want: []string{"1000000000000 configurations", "limit of 10000"}, limited: true},
		{name: "max-configs below the count", args: []string{"run", p["configs.yaml"], "--set", "A=1,2,3", "--set", "B=1", "--set", "C=1", "--set", "D=1", "--set", "E=1", "--max-configs", "299"}, code: u, want: []string{"300 configurations (axes N 100 x A 3 x B 1 x C 1 x D 1 x E 1)", "limit of 299", "--max-configs 300"}, limited: true},
		{name: "max-configs negative", args: []string{"run", "saxpy", "--size", "1Ki", "--max-configs", "-1"}, code: u, want: []string{"--max-configs -1", "at least 1"}},
		{name: "a built-in's size list past the limit", args: []string{"run", "saxpy", "--size", strings.Join(sizes, ",")}, code: u, want: []string{"10001 configurations (--size values)", "limit of 10000"}, limited: true},
		{name: "size whose bytes overflow", args: []string{"run", "saxpy", "--size", "2^62+1024"}, code: u, want: []string{"size 4611686018427388928", "overflows a 64-bit byte count"}, device: true, limited: true},
		{name: "size over the largest allocation", args: []string{"run", "saxpy", "--size", "2^40"}, code: u, want: []string{"over the device's largest allocation"}, device: true, limited: true},
		{name: "global size whose work-items overflow", args: append(userRun(p["plain.cl"])[:4], "--global", "2^31,2^31,4", "--arg", "buf:float:4"), code: e, want: []string{"global size [2147483648 2147483648 4] overflows"}, device: true, limited: true},
		{name: "include /dev/zero", args: userRun(p["inc-zero.cl"]), code: u, want: []string{`#include "/dev/zero"`, "/dev/zero " + special}, device: true, limited: true},
		{name: "include a FIFO", args: userRun(p["inc-fifo.cl"]), code: u, want: []string{`#include "fifo.h"`, "is a FIFO"}, device: true, limited: true},
		{name: "include past the source limit", args: userRun(p["inc-big.cl"]), code: u, want: []string{`#include "big.h"`, "larger than the 16 MiB limit"}, device: true, limited: true},
	}
}
