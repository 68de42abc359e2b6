package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// badInput is one row of TestBadInputTable: a command line, the exit status
// it must end with, and the words its one-line message must hold.
type badInput struct {
	name string
	args []string
	code int
	want []string
	// device marks the few rows that reach an OpenCL device (PoCL, tiny sizes).
	device bool
	// lines, when above 1, is how many stderr lines the row may print.
	lines int
	// limited runs the row in a child process under a memory limit, with
	// the binary cache on (clmLimited, badinput_bounds_test.go).
	limited bool
}

// badFixtures are the files the rows name, made once in a temporary folder.
type badFixtures struct {
	dir                                 string
	cl, good, goodStore, notDB, folder  string
	corrupt, fileAsDir, array, notJSON  string
	wrongSchema, noBench, emptySamples  string
	zeroSample, negSample, maxSample    string
	zeroLaunches, summaryMismatch       string
	specSyntax, specUnknown, specArgStr string
	specExpectNum, specSourceList       string
	specEmpty, specNoSource, specX      string
	specChar, specBadAxis               string
}

func makeBadFixtures(t *testing.T) badFixtures {
	t.Helper()
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	write := func(name, body string) string {
		if err := os.WriteFile(p(name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p(name)
	}
	fx := badFixtures{dir: dir}
	fx.cl = write("k.cl", userCL)
	f := storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0], Samples: 8, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	fx.good = p("good.json")
	if err := results.WriteFile(fx.good, f); err != nil {
		t.Fatal(err)
	}
	fx.goodStore = p("good.db")
	st, err := store.Open(context.Background(), fx.goodStore, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Add(context.Background(), f, "good.json", nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// A result file with one thing changed, by editing its JSON.
	edit := func(name string, change func(b map[string]any, m map[string]any, samples []any)) string {
		data, _ := os.ReadFile(fx.good)
		var doc map[string]any
		json.Unmarshal(data, &doc)
		b := doc["benchmarks"].([]any)[0].(map[string]any)
		m := b["measurement"].(map[string]any)
		change(b, m, m["samples"].([]any))
		out, _ := json.MarshalIndent(doc, "", "  ")
		return write(name, string(out))
	}
	fx.emptySamples = edit("empty-samples.json", func(_, m map[string]any, _ []any) { m["samples"] = []any{} })
	fx.zeroSample = edit("zero-sample.json", func(_, _ map[string]any, s []any) { s[2].(map[string]any)["per_launch_ns"] = 0 })
	fx.negSample = edit("negative-sample.json", func(_, _ map[string]any, s []any) { s[0].(map[string]any)["per_launch_ns"] = -5 })
	fx.maxSample = edit("int64max-sample.json", func(_, _ map[string]any, s []any) {
		s[1].(map[string]any)["per_launch_ns"] = int64(math.MaxInt64)
	})
	fx.zeroLaunches = edit("zero-launches.json", func(_, _ map[string]any, s []any) { s[0].(map[string]any)["launches"] = 0 })
	fx.summaryMismatch = edit("summary-mismatch.json", func(_, m map[string]any, s []any) { m["samples"] = s[:3] })
	data, _ := os.ReadFile(fx.good)
	var doc map[string]any
	json.Unmarshal(data, &doc)
	doc["benchmarks"] = []any{}
	nb, _ := json.Marshal(doc)
	fx.noBench = write("no-benchmarks.json", string(nb))
	fx.notDB = write("notsqlite.db", "hello, I am not a database\n")
	fx.folder = p("folder.db")
	os.Mkdir(fx.folder, 0o755)
	// A damaged store: a real one with its pages after the first overwritten.
	db, _ := os.ReadFile(fx.goodStore)
	for i := 4096; i < len(db); i++ {
		db[i] = byte(i * 7)
	}
	fx.corrupt = write("corrupt.db", string(db))
	fx.fileAsDir = filepath.Join(fx.notDB, "x.db")
	fx.array = write("array.json", `[{"schema": "clmeter-result"}]`)
	fx.notJSON = write("not-json.txt", "this is text\n")
	fx.wrongSchema = write("wrong-schema.json", `{"schema": "something-else", "version": 1}`)
	fx.specSyntax = write("syntax.yaml", "source: k.cl\nkernel: scale\nglobal: [1,\n")
	fx.specUnknown = write("unknown.yaml", "source: k.cl\nkernel: scale\nglobal: 4\ncolour: red\n")
	fx.specArgStr = write("argstr.yaml", "source: k.cl\nkernel: scale\nglobal: 64\nargs: \"buf:float:64\"\n")
	fx.specExpectNum = write("expectnum.yaml", "source: k.cl\nkernel: scale\nglobal: 64\nexpect: 3\n")
	fx.specSourceList = write("sourcelist.yaml", "source: [k.cl]\nkernel: scale\nglobal: 64\n")
	fx.specEmpty = write("empty.yaml", "")
	fx.specNoSource = write("nosource.yaml", "source: missing.cl\nkernel: scale\nglobal: 64\n")
	fx.specX = write("globalx.yaml", "source: k.cl\nkernel: scale\nglobal: X\n")
	fx.specChar = write("char.yaml", "source: k.cl\nkernel: scale\nglobal: 64\nargs: [buf:float:64, buf:float:64:zero:out, char:300]\n")
	fx.specBadAxis = write("badaxis.yaml", "source: k.cl\nkernel: scale\nglobal: N\naxes:\n  N: [abc]\n")
	return fx
}

// badInputRows are the bad inputs: each a command line, its exit status and
// the words its message must hold.
func badInputRows(fx badFixtures) []badInput {
	const u, e = exitUsage, exitError
	d := fx.dir
	missing := filepath.Join(d, "missing.json")
	noDir := filepath.Join(d, "no-such-folder", "out.json")
	user := []string{"run", fx.cl, "--kernel", "scale", "--global", "64", "-D", "FACTOR=1", "--arg", "buf:float:64", "--arg", "buf:float:64:zero:out"}
	arg := func(a string) []string { return append(slices.Clone(user), "--arg", a) }
	saxpy := func(more ...string) []string { return append([]string{"run", "saxpy", "--size", "1Ki"}, more...) }
	suite := func(more ...string) []string { return append([]string{"suite", "quick"}, more...) }
	add := func(more ...string) []string {
		return append([]string{"store", "add", "--store", filepath.Join(d, "add.db")}, more...)
	}
	hist := func(more ...string) []string { return append([]string{"history", "--store", fx.goodStore}, more...) }
	rows := []badInput{
		// Commands and subcommands.
		{name: "unknown command", args: []string{"nosuch"}, code: u, want: []string{`"nosuch" is not a clmeter command`, "run, serve"}},
		{name: "unknown cache subcommand", args: []string{"cache", "frob"}, code: u, want: []string{`"frob" is not a 'clmeter cache' subcommand`, "stats, list, verify, clear, wait, bench"}},
		{name: "unknown store subcommand", args: []string{"store", "frob"}, code: u, want: []string{`"frob" is not a 'clmeter store' subcommand`, "add"}},
		{name: "bad flag of a subcommand", args: []string{"cache", "verify", "--bogus"}, code: u, want: []string{"bogus", "'clmeter cache verify --help'"}},
		{name: "bad flag of store add", args: []string{"store", "add", "--bogus"}, code: u, want: []string{"bogus", "'clmeter store add --help'"}},
		{name: "bad flag of devices", args: []string{"devices", "--bogus"}, code: u, want: []string{"bogus", "'clmeter devices --help'"}},
		{name: "bad devices format", args: []string{"devices", "--format", "xml"}, code: u, want: []string{"xml", "table, json"}},
		{name: "run without target", args: []string{"run"}, code: u, want: []string{"takes one target"}},
		{name: "run with two targets", args: []string{"run", "saxpy", "copy"}, code: u, want: []string{"takes one target", "got 2"}},
		{name: "unknown built-in", args: []string{"run", "sxapy", "--size", "1Ki"}, code: u, want: []string{`unknown kernel "sxapy"`}},
		{name: "missing kernel file", args: []string{"run", filepath.Join(d, "nope.cl"), "--kernel", "k", "--global", "4"}, code: u, want: []string{"nope.cl"}},
		{name: "user kernel without --kernel", args: []string{"run", fx.cl, "--global", "4"}, code: u, want: []string{"--kernel"}},
		{name: "--global for a built-in", args: saxpy("--global", "4"), code: u, want: []string{"--global is for your own kernels"}},
		{name: "bad run format", args: saxpy("--format", "xml"), code: u, want: []string{"xml", "table, wide, json"}},

		// Measurement settings (package measure).
		{name: "negative max-time", args: saxpy("--max-time", "-1s"), code: u, want: []string{"--max-time must be above zero", "-1s"}},
		{name: "zero max-time", args: saxpy("--max-time", "0"), code: u, want: []string{"--max-time must be above zero"}},
		{name: "max-time not a duration", args: saxpy("--max-time", "soon"), code: u, want: []string{"max-time", "soon"}},
		{name: "negative max-noise", args: saxpy("--max-noise", "-0.5"), code: u, want: []string{"--max-noise", "-0.5"}},
		{name: "zero max-noise", args: saxpy("--max-noise", "0"), code: u, want: []string{"--max-noise must be above zero"}},
		{name: "max-noise of 150%", args: saxpy("--max-noise", "1.5"), code: u, want: []string{"--max-noise 1.5", "below 1"}},
		{name: "max-noise NaN", args: saxpy("--max-noise", "NaN"), code: u, want: []string{"--max-noise"}},
		{name: "max-noise Inf", args: saxpy("--max-noise", "Inf"), code: u, want: []string{"--max-noise"}},
		{name: "a billion samples", args: saxpy("--samples", "1000000000", "--min-sample-time", "20ms"), code: u, want: []string{"--samples 1000000000", "more than a day", "231d"}},
		{name: "a day of samples", args: saxpy("--samples", "100000", "--min-sample-time", "1s"), code: u, want: []string{"more than a day"}},
		{name: "zero samples", args: saxpy("--samples", "0"), code: u, want: []string{"--samples must be positive"}},
		{name: "negative samples", args: saxpy("--samples", "-3"), code: u, want: []string{"--samples must be positive"}},
		{name: "samples not a number", args: saxpy("--samples", "many"), code: u, want: []string{"samples", "many"}},
		{name: "zero min-sample-time", args: saxpy("--min-sample-time", "0"), code: u, want: []string{"--min-sample-time must be above zero"}},
		{name: "negative min-sample-time", args: saxpy("--min-sample-time", "-1ms"), code: u, want: []string{"--min-sample-time must be above zero"}},
		{name: "zero min-samples", args: saxpy("--min-samples", "0"), code: u, want: []string{"--min-samples must be at least 1"}},
		{name: "zero max-launches", args: saxpy("--max-launches", "0"), code: u, want: []string{"--max-launches must be at least 1"}},
		{name: "negative kernel-timeout", args: saxpy("--kernel-timeout", "-1s"), code: u, want: []string{"--kernel-timeout must not be negative"}},
		{name: "bad warmup word", args: saxpy("--warmup", "lots"), code: u, want: []string{"--warmup", "lots"}},
		{name: "negative warmup count", args: saxpy("--warmup", "-1x"), code: u, want: []string{"--warmup", "-1x"}},
		{name: "negative warmup time", args: saxpy("--warmup", "-5ms"), code: u, want: []string{"--warmup", "-5ms"}},
		{name: "bad timer", args: saxpy("--timer", "sundial"), code: u, want: []string{"--timer", "sundial"}},

		// Sizes (package spec, units).
		{name: "size is a word", args: []string{"run", "saxpy", "--size", "abc"}, code: u, want: []string{"abc is not a number", "4Ki"}},
		{name: "zero size", args: []string{"run", "saxpy", "--size", "0"}, code: u, want: []string{"must be positive"}},
		{name: "negative size", args: []string{"run", "saxpy", "--size", "-5"}, code: u, want: []string{"must be positive"}},
		{name: "unknown size suffix", args: []string{"run", "saxpy", "--size", "1Zi"}, code: u, want: []string{`unknown size suffix "Zi"`}},
		{name: "size too large", args: []string{"run", "saxpy", "--size", "99999999999999999999"}, code: u, want: []string{"too large"}},
		{name: "size power overflows", args: []string{"run", "saxpy", "--size", "2^99"}, code: u, want: []string{"overflow"}},
		{name: "size open parenthesis", args: []string{"run", "saxpy", "--size", "(4"}, code: u, want: []string{"missing ')'"}},
		{name: "size divided by zero", args: []string{"run", "saxpy", "--size", "4/0"}, code: u, want: []string{"division by zero"}},
		{name: "size list with an empty part", args: []string{"run", "saxpy", "--size", "4096,"}, code: u, want: []string{"--size", "ends early"}},
		{name: "size with a stray character", args: []string{"run", "saxpy", "--size", "4096!"}, code: u, want: []string{"unexpected character"}},
		{name: "global names no size", args: []string{"run", fx.cl, "--kernel", "scale", "--global", "N", "--arg", "int:1"}, code: u, want: []string{"N is not a number", "--size"}},
		{name: "negative global", args: append(slices.Clone(user[:4]), "--global", "-64", "--arg", "int:1"), code: u, want: []string{"must be positive"}},

		// Kernel arguments (package spec): grammar and scalar ranges per type.
		{name: "char 300", args: arg("char:300"), code: u, want: []string{"char:300", "out of range for char", "-128 to 127"}},
		{name: "char -129", args: arg("char:-129"), code: u, want: []string{"out of range for char"}},
		{name: "uchar 256", args: arg("uchar:256"), code: u, want: []string{"out of range for uchar", "0 to 255"}},
		{name: "uchar -1", args: arg("uchar:-1"), code: u, want: []string{"out of range for uchar"}},
		{name: "short 40000", args: arg("short:40000"), code: u, want: []string{"out of range for short"}},
		{name: "ushort 70000", args: arg("ushort:70000"), code: u, want: []string{"out of range for ushort"}},
		{name: "int 99999999999", args: arg("int:99999999999"), code: u, want: []string{"int:99999999999", "out of range for int", "2147483647"}},
		{name: "int 2^31", args: arg("int:2^31"), code: u, want: []string{"out of range for int"}},
		{name: "uint -1", args: arg("uint:-1"), code: u, want: []string{"uint:-1", "out of range for uint", "0 to 4294967295"}},
		{name: "uint 2^32", args: arg("uint:2^32"), code: u, want: []string{"out of range for uint"}},
		{name: "long 2^63", args: arg("long:2^63"), code: u, want: []string{"out of range for long"}},
		{name: "long beyond int64", args: arg("long:9223372036854775808"), code: u, want: []string{"out of range for long"}},
		{name: "ulong -1", args: arg("ulong:-1"), code: u, want: []string{"out of range for ulong"}},
		{name: "ulong beyond uint64", args: arg("ulong:18446744073709551616"), code: u, want: []string{"out of range for ulong"}},
		{name: "int fraction", args: arg("int:2.5"), code: u, want: []string{"2.5 is not a whole number"}},
		{name: "int4 lane out of range", args: arg("int4:1,2,3,3000000000"), code: u, want: []string{"3000000000", "out of range for int"}},
		{name: "float beyond float", args: arg("float:1e39"), code: u, want: []string{"1e39 is out of range for float"}},
		{name: "half beyond half", args: arg("half:70000"), code: u, want: []string{"out of range for half", "65504"}},
		{name: "double beyond double", args: arg("double:1e400"), code: u, want: []string{"out of range for double"}},
		{name: "float4 with two values", args: arg("float4:1,2"), code: u, want: []string{"takes 1 or 4 values, got 2"}},
		{name: "vector of five lanes", args: arg("float5:1"), code: u, want: []string{"2, 3, 4, 8 or 16 lanes"}},
		{name: "unknown buffer type", args: arg("buf:flaot:64"), code: u, want: []string{`unknown type "flaot"`}},
		{name: "buffer without count", args: arg("buf:float"), code: u, want: []string{"a buffer is buf:TYPE:COUNT"}},
		{name: "buffer empty count", args: arg("buf:float:"), code: u, want: []string{"element count is empty"}},
		{name: "unknown buffer option", args: arg("buf:float:64:weird"), code: u, want: []string{`unknown buffer option "weird"`}},
		{name: "local without count", args: arg("local:float"), code: u, want: []string{"local memory is local:TYPE:COUNT"}},
		{name: "value without value", args: arg("int:"), code: u, want: []string{"a value is TYPE:VALUE"}},
		{name: "argument without colon", args: arg("nonsense"), code: u, want: []string{"want buf:TYPE:COUNT"}},
		{name: "value divided by zero", args: arg("int:1/0"), code: u, want: []string{"division by zero"}},

		// Spec files (package spec).
		{name: "spec syntax error", args: []string{"run", fx.specSyntax}, code: u, want: []string{"syntax.yaml:"}},
		{name: "spec unknown field", args: []string{"run", fx.specUnknown}, code: u, want: []string{"unknown.yaml:4: field colour", "is not a spec file field"}},
		{name: "spec list given as text", args: []string{"run", fx.specArgStr}, code: u, want: []string{"argstr.yaml:4: want a list here, not the text", "'- item'"}},
		{name: "spec expect given as a number", args: []string{"run", fx.specExpectNum}, code: u, want: []string{"expectnum.yaml:4: want a list of expect entries"}},
		{name: "spec source given as a list", args: []string{"run", fx.specSourceList}, code: u, want: []string{"sourcelist.yaml:1: want text here, not a list"}},
		{name: "spec empty", args: []string{"run", fx.specEmpty}, code: u, want: []string{"the spec file is empty"}},
		{name: "spec source missing", args: []string{"run", fx.specNoSource}, code: u, want: []string{"missing.cl"}},
		{name: "spec global names nothing", args: []string{"run", fx.specX}, code: u, want: []string{"X is not a number"}},
		{name: "spec char out of range", args: []string{"run", fx.specChar}, code: u, want: []string{"char:300", "out of range for char"}},
		{name: "spec axis value a word", args: []string{"run", fx.specBadAxis}, code: u, want: []string{"abc"}},

		// Outputs, checked before any work.
		{name: "run -o a folder", args: saxpy("-o", d), code: u, want: []string{"is a folder", "name a file"}},
		{name: "run -o in a missing folder", args: saxpy("-o", noDir), code: u, want: []string{"cannot write there", "no such file or directory"}},
		{name: "suite -o a folder", args: suite("-o", d), code: u, want: []string{"is a folder"}},
		{name: "trace without -o", args: []string{"trace", "saxpy", "--size", "1Ki"}, code: u, want: []string{"needs -o FILE.json"}},
		{name: "trace -o a folder", args: []string{"trace", "saxpy", "--size", "1Ki", "-o", d}, code: u, want: []string{"is a folder"}},
		{name: "trace -o in a missing folder", args: []string{"trace", "saxpy", "--size", "1Ki", "-o", noDir}, code: u, want: []string{"cannot write there"}},
		{name: "report -o a folder", args: []string{"report", fx.good, "-o", d}, code: u, want: []string{"is a folder"}},
		{name: "report -o in a missing folder", args: []string{"report", fx.good, "-o", noDir}, code: u, want: []string{"cannot write there"}},

		// Stores and labels, checked before any work (package store).
		{name: "duplicate label key", args: saxpy("--store", filepath.Join(d, "s.db"), "--label", "k=v", "--label", "k=w"), code: u, want: []string{`key "k" is given twice`, "k=v"}},
		{name: "label without value", args: saxpy("--store", filepath.Join(d, "s.db"), "--label", "novalue"), code: u, want: []string{`label "novalue"`, "key=value"}},
		{name: "label without store", args: saxpy("--label", "k=v"), code: u, want: []string{"--label needs --store"}},
		{name: "mysql store", args: saxpy("--store", "mysql://u@h/db"), code: u, want: []string{"mysql:// is not a store clmeter can use", "postgres://"}},
		{name: "http store", args: saxpy("--store", "http://example.com/db"), code: u, want: []string{"http:// is not a store"}},
		{name: "store not SQLite", args: saxpy("--store", fx.notDB), code: u, want: []string{"is not a SQLite database", "nothing was measured"}},
		{name: "store a folder", args: saxpy("--store", fx.folder), code: u, want: []string{"is a folder", "results.db"}},
		{name: "store under a file", args: saxpy("--store", fx.fileAsDir), code: u, want: []string{"is a file, not a folder"}},
		{name: "store damaged", args: saxpy("--store", fx.corrupt), code: e, want: []string{"corrupt.db", "recover"}},
		{name: "postgres not answering", args: saxpy("--store", "postgres://u@127.0.0.1:1/nodb"), code: e, want: []string{"does not answer", "nothing was measured"}},
		{name: "postgres without host", args: saxpy("--store", "postgres:///nodb"), code: u, want: []string{"names no host"}},
		{name: "postgres without database", args: saxpy("--store", "postgres://u@127.0.0.1:1/"), code: u, want: []string{"names no database"}},
		{name: "sqlite store with options", args: saxpy("--store", filepath.Join(d, "x.db")+"?mode=rw"), code: u, want: []string{"without '?' options"}},
		{name: "suite mysql store", args: suite("--store", "mysql://u@h/db"), code: u, want: []string{"mysql:// is not a store"}},
		{name: "suite duplicate label", args: suite("--store", filepath.Join(d, "s.db"), "--label", "a=1", "--label", "a=2"), code: u, want: []string{`key "a" is given twice`}},

		// Suites (cmd flags, measure settings).
		{name: "unknown suite", args: []string{"suite", "nosuch"}, code: u, want: []string{`no suite "nosuch"`}},
		{name: "two suites", args: []string{"suite", "quick", "peaks"}, code: u, want: []string{"takes one suite name"}},
		{name: "suite negative max-time", args: suite("--max-time", "-1s"), code: u, want: []string{"--max-time must be above zero"}},
		{name: "suite zero samples", args: suite("--samples", "0"), code: u, want: []string{"--samples must be positive"}},
		{name: "suite negative max-noise", args: suite("--max-noise", "-1"), code: u, want: []string{"--max-noise"}},
		{name: "suite billion samples", args: suite("--samples", "1000000000"), code: u, want: []string{"more than a day"}},
		{name: "suite bad max-size", args: suite("--max-size", "huge"), code: u, want: []string{"--max-size", "huge"}},
		{name: "suite bad filter", args: suite("--filter", "compute/("), code: u, want: []string{"--filter", "not a regular expression"}},
		{name: "suite tiny max-memory", args: suite("--max-memory", "4KiB"), code: u, want: []string{"--max-memory", "at least 1MiB"}},
		{name: "suite bad max-memory", args: suite("--max-memory", "lots"), code: u, want: []string{"--max-memory", "lots"}},
		{name: "suite bad warmup", args: suite("--warmup", "lots"), code: u, want: []string{"--warmup"}},
		{name: "suite negative kernel-timeout", args: suite("--kernel-timeout", "-1s"), code: u, want: []string{"--kernel-timeout must not be negative"}},
		{name: "suite zero outlier tolerance", args: suite("--outlier-tolerance", "0"), code: u, want: []string{"--outlier-tolerance 0", "must be above 0", "5%"}},
		{name: "suite outlier tolerance 500%", args: suite("--outlier-tolerance", "5"), code: u, want: []string{"--outlier-tolerance 5", "below 100%", "5%"}},
		{name: "suite bad outlier tolerance", args: suite("--outlier-tolerance", "lots"), code: u, want: []string{"--outlier-tolerance lots", "want a percentage"}},

		// store add: files refused with the reason, nothing stored (packages results, store).
		{name: "store add without files", args: []string{"store", "add"}, code: u, want: []string{"needs result files"}},
		{name: "store add missing file", args: add(missing), code: u, want: []string{"missing.json", "no such file", "nothing was stored"}},
		{name: "store add empty samples", args: add(fx.emptySamples), code: u, want: []string{"empty-samples.json", "holds none", "nothing was stored"}},
		{name: "store add zero sample", args: add(fx.zeroSample), code: u, want: []string{"zero-sample.json", "sample 3", "above zero"}},
		{name: "store add negative sample", args: add(fx.negSample), code: u, want: []string{"negative-sample.json", "-5 ns", "above zero"}},
		{name: "store add INT64_MAX sample", args: add(fx.maxSample), code: u, want: []string{"int64max-sample.json", "9223372036854775807 ns", "more than a day"}},
		{name: "store add zero launches", args: add(fx.zeroLaunches), code: u, want: []string{"0 launches"}},
		{name: "store add summary mismatch", args: add(fx.summaryMismatch), code: u, want: []string{"summary counts 8 samples but the file holds 3"}},
		{name: "store add no benchmarks", args: add(fx.noBench), code: u, want: []string{"no benchmarks to store"}},
		{name: "store add not JSON", args: add(fx.notJSON), code: u, want: []string{"not-json.txt:1:"}},
		{name: "store add JSON array", args: add(fx.array), code: u, want: []string{"a result file is one JSON object", "not a JSON array"}},
		{name: "store add other schema", args: add(fx.wrongSchema), code: u, want: []string{"not a clmeter result file"}},
		{name: "store add one bad among good", args: add(fx.good, fx.zeroSample), code: u, want: []string{"zero-sample.json", "nothing was stored"}},
		{name: "store add to mysql", args: []string{"store", "add", "--store", "mysql://u@h/db", fx.good}, code: u, want: []string{"mysql:// is not a store"}},
		{name: "store add to a non-SQLite file", args: []string{"store", "add", "--store", fx.notDB, fx.good}, code: u, want: []string{"is not a SQLite database"}},
		{name: "store add to a folder", args: []string{"store", "add", "--store", fx.folder, fx.good}, code: u, want: []string{"is a folder"}},
		{name: "store add to a damaged store", args: []string{"store", "add", "--store", fx.corrupt, fx.good}, code: e, want: []string{"corrupt.db", "recover"}},
		{name: "store add duplicate label", args: add("--label", "k=v", "--label", "k=w", fx.good), code: u, want: []string{`key "k" is given twice`}},
		{name: "store add bad label", args: add("--label", "a b=c", fx.good), code: u, want: []string{`label "a b=c"`}},

		// history and serve (read-only).
		{name: "history malformed glob", args: hist("["), code: u, want: []string{`pattern "["`, "* (any text) and ? (one character)"}},
		{name: "history brace glob", args: hist("peaks/{a,b}"), code: u, want: []string{"is not glob syntax"}},
		{name: "history glob before store", args: []string{"history", "[", "--store", filepath.Join(d, "none.db")}, code: u, want: []string{"is not glob syntax"}},
		{name: "history two patterns", args: hist("a", "b"), code: u, want: []string{"takes one benchmark pattern"}},
		{name: "history store not SQLite", args: []string{"history", "--store", fx.notDB}, code: u, want: []string{"is not a SQLite database"}},
		{name: "history store a folder", args: []string{"history", "--store", fx.folder}, code: u, want: []string{"is a folder"}},
		{name: "history mysql store", args: []string{"history", "--store", "mysql://u@h/db"}, code: u, want: []string{"mysql:// is not a store"}},
		{name: "history missing store", args: []string{"history", "--store", filepath.Join(d, "none.db")}, code: e, want: []string{"no store at", "store add"}},
		{name: "history damaged store", args: []string{"history", "--store", fx.corrupt}, code: e, want: []string{"corrupt.db", "recover"}},
		{name: "history bad since", args: hist("--since", "yesterdayish"), code: u, want: []string{"yesterdayish"}},
		{name: "history negative threshold", args: hist("--threshold", "-5%"), code: u, want: []string{"--threshold", "want a percentage"}},
		{name: "history zero recent", args: hist("--recent", "0"), code: u, want: []string{"--recent must be at least 1"}},
		{name: "history bad format", args: hist("--format", "xml"), code: u, want: []string{"table, json, csv"}},
		{name: "history duplicate label", args: hist("--label", "k=v", "--label", "k=w"), code: u, want: []string{`key "k" is given twice`}},
		{name: "history bad label", args: hist("--label", "bad"), code: u, want: []string{`label "bad"`}},
		{name: "serve with arguments", args: []string{"serve", "extra"}, code: u, want: []string{"takes no arguments"}},
		{name: "serve bad threshold", args: []string{"serve", "--threshold", "lots"}, code: u, want: []string{"--threshold"}},
		{name: "serve store not SQLite", args: []string{"serve", "--store", fx.notDB, "--addr", "127.0.0.1:0"}, code: u, want: []string{"is not a SQLite database"}},
		{name: "serve mysql store", args: []string{"serve", "--store", "mysql://u@h/db", "--addr", "127.0.0.1:0"}, code: u, want: []string{"mysql:// is not a store"}},
		{name: "serve missing store", args: []string{"serve", "--store", filepath.Join(d, "none.db"), "--addr", "127.0.0.1:0"}, code: e, want: []string{"no store at"}},

		// compare and report (package results).
		{name: "compare one argument", args: []string{"compare", fx.good}, code: u, want: []string{"takes two arguments"}},
		{name: "compare bad samples", args: []string{"compare", fx.negSample, fx.good}, code: u, want: []string{"negative-sample.json", "benchmark 1", "above zero"}},
		{name: "compare INT64_MAX samples", args: []string{"compare", fx.good, fx.maxSample}, code: u, want: []string{"int64max-sample.json", "more than a day"}},
		{name: "compare missing file", args: []string{"compare", missing, fx.good}, code: u, want: []string{"missing.json"}},
		{name: "compare JSON array", args: []string{"compare", fx.good, fx.array}, code: u, want: []string{"one JSON object"}},
		{name: "compare bad alpha", args: []string{"compare", fx.good, fx.good, "--alpha", "2"}, code: u, want: []string{"--alpha must be between 0 and 1"}},
		{name: "compare bad regression threshold", args: []string{"compare", fx.good, fx.good, "--fail-on-regression", "lots"}, code: u, want: []string{"--fail-on-regression"}},
		{name: "compare bad format", args: []string{"compare", fx.good, fx.good, "--format", "xml"}, code: u, want: []string{"xml"}},
		{name: "report without files", args: []string{"report"}, code: u, want: []string{"needs at least one result file"}},
		{name: "report missing file", args: []string{"report", missing}, code: u, want: []string{"missing.json", "no such file"}},
		{name: "report JSON array", args: []string{"report", fx.array}, code: u, want: []string{"a result file is one JSON object", "not a JSON array"}},
		{name: "report empty file", args: []string{"report", fx.specEmpty}, code: u, want: []string{"empty.yaml:1:1"}},
		{name: "report bad samples", args: []string{"report", fx.zeroSample}, code: u, want: []string{"zero-sample.json", "above zero"}},
		{name: "report other schema", args: []string{"report", fx.wrongSchema}, code: u, want: []string{"not a clmeter result file"}},

		// Others found by probing.
		{name: "cache size a word", args: []string{"cache", "stats", "--cache-max-size", "abc"}, code: u, want: []string{"--cache-max-size", "is not a byte size"}},
		{name: "cache size negative", args: []string{"cache", "list", "--cache-max-size", "-5"}, code: u, want: []string{"--cache-max-size", `"-5"`}},
		{name: "cache bench unknown program", args: []string{"cache", "bench", "nosuch"}, code: u, want: []string{`program "nosuch"`, "small, large"}},
		{name: "tune missing spec", args: []string{"tune", filepath.Join(d, "nosuch.yaml")}, code: u, want: []string{"nosuch.yaml", "no such file"}},
		{name: "tune --set a word", args: []string{"tune", "../../examples/matmul/tune.yaml", "--set", "N=abc"}, code: u, want: []string{"--set", "abc is not a number"}},
		{name: "tune --set without value", args: []string{"tune", "../../examples/matmul/tune.yaml", "--set", "bogus"}, code: u, want: []string{"--set", "NAME=VALUE"}},
		{name: "tune -o a folder", args: []string{"tune", "../../examples/matmul/tune.yaml", "-o", d}, code: u, want: []string{"is a folder"}},
		{name: "tune negative max-time", args: []string{"tune", "../../examples/matmul/tune.yaml", "--max-time", "-1s"}, code: u, want: []string{"--max-time must be above zero"}},
		{name: "history since a typo", args: hist("--since", "30x"), code: u, want: []string{`--since "30x"`, "30d"}},
		{name: "compare --interleave one kernel", args: []string{"compare", "--interleave", "copy"}, code: u, want: []string{"takes two arguments"}},
		{name: "compare --interleave mysql store", args: []string{"compare", "--interleave", "copy", "triad", "--size", "1Ki", "--store", "mysql://u@h/db"}, code: u, want: []string{"mysql:// is not a store"}},
		{name: "compare --interleave zero max-time", args: []string{"compare", "--interleave", "copy", "triad", "--size", "1Ki", "--max-time", "0"}, code: u, want: []string{"--max-time must be above zero"}},
		{name: "negative max-launches", args: saxpy("--max-launches", "-1"), code: u, want: []string{"--max-launches must be at least 1"}},
		{name: "devices with an argument", args: []string{"devices", "extra"}, code: u, want: []string{"takes no arguments", "extra"}},
		{name: "check a missing file", args: []string{"check", filepath.Join(d, "nosuch.cl")}, code: u, want: []string{"nosuch.cl"}},

		// One set of conventions (issue 26): usage is 2 with the choices, no usable device 4.
		{name: "-v is not the version", args: []string{"-v"}, code: u, want: []string{"-v", "--version"}},
		{name: "unknown flag lists the flags", args: []string{"check", "--device", "x", fx.cl}, code: u, want: []string{"'clmeter check' has no flag --device", "it takes --kernel", "-D"}},
		{name: "unknown cache subcommand", args: []string{"cache", "bogus"}, code: u, want: []string{"bogus", "stats, list, verify, clear, wait, bench"}},
		{name: "unknown store subcommand", args: []string{"store", "bogus"}, code: u, want: []string{"bogus", "add"}},
		{name: "run format list", args: saxpy("--format", "xml"), code: u, want: []string{"xml", "table, wide, json, csv, markdown, md"}},
		{name: "suite format list", args: suite("--format", "xml"), code: u, want: []string{"xml", "table, json, csv, markdown, md"}},
		{name: "history format list", args: hist("--format", "xml"), code: u, want: []string{"xml", "table, json, csv, markdown, md"}},
		{name: "compare format list", args: []string{"compare", fx.good, fx.good, "--format", "xml"}, code: u, want: []string{"xml", "table, json, csv, markdown, md"}},
		{name: "report format list", args: []string{"report", fx.good, "--format", "xml"}, code: u, want: []string{"xml", "md", "html"}},
		{name: "completion of an unknown shell", args: []string{"completion", "tcsh"}, code: u, want: []string{"tcsh", "bash, zsh, fish"}},
		{name: "completion without a shell", args: []string{"completion"}, code: u, want: []string{"one shell", "bash, zsh, fish"}},
		{name: "man with an argument", args: []string{"man", "run"}, code: u, want: []string{"takes no arguments"}},
		{name: "history device index", args: hist("--device", "0"), code: u, want: []string{"an index names a device of this machine", "platform:device"}},
		{name: "history device no match", args: hist("--device", "1:7"), code: exitNoDevice, want: []string{`no device matches "1:7"`, "the devices are"}},
		{name: "history device bad spec", args: hist("--device", "1:x"), code: u, want: []string{"platform:device like 1:0"}},

		// The few that reach a device (PoCL, tiny sizes).
		{name: "run no such device", args: saxpy("--device", "nosuchdevice"), code: exitNoDevice, want: []string{`no device matches "nosuchdevice"`, "the devices are"}, device: true},
		{name: "suite no such device", args: suite("--device", "nosuchdevice"), code: exitNoDevice, want: []string{`no device matches "nosuchdevice"`}, device: true},
		{name: "trace no such device", args: []string{"trace", "saxpy", "--size", "1Ki", "--device", "nosuchdevice", "-o", filepath.Join(d, "trace-nodev.json")}, code: exitNoDevice, want: []string{`no device matches "nosuchdevice"`}, device: true},
		{name: "compare --interleave no such device", args: []string{"compare", "--interleave", "copy", "triad", "--size", "1Ki", "--device", "nosuchdevice"}, code: exitNoDevice, want: []string{`no device matches "nosuchdevice"`}, device: true},
		{name: "tune no such device", args: []string{"tune", "../../examples/matmul/tune.yaml", "--device", "nosuchdevice"}, code: exitNoDevice, want: []string{`no device matches "nosuchdevice"`}, device: true},
		{name: "wrong argument count", args: append(slices.Clone(user[:8]), "--arg", "buf:float:64"), code: e, want: []string{"takes 3 arguments, 1 were given"}, device: true},
		{name: "wrong argument type", args: arg("double:1"), code: e, want: []string{"is float, but --arg \"double:1\" gives a value of double"}, device: true},
		{name: "no such kernel in file", args: []string{"run", fx.cl, "--kernel", "nope", "--global", "64", "-D", "FACTOR=1", "--arg", "int:1"}, code: e, want: []string{`has no kernel "nope"`}, device: true},
	}
	rows = append(rows, cutsRows(fx)...)      // issue 44's paper cuts
	rows = append(rows, secretRows(fx)...)    // issue 44's secrets, hosts, escapes
	rows = append(rows, boundRows(fx)...)     // issue 44's bounded reads
	rows = append(rows, badOutputRows(fx)...) // issue 44's outputs
	rows = append(rows, helpRows(fx)...)
	return rows
}

// TestBadInputTable: every bad input ends with its exit status and one clear
// line on stderr naming the problem, no Go stack dump, and no file left
// behind (no -o output, no store, no temporary file). Rows run in-process;
// all but the few marked device fail before a device is touched.
func TestBadInputTable(t *testing.T) {
	fx := makeBadFixtures(t)
	rows := badInputRows(fx)
	if len(rows) < 120 {
		t.Fatalf("%d rows, want at least 120", len(rows))
	}
	hasDevice := func() bool {
		defer func() { recover() }()
		m := runtime.NewManager()
		defer m.Close()
		devs, err := m.Devices()
		return err == nil && len(devs) > 0
	}()
	before := listFiles(t, fx.dir)
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			if r.device && !hasDevice {
				t.Skip("no OpenCL device here")
			}
			out := filepath.Join(fx.dir, "row-output.json")
			args := r.args
			// A measuring row runs with the tests' fast settings (its own
			// flags come last and win) and, unless it names one, an -o, to
			// show that no partial result file is written.
			switch args[0] {
			case "run", "suite":
				quick := fast
				if args[0] == "suite" {
					quick = suiteFast
				}
				args = append(append([]string{args[0]}, quick...), args[1:]...)
				if !slices.Contains(r.args, "-o") {
					args = append(args, "-o", out)
				}
				if r.device && args[0] == "run" && !r.limited {
					args = append(args, "--no-cache") // no note about storing binaries
				}
			}
			code, stdout, errs := runRow(t, r.limited, args)
			if code != r.code {
				t.Errorf("exit %d, want %d; stderr %q", code, r.code, errs)
			}
			for _, w := range r.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q does not say %q", errs, w)
				}
			}
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if max := max(r.lines, 1); len(lines) > max {
				t.Errorf("stderr has %d lines, want %d: %q", len(lines), max, errs)
			}
			if !strings.HasPrefix(errs, "clmeter: ") {
				t.Errorf("stderr %q does not start with 'clmeter: '", errs)
			}
			for _, dump := range []string{"goroutine ", "panic:", ".go:", "runtime error"} {
				if strings.Contains(errs+stdout, dump) {
					t.Errorf("a stack dump or Go internals reached the user (%q): %q", dump, errs+stdout)
				}
			}
			if strings.Contains(stdout, "BENCHMARK") || strings.Contains(stdout, "MEDIAN") {
				t.Errorf("measured before failing:\n%s", stdout)
			}
			if now := listFiles(t, fx.dir); !slices.Equal(now, before) {
				t.Errorf("files changed: before %v, after %v", before, now)
				// Put the folder back for the next rows.
				for _, f := range now {
					if !slices.Contains(before, f) {
						os.RemoveAll(filepath.Join(fx.dir, f))
					}
				}
			}
		})
	}
	t.Logf("%d bad inputs", len(rows))
}

// listFiles lists dir's entries (one level, with hidden ones).
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestHistoryOnAStoreTheUserMayOnlyRead: history, run as a user who may only
// read the store and its folder, works and leaves no file beside it. It needs
// root, to run the child as nobody.
func TestHistoryOnAStoreTheUserMayOnlyRead(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a child as another user")
	}
	// t.TempDir's parent is private to root: a folder of its own, open to all.
	dir, err := os.MkdirTemp("", "clmeter-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "clmeter.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	stDir := filepath.Join(dir, "store")
	os.Mkdir(stDir, 0o755)
	path := filepath.Join(stDir, "results.db")
	f := storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0], Samples: 8, Created: time.Now()})
	st, err := store.Open(context.Background(), path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Add(context.Background(), f, "a.json", nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	os.Chmod(path, 0o444)
	os.Chmod(stDir, 0o555)
	defer os.Chmod(stDir, 0o755)
	cmd := exec.Command(bin, "-test.run=^TestHistoryOnAStoreTheUserMayOnlyRead$", "--", "history", "--store", path)
	cmd.Env = append(os.Environ(), "CLMETER_TEST_MAIN=1", "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), f.Benchmarks[0].Name) {
		t.Errorf("history as nobody: %v\n%s", err, out)
	}
	if names := listFiles(t, stDir); !slices.Equal(names, []string{"results.db"}) {
		t.Errorf("files beside the store after history: %v", names)
	}
}
