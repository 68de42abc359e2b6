// Package suggest finds the names closest to a mistyped word, for the "did
// you mean" of a usage error, and fits a list of names on one line.
package suggest

import (
	"fmt"
	"strings"
)

// Closest returns the choices nearest to word by edit distance (insertions,
// deletions, substitutions and swaps of neighbours, case ignored), all those
// at the least distance, in the order given, at most three; none when even
// the nearest is too far to be a slip (more than a third of word's length,
// at least 1, at most 3), and none for a word under 3 letters, which is a
// slip away from too many.
func Closest(word string, choices []string) []string {
	if len([]rune(word)) < 3 {
		return nil
	}
	limit := max(len([]rune(word))/3, 1)
	if limit > 3 {
		limit = 3
	}
	best := limit + 1
	var out []string
	lw := strings.ToLower(word)
	for _, c := range choices {
		d := distance(lw, strings.ToLower(c))
		switch {
		case d == 0 || d > limit:
		case d < best:
			best, out = d, []string{c}
		case d == best && len(out) < 3:
			out = append(out, c)
		}
	}
	return out
}

// DidYouMean is "did you mean 'x'?" (or "'x' or 'y'") naming the choices
// closest to word, or "" when none is close.
func DidYouMean(word string, choices []string) string {
	return Phrase(Closest(word, choices))
}

// Phrase is "did you mean 'x'?" (or "'x' or 'y'") naming m, or "" when m
// is empty.
func Phrase(m []string) string {
	if len(m) == 0 {
		return ""
	}
	q := make([]string, len(m))
	for i, s := range m {
		q[i] = "'" + s + "'"
	}
	if len(q) == 1 {
		return "did you mean " + q[0] + "?"
	}
	return "did you mean " + strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1] + "?"
}

// Fit joins names with ", " in at most width characters, ending with
// "and N more" when not all fit (that note counted in the width); at least
// one name is always given.
func Fit(names []string, width int) string {
	var b strings.Builder
	for i, n := range names {
		more := ""
		if rest := len(names) - i - 1; rest > 0 {
			more = fmt.Sprintf(", and %d more", rest)
		}
		sep := ""
		if i > 0 {
			sep = ", "
		}
		if i > 0 && b.Len()+len(sep)+len(n)+len(more) > width {
			fmt.Fprintf(&b, " and %d more", len(names)-i)
			break
		}
		b.WriteString(sep + n)
	}
	return b.String()
}

// distance is the optimal string alignment distance of a and b: the
// Levenshtein distance with a swap of two neighbouring letters counted as one.
func distance(a, b string) int {
	r, s := []rune(a), []rune(b)
	prev2 := make([]int, len(s)+1)
	prev := make([]int, len(s)+1)
	cur := make([]int, len(s)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(r); i++ {
		cur[0] = i
		for j := 1; j <= len(s); j++ {
			cost := 1
			if r[i-1] == s[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && r[i-1] == s[j-2] && r[i-2] == s[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(s)]
}
