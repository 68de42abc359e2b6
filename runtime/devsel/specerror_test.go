package devsel

import (
	"errors"
	"testing"
)

// TestParseErrorsAreErrSpec: every malformed spec is ErrSpec (bad usage),
// and a well-formed one that names no device is ErrNoMatch, not ErrSpec.
func TestParseErrorsAreErrSpec(t *testing.T) {
	for _, s := range []string{"1:x", "-1", "0:0:0", "all,", ":", "1:"} {
		if _, err := Parse(s); !errors.Is(err, ErrSpec) {
			t.Errorf("Parse(%q): %v, want ErrSpec", s, err)
		}
	}
	sp, err := Parse("7")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Match([]Candidate{{Index: 0, Type: "cpu", Label: "0 cpu"}}); !errors.Is(err, ErrNoMatch) || errors.Is(err, ErrSpec) {
		t.Errorf("an index with no device: %v, want ErrNoMatch only", err)
	}
}
