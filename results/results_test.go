package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
)

func sampleFile() File {
	f := File{
		Schema: SchemaName, Version: SchemaVersion,
		Tool:        ToolInfo{Name: "clmeter", Version: "0.1.0"},
		CommandLine: []string{"clmeter", "run", "--kernel", "triad"},
		Created:     time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC),
		Host:        HostInfo{OS: "linux", Arch: "amd64", CPU: "Test CPU", Cores: 2, Hostname: "ci"},
		Benchmarks:  []Benchmark{},
	}
	return f
}

func sampleBenchmark(name string) Benchmark {
	b := Benchmark{Name: name, Kind: "run",
		Device: DeviceInfo{Index: "0:0", Platform: "Portable Computing Language", Name: "cpu", Type: "CPU",
			ComputeUnits: 2, TimerResolutionNS: 1, GlobalMemBytes: 1 << 30},
		Program: &ProgramInfo{FromCache: true, BuildTime: 1043 * time.Microsecond, Source: "triad.cl"},
		Figures: []Figure{{Name: "platform enumeration", Value: 83.2, Unit: "ms", Note: "first clGetPlatformIDs"}},
		Extra:   map[string]any{"cache_dir": "/tmp/x", "hits": 3.0},
	}
	b.SetParam("size", "16Mi")
	b.SetParam("type", "float")
	s := measure.Summarize([]time.Duration{10, 11, 12, 10, 11, 12, 10, 11, 12, 10}, measure.StatsSettings{})
	b.Measurement = &measure.Result{
		Cold:       measure.Batch{Host: 5 * time.Millisecond, Device: 4 * time.Millisecond},
		Timer:      measure.TimerDevice,
		Samples:    []measure.Sample{{PerLaunch: 10, Launches: 2000, Host: 12, Device: 10, DeviceBusy: 9}},
		Summary:    s,
		StopReason: measure.StopNoiseTarget,
		Warnings:   []string{},
		Settings:   measure.DefaultSettings(),
		Throughput: &measure.Throughput{BytesPerLaunch: 100, GBPerSecond: 10},
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	f := sampleFile()
	f.Benchmarks = append(f.Benchmarks, sampleBenchmark("triad"), Benchmark{Name: "broken", Kind: "suite:peaks", Error: "CL_BUILD_PROGRAM_FAILURE"})
	path := filepath.Join(t.TempDir(), "r.json")
	if err := WriteFile(path, &f); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := f.normalized()
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", *got, want)
	}
	// And once more, byte for byte.
	var a, b bytes.Buffer
	if _, err := want.WriteTo(&a); err != nil {
		t.Fatal(err)
	}
	if _, err := got.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("re-encoding differs")
	}
}

func TestEmptyListsEncodeAsArrays(t *testing.T) {
	f := File{Schema: SchemaName, Version: SchemaVersion}
	f.Benchmarks = []Benchmark{{Name: "x", Measurement: &measure.Result{}}}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "null") {
		t.Errorf("null in output:\n%s", out)
	}
	for _, want := range []string{`"command_line": []`, `"figures": []`, `"param_order": []`, `"params": {}`, `"samples": []`, `"outlier_indexes": []`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in:\n%s", want, out)
		}
	}
	var empty File
	empty.Schema, empty.Version = SchemaName, SchemaVersion
	buf.Reset()
	empty.WriteTo(&buf)
	if !strings.Contains(buf.String(), `"benchmarks": []`) {
		t.Errorf("benchmarks not []:\n%s", buf.String())
	}
	if _, err := Decode(&buf, "empty.json"); err != nil {
		t.Errorf("decode empty file: %v", err)
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// failAfter is a writer that accepts n bytes and then fails, like a full disk.
type failAfter struct {
	w io.Writer
	n int
}

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, errors.New("no space left on device")
	}
	f.n -= len(p)
	return f.w.Write(p)
}

func TestWriterAppendAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	w, err := Create(path, sampleFile())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Read(path); err != nil || len(got.Benchmarks) != 0 {
		t.Fatalf("after Create: %v, %v", got, err)
	}
	for i, name := range []string{"a", "b"} {
		if err := w.Append(sampleBenchmark(name)); err != nil {
			t.Fatal(err)
		}
		got, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Benchmarks) != i+1 || got.Benchmarks[i].Name != name {
			t.Fatalf("after Append(%s): %d benchmarks", name, len(got.Benchmarks))
		}
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"run.json"}) {
		t.Errorf("directory holds %v, want only run.json", names)
	}
	before, _ := os.ReadFile(path)

	// A disk that fills up halfway: the file keeps its last complete version
	// and no temporary file is left behind.
	w.wrap = func(w io.Writer) io.Writer { return &failAfter{w: w, n: 100} }
	err = w.Append(sampleBenchmark("c"))
	if err == nil || !strings.Contains(err.Error(), "no space left") || !strings.Contains(err.Error(), path) {
		t.Fatalf("Append on a full disk: err = %v", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a failed write changed the file")
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"run.json"}) {
		t.Errorf("directory holds %v after a failed write", names)
	}
	// The benchmark is kept and written by the next successful flush.
	w.wrap = nil
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil || len(got.Benchmarks) != 3 || got.Benchmarks[2].Name != "c" {
		t.Fatalf("after retry: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if _, err := Create(filepath.Join(dir, "missing", "x.json"), sampleFile()); err == nil {
		t.Error("Create in a missing directory succeeded")
	}
}

func TestVersionRejected(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"schema":"clmeter-result","version":7,"new_field":1}`, "old.json: unsupported result schema version 7 (this clmeter reads 1 to 4)"},
		{`{"schema":"clmeter-result"}`, "old.json: unsupported result schema version 0 (this clmeter reads 1 to 4)"},
		{`{"schema":"benchstat","version":1}`, `old.json: not a clmeter result file (schema "benchstat", want "clmeter-result")`},
	}
	for _, tt := range tests {
		_, err := Decode(strings.NewReader(tt.in), "old.json")
		var ve *VersionError
		if !errors.As(err, &ve) || err.Error() != tt.want {
			t.Errorf("Decode(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		in         string
		line, col  int
		msgContain string
	}{
		{"{\n  \"schema\": x}", 2, 13, "invalid character 'x'"},
		{"{\"schema\": \"clmeter-result\",\n\"version\": 1,\n\"benchmarks\": [}\n", 3, 16, "invalid character '}'"},
		{"{\n  \"schema\": \"clmeter-result\",\n  \"version\": \"1\"\n}", 3, 16, "version"},
		{"{\"schema\": \"clmeter-result\", \"version\": 1", 1, 42, "unexpected end"},
	}
	for _, tt := range tests {
		_, err := Decode(strings.NewReader(tt.in), "bad.json")
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Decode(%q) = %v, want a SyntaxError", tt.in, err)
			continue
		}
		if se.Line != tt.line || se.Column != tt.col || !strings.Contains(se.Msg, tt.msgContain) ||
			!strings.HasPrefix(err.Error(), "bad.json:") {
			t.Errorf("Decode(%q) = %v, want line %d col %d with %q", tt.in, err, tt.line, tt.col, tt.msgContain)
		}
	}
}

func TestUnknownFieldRejected(t *testing.T) {
	for _, in := range []string{
		`{"schema":"clmeter-result","version":1,"benchmarkz":[]}`,
		`{"schema":"clmeter-result","version":1,"benchmarks":[{"name":"a","benchmarkz":1}]}`,
	} {
		_, err := Decode(strings.NewReader(in), "typo.json")
		if err == nil || err.Error() != `typo.json: unknown field "benchmarkz"` {
			t.Errorf("Decode(%s) = %v", in, err)
		}
	}
	// extra is free-form.
	in := `{"schema":"clmeter-result","version":1,"benchmarks":[{"name":"a","extra":{"anything":[1,2]}}]}`
	f, err := Decode(strings.NewReader(in), "ok.json")
	if err != nil || f.Benchmarks[0].Extra["anything"] == nil {
		t.Errorf("extra rejected: %v", err)
	}
	_, err = Decode(strings.NewReader(`{"schema":"clmeter-result","version":1} {}`), "two.json")
	if err == nil || !strings.Contains(err.Error(), "two.json:1:41: invalid character '{' after top-level value") {
		t.Errorf("trailing data: %v", err)
	}
}

func TestOrderedParams(t *testing.T) {
	var b Benchmark
	b.SetParam("size", "1")
	b.SetParam("type", "float")
	b.SetParam("size", "2")
	b.Params["alpha"] = "x" // set without order
	got := b.OrderedParams()
	want := []Param{{"size", "2"}, {"type", "float"}, {"alpha", "x"}}
	if !slices.Equal(got, want) {
		t.Errorf("OrderedParams = %v, want %v", got, want)
	}
}

func TestHost(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cpuinfo")
	os.WriteFile(p, []byte("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n"), 0o644)
	if got := cpuModel(p); got != "AMD EPYC 7B13" {
		t.Errorf("cpuModel = %q", got)
	}
	if got := cpuModel(filepath.Join(t.TempDir(), "none")); got != "" {
		t.Errorf("cpuModel of a missing file = %q", got)
	}
	h := DetectHost()
	if h.OS == "" || h.Arch == "" || h.Cores < 1 {
		t.Errorf("DetectHost = %+v", h)
	}
	f := NewFile(ToolInfo{Name: "clmeter", Version: "dev"}, []string{"clmeter", "run"})
	if f.Schema != SchemaName || f.Version != SchemaVersion || f.Created.IsZero() || f.Benchmarks == nil {
		t.Errorf("NewFile = %+v", f)
	}
	b, _ := json.Marshal(f.Created)
	if !strings.Contains(string(b), "Z") {
		t.Errorf("created %s not UTC", b)
	}
}

func TestVersion1ReadsAndRejectsVersion2Fields(t *testing.T) {
	v1 := `{"schema":"clmeter-result","version":1,"benchmarks":[{"name":"a"}]}`
	f, err := Decode(strings.NewReader(v1), "v1.json")
	if err != nil || f.Version != 1 || len(f.Benchmarks) != 1 {
		t.Fatalf("Decode(v1) = %+v, %v", f, err)
	}
	bad := `{"schema":"clmeter-result","version":1,"benchmarks":[{"name":"a","roofline":{"verdict":"memory-bound","roof":1,"roof_unit":"GB/s","percent_of_roof":50,"evidence":[],"profile":"p"}}]}`
	if _, err := Decode(strings.NewReader(bad), "v1.json"); err == nil || !strings.Contains(err.Error(), `"roofline" is not in schema version 1`) {
		t.Errorf("Decode(v1 with roofline) = %v, want a version error", err)
	}
	good := strings.Replace(bad, `"version":1`, `"version":2`, 1)
	f, err = Decode(strings.NewReader(good), "v2.json")
	if err != nil || f.Benchmarks[0].Roofline == nil || f.Benchmarks[0].Roofline.Verdict != "memory-bound" {
		t.Errorf("Decode(v2) = %+v, %v", f, err)
	}
}

// TestWriterReplace checks that Replace rewrites the file with the rows
// given (a suite's, with their peak figures set at its end).
func TestWriterReplace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	w, err := Create(path, sampleFile())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		if err := w.Append(sampleBenchmark(name)); err != nil {
			t.Fatal(err)
		}
	}
	c := sampleBenchmark("c")
	if err := w.Replace([]Benchmark{sampleBenchmark("a"), c}); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil || len(got.Benchmarks) != 2 || got.Benchmarks[1].Name != "c" {
		t.Fatalf("after Replace: %v, %+v", err, got)
	}
}
