package table

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The units of wrapping. Text breaks at spaces, except that a number keeps
// the word after it (its unit: "17.3 GFLOP/s", "18 samples" are never split
// over two lines). A word longer than a whole line (a benchmark's name, a
// path) may break after a slash that has at least two characters on each
// side, so that a name like peaks/bandwidth/stride/float16 folds where its
// parts meet (a path is never broken, see isPath), while a unit such as GB/s
// stays whole.

// tokens splits s into the units Wrap keeps on one line: its words, a number
// joined to the word after it.
func tokens(s string) []string {
	words := strings.Fields(s)
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if i+1 < len(words) && isNumber(w) && startsUnit(words[i+1]) {
			w += " " + words[i+1]
			i++
		}
		out = append(out, w)
	}
	return out
}

// isNumber tells whether w is a number as tables print them: digits with a
// sign, a decimal point, thousands commas, a percent sign or a ± before it.
func isNumber(w string) bool {
	digit := false
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune("+-±~.,%", r):
		default:
			return false
		}
	}
	return digit
}

// startsUnit tells whether w can be a number's unit: it starts with a letter
// (µs, GB/s, klaunches/s, samples).
func startsUnit(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLetter(r)
}

// pieces splits a token at the slashes it may break after (see tokens); a
// token with a space in it (a number and its unit) is one piece.
func pieces(tok string) []string {
	if strings.ContainsRune(tok, ' ') || isPath(tok) {
		return []string{tok}
	}
	var out []string
	start := 0
	for i := 0; i < len(tok); i++ {
		if tok[i] != '/' {
			continue
		}
		if Len(tok[start:i+1]) >= 3 && Len(tok[i+1:]) >= 2 {
			out = append(out, tok[start:i+1])
			start = i + 1
		}
	}
	return append(out, tok[start:])
}

// isPath tells whether tok reads as a file path or URL (a copy and paste
// must find it whole, so it is never broken).
func isPath(tok string) bool {
	tok = strings.TrimLeft(tok, "('\"")
	return strings.HasPrefix(tok, "/") || strings.HasPrefix(tok, ".") || strings.HasPrefix(tok, "~") || strings.Contains(tok, "://")
}

// longestToken is the width of the longest unit of s that wrapping keeps on
// one line when no name folds (see tokens).
func longestToken(s string) int {
	m := 0
	for _, t := range tokens(s) {
		m = max(m, Len(t))
	}
	return m
}

// longestWord is the width of the longest unit of s that wrapping cannot
// break (see tokens and pieces): the narrowest s can wrap to.
func longestWord(s string) int {
	m := 0
	for _, t := range tokens(s) {
		for _, p := range pieces(t) {
			m = max(m, Len(p))
		}
	}
	return m
}

// FitLines re-wraps the lines of text longer than width (a help text),
// keeping shorter lines as they are. A row of two columns (text after a gap
// of two or more spaces) goes on under its second column. A line of prose
// too long is joined with the lines that continue its paragraph (indented as
// much or more, not a row, a heading, a list item or a number's line) and the
// paragraph wrapped under its second line's indent, or its own plus four.
func FitLines(text string, width int) string { return fitLines(text, width, true) }

// FitEachLine is FitLines with no paragraph joined: each line too long is
// wrapped on its own (a report whose lines are items, like doctor's).
func FitEachLine(text string, width int) string { return fitLines(text, width, false) }

func fitLines(text string, width int, join bool) string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		body := strings.TrimLeft(l, " ")
		indent := l[:len(l)-len(body)]
		if col, ok := rowColumn(l); ok {
			if Len(l) <= width || col > width/2 {
				out = append(out, l)
				if Len(l) > width {
					out[len(out)-1] = strings.Join(Wrap(body, width, indent, indent+"    "), "\n")
				}
				continue
			}
			rest := strings.TrimLeft(body[strings.Index(body, "  "):], " ")
			out = append(out, Wrap(rest, width, l[:len(l)-len(rest)], strings.Repeat(" ", col))...)
			continue
		}
		if body == "" || strings.HasSuffix(body, ":") && Len(l) <= width {
			out = append(out, l) // a blank line or a heading starts no paragraph
			continue
		}
		j, long := i+1, Len(l) > width
		for join && j < len(lines) && continues(lines[j], len(indent)) {
			long = long || Len(lines[j]) > width
			j++
		}
		if !long {
			out = append(out, lines[i:j]...)
			i = j - 1
			continue
		}
		hang := indent + "    "
		if j > i+1 {
			hang = lines[i+1][:len(lines[i+1])-len(strings.TrimLeft(lines[i+1], " "))]
		}
		out = append(out, Wrap(strings.Join(lines[i:j], " "), width, indent, hang)...)
		i = j - 1
	}
	return strings.Join(out, "\n")
}

// rowColumn is where the second column of a two-column row starts (after a
// gap of two or more spaces past the line's indent).
func rowColumn(l string) (int, bool) {
	body := strings.TrimLeft(l, " ")
	i := strings.Index(body, "  ")
	if i <= 0 || strings.TrimSpace(body[i:]) == "" {
		return 0, false
	}
	rest := strings.TrimLeft(body[i:], " ")
	return Len(l) - Len(rest), true
}

// continues tells whether line l goes on with a paragraph indented by indent.
func continues(l string, indent int) bool {
	body := strings.TrimLeft(l, " ")
	if body == "" || len(l)-len(body) < indent || strings.HasSuffix(body, ":") {
		return false
	}
	if _, row := rowColumn(l); row {
		return false
	}
	r, _ := utf8.DecodeRuneInString(body)
	return !strings.ContainsRune("-*$#0123456789", r)
}
