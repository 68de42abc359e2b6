package table

import (
	"bytes"
	"strings"
	"testing"
)

// TestCellsEscaped: cells, headers, notes and wrapped text from a file or
// the store reach the output with their control characters and
// bidirectional overrides escaped.
func TestCellsEscaped(t *testing.T) {
	tb := New(Column{Header: "NAME\x1b[1m"}, Column{Header: "VALUE", Wrap: true})
	tb.Row("copy\x1b[2J\u202eevil", "a\nb\a")
	tb.Note("note \x1b]0;title\a here")
	var buf bytes.Buffer
	tb.Write(&buf, 100)
	WriteWrapped(&buf, "wrapped \x1b[31mred\u2066", 100, "", "")
	out := buf.String()
	if strings.ContainsAny(out, "\x1b\a\u202e\u2066") {
		t.Fatalf("raw escapes:\n%q", out)
	}
	for _, want := range []string{`NAME\x1b[1m`, `copy\x1b[2J\u202eevil`, `a\nb\a`, `note \x1b]0;title\a here`, `\x1b[31mred\u2066`} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not in:\n%s", want, out)
		}
	}
}
