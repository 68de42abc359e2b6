package table

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/testseed"
)

// fuzzTable builds a table from a fuzz input: cells are text's lines, row by
// row, in ncols columns whose kinds come from the bits of kinds; a note is
// added for every fourth cell. Control characters become spaces (a cell's
// text is shown as given; escaping is not the layout's job). With big set,
// text is repeated to 64 KiB first, so that layout's cost per byte shows.
func fuzzTable(text string, ncols, kinds uint8, big bool) *Table {
	n := int(ncols%6) + 1
	cols := make([]Column, n)
	for i := range cols {
		k := kinds >> (i % 8)
		cols[i] = Column{Header: fmt.Sprintf("COLUMN-%d", i), Wrap: k&1 != 0, Right: k&2 != 0}
		if k&4 != 0 {
			cols[i].Short = fmt.Sprintf("C%d", i)
		}
		if i > 0 && k&8 != 0 {
			cols[i].Drop = i
		}
	}
	text = strings.Map(func(r rune) rune {
		if r < ' ' && r != '\n' || r == 0x7f {
			return ' '
		}
		return r
	}, text)
	if big && len(text) > 0 {
		text = strings.Repeat(text+" ", 64<<10/(len(text)+1)+1)
	}
	t := New(cols...)
	t.Indent = strings.Repeat(" ", int(kinds>>6))
	cells := strings.Split(text, "\n")
	for i := 0; i < len(cells); i += n {
		t.Row(cells[i:min(i+n, len(cells))]...)
		if i%4 == 0 {
			t.Note(cells[i])
		}
	}
	return t
}

// narrowOneByOne is the fitting's narrowing as it was, one column a column at
// a time (quadratic in a cell's width): the reference narrowWrapping's widths
// must equal.
func narrowOneByOne(f *fitting) {
	for f.total() > f.width {
		best := -1
		for i, c := range f.t.Columns {
			if f.keep[i] && c.Wrap && f.widths[i] > f.longestWord(i) && (best < 0 || f.widths[i] > f.widths[best]) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		f.widths[best]--
	}
}

// noteNumber is a note's number at the start of its first line.
var noteNumber = regexp.MustCompile(`^ *\[ *[0-9]+\] `)

// fuzzing tells whether the test binary runs a fuzz target (-test.fuzz).
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// checkLayout writes t at width and checks the layout's invariants: no line
// wider than width but one holding a single word too long for any line (and
// a note's number); every word of a column never dropped, and of every
// note, in the output, whole; the widths the one-by-one narrowing gives; and
// a bound on the work: steps linear in the cells' bytes (and, while fuzzing,
// a generous time a byte).
func checkLayout(t *testing.T, tb *Table, width int) {
	t.Helper()
	var out bytes.Buffer
	start := time.Now()
	steps := tb.write(&out, width)
	took := time.Since(start)
	in := 0
	for _, r := range tb.rows {
		for _, c := range r {
			in += len(c)
		}
	}
	if n := len(tb.Columns) + 1; steps > 4*in+16*n*n+64 {
		t.Errorf("%d steps for %d bytes in %d columns: more than linear", steps, in, len(tb.Columns))
	}
	if per := 50 * time.Microsecond; fuzzing() && took > 100*time.Millisecond+per*time.Duration(in+out.Len()) {
		t.Errorf("layout of %d bytes (%d out) took %s: more than %s a byte", in, out.Len(), took, per)
	}
	fields := map[string]bool{}
	for _, line := range strings.Split(out.String(), "\n") {
		fs := strings.Fields(line)
		for _, w := range fs {
			fields[w] = true
		}
		if Len(line) > width && len(strings.Fields(noteNumber.ReplaceAllString(line, ""))) > 1 {
			t.Errorf("line wider than %d with more than one word: %q", width, line)
		}
	}
	for _, r := range tb.rows {
		for i, c := range r {
			for _, w := range strings.Fields(c) {
				if tb.Columns[i].Drop == 0 && !fields[w] {
					t.Fatalf("word %q of column %d is not in the output, whole:\n%s", w, i, out.String())
				}
			}
		}
	}
	for _, n := range tb.notes {
		for _, w := range strings.Fields(n) {
			if !fields[w] {
				t.Fatalf("word %q of a note is not in the output, whole", w)
			}
		}
	}
	if in <= 8<<10 {
		a, b := newFitting(tb, width), newFitting(tb, width)
		for _, f := range []*fitting{a, b} {
			f.shortenHeaders()
			f.dropColumns()
		}
		a.narrowWrapping()
		narrowOneByOne(b)
		if !slices.Equal(a.widths, b.widths) {
			t.Errorf("width %d: narrowing gives widths %v, one column at a time %v", width, a.widths, b.widths)
		}
	}
}

// FuzzLayout lays out tables made from the input (fuzzTable) and checks the
// layout's invariants and its bound on work (checkLayout).
func FuzzLayout(f *testing.F) {
	f.Add("name\tsize=1Mi type=float\nsaxpy\tsize=16Mi type=double local=256 a=1 b=2 c=3\n", uint8(2), uint8(0x05), uint16(60), false)
	f.Add("a\nb b b b b b b b b b b b b b b b b\nc\nd\ne e e e e e e e e e e e\nf", uint8(3), uint8(0x77), uint16(40), false)
	f.Add("k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v k=v", uint8(0), uint8(0x01), uint16(80), true)
	f.Add("averyveryveryveryveryverylongword x\ny\nz", uint8(1), uint8(0xff), uint16(20), false)
	f.Add("ü é 日本語 ∑\n\xff\xfe bytes", uint8(4), uint8(0x0f), uint16(25), false)
	f.Fuzz(func(t *testing.T, text string, ncols, kinds uint8, width uint16, big bool) {
		checkLayout(t, fuzzTable(text, ncols, kinds, big), int(width%400)+20)
	})
}

// TestLayoutMatchesOneByOne: on random tables (the seed is logged; set
// CLMETER_TEST_SEED to replay one) the narrowing gives the widths of the
// one-column-at-a-time narrowing it replaced, and the layout's invariants
// hold.
func TestLayoutMatchesOneByOne(t *testing.T) {
	seed := testseed.Seed(t)
	rng := rand.New(rand.NewPCG(seed, 0))
	words := []string{"a", "bb", "size=16Mi", "type=float", "local=256", "x", "averyveryverylongwordindeed", "日本", "k=v"}
	for range 300 {
		var b strings.Builder
		for range rng.IntN(200) {
			b.WriteString(words[rng.IntN(len(words))])
			switch rng.IntN(6) {
			case 0:
				b.WriteByte('\n')
			default:
				b.WriteByte(' ')
			}
		}
		tb := fuzzTable(b.String(), uint8(rng.IntN(6)), uint8(rng.IntN(256)), false)
		checkLayout(t, tb, 20+rng.IntN(200))
	}
}

// wordsTable is a table of one row whose wrapping cell is n words, as a
// result file's parameters or a history label of n words make.
func wordsTable(n int) *Table {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "p%d=%d ", i, i*7)
	}
	tb := New(Column{Header: "BENCHMARK"}, Column{Header: "PARAMETERS", Wrap: true}, Column{Header: "MEDIAN", Right: true})
	tb.Row("saxpy", b.String(), "1.25 ms")
	return tb
}

// BenchmarkLayoutWords lays out one cell of 10,000 and of 50,000 words at
// width 100: the time grows with the words, linearly (docs/MEASURING.md
// quotes figures).
func BenchmarkLayoutWords(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		tb := wordsTable(n)
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			var out bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				tb.Write(&out, 100)
			}
			b.SetBytes(int64(len(tb.rows[0][1])))
		})
	}
}
