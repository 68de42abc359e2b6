package units

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Unsafe reports whether r must not reach a terminal as it is: a C0 control
// character (ESC, BEL, newline, tab and the rest), DEL, a C1 control
// character, or a bidirectional embedding, override or isolate (U+202A to
// U+202E, U+2066 to U+2069), which reorder the text shown after them.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// SafeText reports whether s is valid UTF-8 without an Unsafe rune: text
// that may be shown on a terminal as it is.
func SafeText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, Unsafe)
}

// Escape is the one way clmeter shows text that came from a file or the
// store (a benchmark's name, a parameter, a label) on a terminal: s as it
// is, but each Unsafe rune written as Go writes it in a quoted string
// ("\x1b", "\n", "\u202e") and each byte of invalid UTF-8 as "\xff".
func Escape(s string) string {
	if SafeText(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])>>4, 16) + strconv.FormatUint(uint64(s[i])&0xf, 16))
		case Unsafe(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
