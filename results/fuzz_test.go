package results

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeResult checks Decode on arbitrary bytes: it never panics; an error
// is a *VersionError, a *SyntaxError or names the file; a file it accepts
// encodes to bytes that decode to the same file and encode to the same bytes.
func FuzzDecodeResult(f *testing.F) {
	for _, p := range []string{"testdata/pocl.json", "testdata/h200.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	full := sampleFile()
	full.Benchmarks = append(full.Benchmarks, sampleBenchmark("triad"), Benchmark{Name: "broken", Kind: "suite:peaks", Error: "CL_BUILD_PROGRAM_FAILURE"})
	for _, file := range []File{full, sampleFile(), {Schema: SchemaName, Version: SchemaVersion}} {
		b, err := file.Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		``, `null`, `[]`, `{}`, `"x"`,
		`{"schema":"clmeter-result","version":7,"new_field":1}`,
		`{"schema":"benchstat","version":1}`,
		`{"schema":"clmeter-result","version":1,"benchmarkz":[]}`,
		`{"schema":"clmeter-result","version":1} {}`,
		`{"schema":"clmeter-result","version":1,"benchmarks":[{"name":"a","extra":{"anything":[1,2e300,null,{"x":"\u00e9\ud800"}]}}]}`,
		`{"schema":"clmeter-result","version":1,"created":"2024-05-01T12:00:00.123456789+05:30","benchmarks":[{"name":"a","params":{"b":"1"},"param_order":["z","b","b"]}]}`,
		`{"schema":"clmeter-result","version":1,"benchmarks":[{"measurement":{"settings":{"warmup":"3x"}}}]}`,
		`{"schema":"clmeter-result","version":1,"benchmarks":[{"measurement":{"settings":{"warmup":"0s"}}}]}`,
		`{"schema":"clmeter-result","version":1,"benchmarks":[{"measurement":{"settings":{"warmup":"-1x"}}}]}`,
		`{"Schema":"clmeter-result","VERSION":1,"host":{"cores":1e3}}`,
		"{\"schema\": \"clmeter-result\", \"version\": 1,\n\"benchmarks\": [}\n",
		"{\"schema\":\"clmeter-result\",\"version\":1,\"tool\":{\"name\":\"\xff\"}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz.json"
		got, err := Decode(bytes.NewReader(data), name)
		if err != nil {
			checkDecodeError(t, err, name)
			return
		}
		b1, err := got.Encode()
		if err != nil {
			t.Fatalf("decoded file does not encode: %v", err)
		}
		again, err := Decode(bytes.NewReader(b1), name)
		if err != nil {
			t.Fatalf("re-encoded file does not decode: %v\n%s", err, b1)
		}
		b2, err := again.Encode()
		if err != nil {
			t.Fatalf("second encode: %v", err)
		}
		if !bytes.Equal(b1, b2) {
			t.Fatalf("round trip changed the file:\nfirst  %s\nsecond %s", b1, b2)
		}
		third, err := Decode(bytes.NewReader(b2), name)
		if err != nil || !reflect.DeepEqual(again, third) {
			t.Fatalf("a written file does not decode to itself: %v", err)
		}
	})
}

// checkDecodeError checks that a Decode error is one of the typed errors, or
// names the file.
func checkDecodeError(t *testing.T, err error, name string) {
	t.Helper()
	var ve *VersionError
	var se *SyntaxError
	switch {
	case errors.As(err, &ve):
		if ve.File != name {
			t.Fatalf("version error names %q, want %q", ve.File, name)
		}
	case errors.As(err, &se):
		if se.File != name || se.Line < 1 || se.Column < 1 || se.Msg == "" {
			t.Fatalf("syntax error without a place: %+v", se)
		}
	case !strings.HasPrefix(err.Error(), name+": "):
		t.Fatalf("error %q (%T) neither typed nor naming the file", err, err)
	}
}
