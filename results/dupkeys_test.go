package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDuplicateKey: a key given twice in one object is found, with escapes
// decoded, in small and large objects; the same key in sibling or nested
// objects, in strings or in arrays is not a duplicate.
func TestDuplicateKey(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{`)
	for i := range 40 {
		fmt.Fprintf(&many, `"k%d": %d, `, i, i)
	}
	cases := []struct {
		doc, key string
	}{
		{`{"a": 1, "b": 2}`, ""},
		{`{"a": 1, "a": 2}`, "a"},
		{`{"a": 1, "\u0061": 2}`, "a"},
		{`{"x": [{"a": 1}, {"a": 2}], "y": {"a": {"a": 3}}}`, ""},
		{`{"x": [{"a": 1, "b": {"c": 1}, "a": 2}]}`, "a"},
		{`{"s": "\"a\": 1, \"a\"", "t": ["a", "a"]}`, ""},
		{`{"o": {"q": 1}, "q": 2, "o": 3}`, "o"},
		{many.String() + `"k7": 0}`, "k7"},
		{many.String() + `"k40": 0}`, ""},
	}
	for _, c := range cases {
		key, _, dup := duplicateKey([]byte(c.doc))
		if dup != (c.key != "") || key != c.key {
			t.Errorf("%.60s: duplicate %q (%v), want %q", c.doc, key, dup, c.key)
		}
	}
}

// TestDecodeDuplicateAndBOM: Decode refuses a result file with a key given
// twice, naming the key and its line, and reads one that starts with a UTF-8
// byte order mark.
func TestDecodeDuplicateAndBOM(t *testing.T) {
	dir := t.TempDir()
	f := NewFile(ToolInfo{Name: "clmeter", Version: "test"}, []string{"clmeter", "run"})
	f.Benchmarks = []Benchmark{{Name: "b"}}
	path := filepath.Join(dir, "r.json")
	if err := WriteFile(path, &f); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if _, err := Decode(bytes.NewReader(append([]byte("\xef\xbb\xbf"), data...)), "bom.json"); err != nil {
		t.Errorf("a file with a byte order mark: %v", err)
	}
	twice := bytes.Replace(data, []byte(`"name": "b"`), []byte(`"name": "b", "name": "c"`), 1)
	if bytes.Equal(twice, data) {
		t.Fatalf("no name field to repeat in %s", data)
	}
	_, err := Decode(bytes.NewReader(twice), "twice.json")
	var syn *SyntaxError
	if !errors.As(err, &syn) || !strings.Contains(err.Error(), `key "name" appears twice`) || syn.Line < 2 {
		t.Errorf("a key given twice: %v, want a SyntaxError naming \"name\" and its line", err)
	}
}

// TestDuplicateKeyOnBadInput: input that is not valid JSON does not make
// duplicateKey panic.
func TestDuplicateKeyOnBadInput(t *testing.T) {
	for _, doc := range []string{`}`, `]]`, `"a"`, `{"a`, `{"a":1}}`, `"\`, ``, `{"a":1,"a`, `{"`, `{"\"`} {
		duplicateKey([]byte(doc))
	}
}
