package table

import (
	"bytes"
	"strings"
	"testing"
)

func TestTableFits(t *testing.T) {
	tb := New(Column{Header: "NAME"}, Column{Header: "DEVICE", Wrap: true}, Column{Header: "MEDIAN", Right: true},
		Column{Header: "GEOMEAN", Drop: 2}, Column{Header: "MIN", Drop: 1}, Column{Header: "NOTES", Wrap: true})
	long := "a warning that is much longer than any column could hold, with its important part at the very end"
	for i := 0; i < 3; i++ {
		tb.Row("saxpy", "pthread-haswell-AMD EPYC 7B13 64-Core Processor", "1.234 ms", "1.240 ms", "1.200 ms", Refs([]int{tb.Note(long)}))
	}
	for _, width := range []int{40, 60, 100, 200} {
		var buf bytes.Buffer
		if err := tb.Write(&buf, width); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, l := range strings.Split(out, "\n") {
			if Len(l) > width {
				t.Errorf("width %d: line of %d: %q", width, Len(l), l)
			}
		}
		words := map[string]bool{}
		for _, f := range strings.Fields(out) {
			words[f] = true
		}
		for _, want := range strings.Fields(long + " pthread-haswell-AMD EPYC 7B13 64-Core Processor saxpy") {
			if !words[want] {
				t.Errorf("width %d: word %q cut or lost:\n%s", width, want, out)
			}
		}
		if strings.Count(out, "[1]") != 1 || strings.Contains(out, "[2]") {
			t.Errorf("width %d: the repeated note is not one note:\n%s", width, out)
		}
		if width == 200 && strings.Contains(out, "left out") {
			t.Errorf("width 200 dropped a column:\n%s", out)
		}
		if width == 60 && !strings.Contains(out, "left out to fit 60 columns: GEOMEAN") {
			t.Errorf("width 60 does not say what it left out:\n%s", out)
		}
	}
}

func TestWidth(t *testing.T) {
	t.Setenv("COLUMNS", "120")
	if w := Width(&bytes.Buffer{}); w != 120 {
		t.Errorf("COLUMNS=120 gives %d", w)
	}
	t.Setenv("COLUMNS", "")
	if w := Width(&bytes.Buffer{}); w != DefaultWidth {
		t.Errorf("no terminal gives %d, want %d", w, DefaultWidth)
	}
}

func TestWrapKeepsWords(t *testing.T) {
	got := Wrap("one two three averyveryverylongword four", 10, "> ", "  ")
	want := []string{"> one two", "  three", "  averyveryverylongword", "  four"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRefs(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{{nil, ""}, {[]int{1}, "1"}, {[]int{1, 2}, "1,2"}, {[]int{1, 2, 3, 5}, "1-3,5"}, {[]int{16, 5, 6}, "16,5,6"}, {[]int{8, 9, 10, 11}, "8-11"}} {
		if got := Refs(c.in); got != c.want {
			t.Errorf("Refs(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWrapKeepsNumbersWithUnits(t *testing.T) {
	got := Wrap("throughput 17.3 GFLOP/s over 18 samples", 16, "", "")
	want := []string{"throughput", "17.3 GFLOP/s", "over 18 samples"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWrapBreaksLongNamesAfterSlashes(t *testing.T) {
	got := Wrap("peaks/bandwidth/stride/float16 57.2 GB/s", 18, "", "")
	want := []string{"peaks/bandwidth/", "stride/float16", "57.2 GB/s"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	// A unit's slash is no break: GB/s stays whole on a line too short.
	if got := Wrap("GB/s", 3, "", ""); len(got) != 1 || got[0] != "GB/s" {
		t.Errorf("GB/s wrapped to %q", got)
	}
	if n := longestWord("peaks/bandwidth/stride/float16 pattern=stride 213 klaunches/s"); n != len("213 klaunches/s") {
		t.Errorf("longestWord = %d", n)
	}
}

func TestFitLines(t *testing.T) {
	text := "NAME:\n   --max-time value   stop sampling a benchmark after this long (default: 0.8s)\n   a paragraph that is longer than the width of the terminal\nshort"
	got := FitLines(text, 50)
	want := "NAME:\n" +
		"   --max-time value   stop sampling a benchmark\n" +
		"                      after this long (default:\n" +
		"                      0.8s)\n" +
		"   a paragraph that is longer than the width of\n" +
		"       the terminal\n" +
		"short"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWrapKeepsPathsWhole(t *testing.T) {
	for _, p := range []string{"/root/.cache/clmeter/profiles/x.json", "../examples/vectorise/chains.cl", "(/tmp/a/b/c.json)"} {
		if got := Wrap("saved in "+p, 12, "", ""); got[len(got)-1] != p {
			t.Errorf("%s wrapped to %q", p, got)
		}
	}
}
