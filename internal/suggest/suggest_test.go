package suggest

import (
	"reflect"
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	cmds := []string{"cache", "check", "compare", "devices", "run", "serve", "store", "suite", "trace", "tune"}
	for _, c := range []struct {
		word    string
		choices []string
		want    []string
	}{
		{"sutie", cmds, []string{"suite"}}, // a swap
		{"quik", []string{"quick", "peaks", "all"}, []string{"quick"}},
		{"triadd", []string{"copy", "scale", "add", "triad"}, []string{"triad"}},
		{"--max-tim", []string{"--max-time", "--min-samples", "--max-noise"}, []string{"--max-time"}},
		{"SUITE", cmds, nil},                 // the same name, cased: no slip
		{"nosuch", cmds, nil},                // nothing near
		{"x", []string{"a", "b", "xy"}, nil}, // too short to tell
		{"stoer", []string{"store", "stoker", "steer", "stone", "stores"}, []string{"store", "stoker", "steer"}}, // ties, at most three, in order
		{"chek", cmds, []string{"check"}},
	} {
		if got := Closest(c.word, c.choices); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("sotre", []string{"store", "score"}); got != "did you mean 'store'?" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("stxre", []string{"store", "stare"}); got != "did you mean 'store' or 'stare'?" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("zzzzzz", []string{"store"}); got != "" {
		t.Errorf("got %q", got)
	}
}

func TestFit(t *testing.T) {
	names := strings.Fields("alpha beta gamma delta epsilon zeta eta theta")
	if got := Fit(names, 200); got != strings.Join(names, ", ") {
		t.Errorf("all fit: %q", got)
	}
	got := Fit(names, 30)
	if len(got) > 30 || !strings.HasSuffix(got, " more") || !strings.HasPrefix(got, "alpha, beta") {
		t.Errorf("Fit(30) = %q", got)
	}
	if got := Fit(names, 1); got != "alpha and 7 more" {
		t.Errorf("Fit(1) = %q", got)
	}
}
