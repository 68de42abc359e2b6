package results

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
)

func sampledFile(samples ...time.Duration) *File {
	f := sampleFile()
	b := sampleBenchmark("triad")
	b.Measurement.Samples = nil
	for _, s := range samples {
		b.Measurement.Samples = append(b.Measurement.Samples, measure.Sample{PerLaunch: s, Launches: 10})
	}
	b.Measurement.Summary.N = len(samples)
	f.Benchmarks = append(f.Benchmarks, b)
	return &f
}

func TestCheckSamples(t *testing.T) {
	if err := CheckSamples(sampledFile(10, 11, 12), "ok.json"); err != nil {
		t.Errorf("good samples: %v", err)
	}
	for name, c := range map[string]struct {
		f    *File
		want string
	}{
		"zero":     {sampledFile(10, 0, 12), "sample 2 has a per-launch time of 0 ns"},
		"negative": {sampledFile(-5), "-5 ns"},
		"int64max": {sampledFile(10, math.MaxInt64), "more than a day"},
		"empty": {func() *File {
			f := sampledFile(10, 11)
			f.Benchmarks[0].Measurement.Samples = []measure.Sample{}
			return f
		}(), "summary counts 2 samples but the file holds none"},
		"launches": {func() *File {
			f := sampledFile(10)
			f.Benchmarks[0].Measurement.Samples[0].Launches = 0
			return f
		}(), "counts 0 launches"},
		"mismatch": {func() *File {
			f := sampledFile(10, 11, 12)
			f.Benchmarks[0].Measurement.Summary.N = 5
			return f
		}(), "summary counts 5 samples but the file holds 3"},
	} {
		err := CheckSamples(c.f, "bad.json")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bad.json: benchmark 1 (triad): ") {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	// A benchmark that stopped before its first sample is no error.
	f := sampledFile()
	if err := CheckSamples(f, "x.json"); err != nil {
		t.Errorf("no samples, summary of none: %v", err)
	}
}

// TestReadFilesSaysWhyAFileIsLeftOut: compare and report leave out a file with
// bad samples, with the reason.
func TestReadFilesSaysWhyAFileIsLeftOut(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
	if err := WriteFile(good, sampledFile(10, 11)); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(bad, sampledFile(10, -1)); err != nil {
		t.Fatal(err)
	}
	srcs, errs := ReadFiles([]string{good, bad})
	if len(srcs) != 1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "bad.json: benchmark 1 (triad): sample 2") {
		t.Errorf("ReadFiles: %d read, errors %v", len(srcs), errs)
	}
}

func TestJSONArrayIsNamedPlainly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.json")
	os.WriteFile(p, []byte(`[{"schema": "clmeter-result"}]`), 0o644)
	_, err := Read(p)
	if err == nil || !strings.Contains(err.Error(), "a result file is one JSON object") || strings.Contains(err.Error(), "struct {") {
		t.Errorf("array: %v", err)
	}
}
