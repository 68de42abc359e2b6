// Package table is the one home for fitting text to a terminal: aligned tables
// that fit a width by abbreviating headers, dropping the least important
// columns and wrapping long cells at spaces (never cutting a word), numbered
// notes under a table, word wrapping, and the width to fit (COLUMNS, else the
// terminal's, else 100).
package table

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/clmeter/clmeter/units"
)

// DefaultWidth is the width of output that goes to no terminal.
const DefaultWidth = 100

// Width is the width to fit output to w in: $COLUMNS when set to a number,
// else the size of the terminal w is, else DefaultWidth.
func Width(w io.Writer) int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n >= 20 {
		return n
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n >= 20 {
			return n
		}
	}
	return DefaultWidth
}

// IsTerminal reports whether w is a terminal (progress is shown only there).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Len is the width of s in columns (one a rune).
func Len(s string) int { return utf8.RuneCountInString(s) }

// Wrap breaks text into lines of at most width columns at spaces; the first
// line starts with first, the others with rest (a hanging indent). A number
// stays on the line of the word after it (its unit). A word longer than a
// line breaks after a slash where it can (see pieces), else goes on a line of
// its own, whole. Each word is shown through units.Escape (whitespace of any
// kind separates words). It takes time linear in the length of text.
func Wrap(text string, width int, first, rest string) []string {
	var lines []string
	var line strings.Builder
	prefix := first
	n := 0 // columns in line
	add := func(piece string, space bool) {
		wl := Len(piece)
		gap := 0
		if space && n > 0 {
			gap = 1
		}
		if n > 0 && Len(prefix)+n+gap+wl > width {
			lines = append(lines, prefix+line.String())
			line.Reset()
			n, prefix, gap = 0, rest, 0
		}
		if gap > 0 {
			line.WriteByte(' ')
			n++
		}
		line.WriteString(piece)
		n += wl
	}
	for _, word := range tokens(text) {
		word = units.Escape(word)
		if Len(rest)+Len(word) <= width || Len(prefix)+n+1+Len(word) <= width {
			add(word, true)
			continue
		}
		for i, p := range pieces(word) {
			add(p, i == 0)
		}
	}
	if n > 0 || len(lines) == 0 {
		lines = append(lines, prefix+line.String())
	}
	return lines
}

// WriteWrapped writes text wrapped to width (see Wrap).
func WriteWrapped(w io.Writer, text string, width int, first, rest string) {
	for _, l := range Wrap(text, width, first, rest) {
		fmt.Fprintln(w, strings.TrimRight(l, " "))
	}
}

// A Column is one column of a Table.
type Column struct {
	// Header is the column's title; Short, when set, replaces it when the
	// table must narrow.
	Header, Short string
	// Drop orders the columns that may be left out to fit: the highest Drop
	// goes first; 0 is never dropped.
	Drop int
	// Wrap lets the column's cells break at spaces onto more lines.
	Wrap bool
	// Right aligns the column right (numbers).
	Right bool
}

// A Table is rows of cells under Columns, with numbered notes below.
type Table struct {
	Columns []Column
	// Indent starts every line.
	Indent string
	rows   [][]string
	notes  []string
	noteID map[string]int
}

// New returns a table with these columns (headers escaped as cells are).
func New(cols ...Column) *Table {
	for i := range cols {
		cols[i].Header, cols[i].Short = units.Escape(cols[i].Header), units.Escape(cols[i].Short)
	}
	return &Table{Columns: cols, noteID: map[string]int{}}
}

// Row adds a row; missing cells are empty. Each cell is shown through
// units.Escape: a control character or a bidirectional override from a file
// or the store never reaches the terminal raw.
func (t *Table) Row(cells ...string) {
	row := make([]string, len(t.Columns))
	for i, c := range cells[:min(len(cells), len(row))] {
		row[i] = units.Escape(c)
	}
	t.rows = append(t.rows, row)
}

// Rows is the number of rows added.
func (t *Table) Rows() int { return len(t.rows) }

// Note adds a note (a text already given keeps its number) and returns its
// number.
func (t *Table) Note(text string) int {
	text = units.Escape(strings.Join(strings.Fields(text), " "))
	if id, ok := t.noteID[text]; ok {
		return id
	}
	t.notes = append(t.notes, text)
	t.noteID[text] = len(t.notes)
	return len(t.notes)
}

// Refs writes note numbers as a cell, runs of three or more as ranges:
// "1,3", "1-7,9".
func Refs(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		case j > i:
			parts = append(parts, strconv.Itoa(ids[i]), strconv.Itoa(ids[j]))
		default:
			parts = append(parts, strconv.Itoa(ids[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// Write writes the table fitted to width, then its notes, each whole and
// wrapped, numbered as Note gave them. Columns left out to fit are named in a
// closing line; a column empty in every row is left out silently.
func (t *Table) Write(w io.Writer, width int) error {
	t.write(w, width)
	return nil
}

// write is Write; it returns the fitting's steps (fitting.steps).
func (t *Table) write(w io.Writer, width int) int {
	f := newFitting(t, width)
	dropped := f.fit()
	if f.total() > width {
		// Whole words cannot fit: long names may fold after their slashes
		// (see pieces) before the table gives way to records.
		steps := f.steps
		f = newFitting(t, width)
		f.fold = true
		dropped = f.fit()
		f.steps += steps
	}
	if f.total() > width {
		// Records show every field: nothing was left out.
		t.writeRecords(w, width)
		dropped = nil
	} else {
		t.writeRows(w, f.keep, f.short, f.widths)
	}
	if len(dropped) > 0 {
		WriteWrapped(w, fmt.Sprintf("(left out to fit %d columns: %s)", width, strings.Join(dropped, ", ")), width, t.Indent, t.Indent)
	}
	t.writeNotes(w, width)
	return f.steps
}

// fit fits the columns: 1. short headers, one at a time, the largest saving
// first, while even wrapping could not fit; 2. drop columns; 3. wrap. It
// returns the headers of the columns dropped.
func (f *fitting) fit() []string {
	f.shortenHeaders()
	dropped := f.dropColumns()
	f.narrowWrapping()
	return dropped
}

// A fitting is a table's columns being fitted to a width: which are kept,
// which show their short header, and each one's width. Each column's widest
// cell and longest word are measured once, so that fitting takes time linear
// in the size of the cells (the narrowing steps are at most the natural
// widths, each O(columns)).
type fitting struct {
	t      *Table
	width  int
	keep   []bool
	short  []bool
	widths []int
	// cell and word are each column's widest cell and longest word, its
	// header left out; folded is its longest piece when names may fold
	// after a slash (fold).
	cell, word, folded []int
	fold               bool
	// steps counts the fitting's work: a step a byte of the cells measured
	// and a step a column each time the columns are gone through (the
	// layout fuzz target bounds it).
	steps int
}

// comfortable is the width wrapping columns narrow to (or their longest
// word) before any column is dropped; below it, columns go first.
const comfortable = 16

func newFitting(t *Table, width int) *fitting {
	n := len(t.Columns)
	f := &fitting{t: t, width: width, keep: make([]bool, n), short: make([]bool, n), widths: make([]int, n),
		cell: make([]int, n), word: make([]int, n), folded: make([]int, n)}
	for _, r := range t.rows {
		for i, c := range r {
			f.steps += len(c) + 1
			// A column with no text in any row is left out, unannounced.
			f.keep[i] = f.keep[i] || c != ""
			f.cell[i] = max(f.cell[i], Len(c))
			f.word[i] = max(f.word[i], longestToken(c))
			f.folded[i] = max(f.folded[i], longestWord(c))
		}
	}
	f.reset()
	return f
}

// header is column i's header as shown.
func (f *fitting) header(i int) string {
	if f.short[i] && f.t.Columns[i].Short != "" {
		return f.t.Columns[i].Short
	}
	return f.t.Columns[i].Header
}

// natural is column i's width unwrapped.
func (f *fitting) natural(i int) int { return max(Len(f.header(i)), f.cell[i]) }

// longestWord is the narrowest column i can wrap to.
func (f *fitting) longestWord(i int) int {
	if f.fold {
		return max(Len(f.header(i)), f.folded[i])
	}
	return max(Len(f.header(i)), f.word[i])
}

// total is the width of the kept columns (each no wider than its text) with
// the indent and the gaps.
func (f *fitting) total() int {
	s, k := Len(f.t.Indent), 0
	f.steps += len(f.widths)
	for i := range f.widths {
		if f.keep[i] {
			f.widths[i] = min(f.widths[i], f.natural(i))
			s += f.widths[i]
			k++
		}
	}
	return s + 2*max(k-1, 0)
}

func (f *fitting) reset() {
	for i := range f.widths {
		f.widths[i] = f.natural(i)
	}
}

// fitsWrapped tells whether the table would fit with every wrapping column
// narrowed to its floor.
func (f *fitting) fitsWrapped() bool {
	saved := slices.Clone(f.widths)
	f.steps += len(f.widths)
	for i, c := range f.t.Columns {
		if f.keep[i] && c.Wrap {
			f.widths[i] = min(f.widths[i], max(f.longestWord(i), comfortable))
		}
	}
	ok := f.total() <= f.width
	copy(f.widths, saved)
	return ok
}

// shortenHeaders switches to short headers, the largest saving first, while
// even wrapping could not fit.
func (f *fitting) shortenHeaders() {
	for !f.fitsWrapped() {
		best, saving := -1, 0
		f.steps += len(f.widths)
		for i, c := range f.t.Columns {
			if f.keep[i] && !f.short[i] && c.Short != "" && Len(c.Header)-Len(c.Short) > saving {
				best, saving = i, Len(c.Header)-Len(c.Short)
			}
		}
		if best < 0 {
			return
		}
		f.short[best] = true
		f.reset()
	}
}

// dropColumns leaves out droppable columns, the highest Drop first, while
// even wrapping could not fit, and returns their headers.
func (f *fitting) dropColumns() []string {
	var dropped []string
	for f.total() > f.width && !f.fitsWrapped() {
		best := -1
		f.steps += len(f.widths)
		for i, c := range f.t.Columns {
			if f.keep[i] && c.Drop > 0 && (best < 0 || c.Drop > f.t.Columns[best].Drop) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		f.keep[best] = false
		dropped = append(dropped, f.t.Columns[best].Header)
	}
	return dropped
}

// narrowWrapping narrows the widest wrapping columns that can still narrow,
// together, so that they share the narrowing, until the table fits: the
// widest come down to the next width in one step (or to where the table
// fits), so the steps are at most the number of columns.
func (f *fitting) narrowWrapping() {
	for over := f.total() - f.width; over > 0; over = f.total() - f.width {
		top, next, count := 0, 0, 0
		f.steps += len(f.widths)
		for i, c := range f.t.Columns {
			if !f.keep[i] || !c.Wrap {
				continue
			}
			floor := f.longestWord(i)
			switch w := f.widths[i]; {
			case w <= floor: // cannot narrow, and stops none
			case w > top:
				next, top, count = max(next, top, floor), w, 1
			case w == top:
				count++
				next = max(next, floor)
			default:
				next = max(next, w, floor)
			}
		}
		if count == 0 {
			return
		}
		f.narrowTop(top, next, count, over)
	}
}

// narrowTop narrows the count wrapping columns of width top, the leftmost
// first, by as much as the table is over (over) but no lower than next.
func (f *fitting) narrowTop(top, next, count, over int) {
	step := min(top-next, over/count)
	extra := 0
	f.steps += len(f.widths)
	if step < top-next {
		extra = over - step*count // columns narrowed one more, leftmost first
	}
	for i, c := range f.t.Columns {
		if !f.keep[i] || !c.Wrap || f.widths[i] != top || f.widths[i] <= f.longestWord(i) {
			continue
		}
		f.widths[i] = top - step
		if extra > 0 {
			f.widths[i]--
			extra--
		}
	}
}

func (t *Table) writeRows(w io.Writer, keep, short []bool, widths []int) {
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		header[i] = c.Header
		if short[i] && c.Short != "" {
			header[i] = c.Short
		}
	}
	for _, r := range append([][]string{header}, t.rows...) {
		cells := make([][]string, len(r))
		lines := 1
		for i, c := range r {
			if !keep[i] {
				continue
			}
			if Len(c) > widths[i] {
				cells[i] = Wrap(c, widths[i], "", "")
			} else {
				cells[i] = []string{c}
			}
			lines = max(lines, len(cells[i]))
		}
		for l := 0; l < lines; l++ {
			var b strings.Builder
			b.WriteString(t.Indent)
			first := true
			for i := range r {
				if !keep[i] {
					continue
				}
				if !first {
					b.WriteString("  ")
				}
				first = false
				c := ""
				if l < len(cells[i]) {
					c = cells[i][l]
				}
				pad := strings.Repeat(" ", widths[i]-Len(c))
				if t.Columns[i].Right {
					b.WriteString(pad + c)
				} else {
					b.WriteString(c + pad)
				}
			}
			fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		}
	}
}

// writeRecords writes each row as "header: value" lines, for a width too
// narrow for any table.
func (t *Table) writeRecords(w io.Writer, width int) {
	for k, r := range t.rows {
		if k > 0 {
			fmt.Fprintln(w)
		}
		for i, c := range r {
			if c == "" {
				continue
			}
			WriteWrapped(w, t.Columns[i].Header+": "+c, width, t.Indent, t.Indent+"  ")
		}
	}
}

func (t *Table) writeNotes(w io.Writer, width int) {
	if len(t.notes) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, t.Indent+"notes:")
	digits := len(strconv.Itoa(len(t.notes)))
	for i, n := range t.notes {
		num := fmt.Sprintf("%s  [%*d] ", t.Indent, digits, i+1)
		WriteWrapped(w, n, width, num, strings.Repeat(" ", Len(num)))
	}
}
