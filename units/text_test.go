package units

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"copy/size=1Ki":                              "copy/size=1Ki",
		"µs café ☃":                                  "µs café ☃",
		"a\x1b[2Jb":                                  `a\x1b[2Jb`,
		"k=\x1b]0;pwned\a\nl2":                       `k=\x1b]0;pwned\a\nl2`,
		"tab\there\rnul\x00":                         `tab\there\rnul\x00`,
		"del\x7f c1\u0085\u009b":                     `del\x7f c1\u0085\u009b`,
		"abc\u202edef\u2066x":                        `abc\u202edef\u2066x`,
		"\u202a\u202b\u202c\u202d\u2067\u2068\u2069": `\u202a\u202b\u202c\u202d\u2067\u2068\u2069`,
		"bad\xffutf8\xc3":                            `bad\xffutf8\xc3`,
	} {
		got := Escape(in)
		if got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if !SafeText(got) || Escape(got) != got {
			t.Errorf("Escape(%q) = %q is not safe text, or escapes again", in, got)
		}
		if SafeText(in) != (in == want) {
			t.Errorf("SafeText(%q) = %v", in, SafeText(in))
		}
	}
}

// FuzzEscape: whatever the input, the output is valid UTF-8 without an
// unsafe rune, and safe text passes unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "x\x1b[31m", "\u202e", "\xff\xfe", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if !SafeText(got) {
			t.Fatalf("Escape(%q) = %q holds an unsafe rune", s, got)
		}
		if SafeText(s) && got != s {
			t.Fatalf("Escape(%q) changed safe text to %q", s, got)
		}
		if strings.ContainsAny(got, "\x1b\n\r\a") {
			t.Fatalf("Escape(%q) = %q", s, got)
		}
	})
}
