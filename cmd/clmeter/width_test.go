package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/table"
)

// widthUnits are the units a number must never be parted from by a line
// break (a number ending one line, its unit starting the next).
var widthUnits = regexp.MustCompile(`^(ns|µs|ms|s|B|KiB|MiB|GiB|[kMGT]?B/s|[kMGT]?FLOP/s|[kMGT]?OP/s|[kM]?launches/s|samples?|launches)\b`)

// widthNumber is a number at the end of a line.
var widthNumber = regexp.MustCompile(`(^|\s)[-+±~]?[0-9][0-9.,]*$`)

// widthProblems are the lines of out longer than width (but for a word
// longer than a line, alone on its line), and the numbers parted from their
// units.
func widthProblems(out string, width int) []string {
	var bad []string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		// A word longer than a line (a path) stands alone on its line.
		if n := table.Len(l); n > width && len(strings.Fields(l)) > 1 {
			bad = append(bad, "a line of "+strconv.Itoa(n)+": "+l)
		}
		if i+1 < len(lines) && widthNumber.MatchString(strings.TrimRight(l, " ")) &&
			widthUnits.MatchString(strings.TrimSpace(lines[i+1])) {
			bad = append(bad, "a number parted from its unit: "+l+" / "+strings.TrimSpace(lines[i+1]))
		}
	}
	return bad
}

// wordAt is a word of a line and the column it starts at.
type wordAt struct {
	word string
	col  int
}

// lineWords are the words of l (runs of non-spaces) with their columns.
func lineWords(l string) []wordAt {
	var ws []wordAt
	col, start := 0, -1
	var cur strings.Builder
	for _, r := range l + " " {
		if r == ' ' || r == '\t' {
			if start >= 0 {
				ws = append(ws, wordAt{cur.String(), start})
				cur.Reset()
				start = -1
			}
		} else {
			if start < 0 {
				start = col
			}
			cur.WriteRune(r)
		}
		col++
	}
	return ws
}

// brokenWords are the words of ref (the same output where its words are
// whole) that screen shows broken over two rows: a piece ending one row and
// the rest starting the next (at the row's start, or under the piece, in a
// table's column), that are not both words of ref themselves. A word that
// is longer than width, or folds after a "/" or "-" (a name's parts), may;
// a word without a letter is left out (a column of numbers, "1" above "2",
// is not "12" broken).
func brokenWords(screen, ref string, width int) []string {
	whole := map[string]bool{}
	for _, w := range strings.Fields(ref) {
		whole[w] = true
	}
	var bad []string
	rows := strings.Split(screen, "\n")
	for i := 0; i+1 < len(rows); i++ {
		this, next := lineWords(rows[i]), lineWords(rows[i+1])
		if len(this) == 0 || len(next) == 0 {
			continue
		}
		for j, a := range this {
			for k, b := range next {
				if !(b.col == a.col || (k == 0 && j == len(this)-1)) {
					continue
				}
				w := a.word + b.word
				if !whole[w] || (whole[a.word] && whole[b.word]) || table.Len(w) > width || !hasLetter(w) ||
					strings.HasSuffix(a.word, "/") || strings.HasSuffix(a.word, "-") {
					continue
				}
				bad = append(bad, fmt.Sprintf("a word broken: %q / %q", a.word, b.word))
			}
		}
	}
	return bad
}

// hasLetter tells whether w has a letter in it.
func hasLetter(w string) bool { return strings.IndexFunc(w, unicode.IsLetter) >= 0 }

// widthRuns are the commands TestEveryOutputFitsTheWidth runs: every help
// text and the main commands on the fixtures, stores in dir.
func widthRuns(t *testing.T, dir string) [][]string {
	fixtures := filepath.Join("..", "..", "results", "testdata")
	quick, pocl, h200 := filepath.Join(fixtures, "pocl-quick.json"), filepath.Join(fixtures, "pocl.json"), filepath.Join(fixtures, "h200.json")
	db, fleet := filepath.Join(dir, "store.db"), fleetStore(t, dir)
	runs := [][]string{{"--help"}}
	for _, c := range commands {
		if c.Hidden {
			continue
		}
		runs = append(runs, []string{c.Name, "--help"})
		for _, s := range c.Subcommands {
			if s.Name != "help" {
				runs = append(runs, []string{c.Name, s.Name, "--help"})
			}
		}
	}
	return append(runs, []string{"devices"}, []string{"doctor"}, []string{"report", quick}, []string{"report", pocl, h200},
		[]string{"compare", pocl, pocl}, []string{"compare", "--ignore-device", pocl, h200},
		[]string{"store", "add", "--store", db, quick, pocl, h200}, []string{"history", "--store", db},
		append([]string{"suite", "launch", "-o", filepath.Join(dir, "launch.json")}, fast...),
		[]string{"fleet", "view", "--store", fleet, "acc"}, []string{"fleet", "status", "--store", fleet, "acc"},
		[]string{"profile", "show"}, []string{"cache", "list"}, []string{"cache", "verify"},
		append([]string{"run", "saxpy", "--size", "64Ki,1Mi"}, fast...))
}

// TestEveryOutputFitsTheWidth: every help text and the tables of devices,
// doctor, report, compare, store, history, profile, cache, a suite and a run,
// shown in tmux panes of 80 and 120 columns and piped (100 columns), keep
// their lines within the width, break no word over two rows and never part
// a number from its unit. Whole words are those of the output at
// COLUMNS=1000. The commands run one after another in one tmux server.
func TestEveryOutputFitsTheWidth(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	t.Setenv("CLMETER_PROFILE_DIR", filepath.Join(dir, "profiles"))
	t.Setenv(cache.DirEnv, filepath.Join(dir, "cache"))
	// A test before this one may have run with CLMETER_CACHE_MAX_SIZE set:
	// urfave/cli keeps a flag's value from its variable in the flag, which
	// in-process runs share.
	t.Setenv(cache.MaxSizeEnv, "512MiB")
	env := noTerminalEnv()
	tm := startTmux(t, env, 80, 120)
	for _, args := range widthRuns(t, dir) {
		name := "clmeter " + strings.Join(args, " ")
		t.Setenv("COLUMNS", "1000")
		code, out, errs := clm(t, args...)
		ref := out + errs
		if code != 0 {
			t.Errorf("COLUMNS=1000 %s: exit %d\n%s", name, code, errs)
			continue
		}
		for _, width := range []int{80, 120} {
			screen, joined, code, err := tm.paneRun(width, args)
			if err != nil || code != 0 {
				t.Errorf("a pane of %d: %s: exit %d %v\n%s", width, name, code, err, joined)
				continue
			}
			// The lines as written (too long?) and the rows as shown (a
			// word or a number's unit parted by the terminal's wrap).
			seen := map[string]bool{}
			for _, p := range append(widthProblems(joined, width), append(brokenWords(screen, ref, width), widthProblems(screen, width)...)...) {
				if !seen[p] {
					seen[p] = true
					t.Errorf("a pane of %d: %s: %s", width, name, p)
				}
			}
		}
		out, code, err := pipedRun(tm.exe, env, args)
		if err != nil || code != 0 {
			t.Errorf("piped: %s: exit %d %v\n%s", name, code, err, out)
			continue
		}
		for _, p := range append(widthProblems(out, 100), brokenWords(out, ref, 100)...) {
			t.Errorf("piped (100 columns): %s: %s", name, p)
		}
	}
}

// TestWidthProblemsFound: the check finds a line too long and a number
// parted from its unit.
func TestWidthProblemsFound(t *testing.T) {
	if p := widthProblems("a "+strings.Repeat("x", 79), 80); len(p) != 1 {
		t.Errorf("a line of 81: %q", p)
	}
	if p := widthProblems("compute 17.3\nGFLOP/s", 80); len(p) != 1 {
		t.Errorf("17.3 / GFLOP/s: %q", p)
	}
	if p := widthProblems("compute 17.3 GFLOP/s\n12 ms", 80); len(p) != 0 {
		t.Errorf("a fitted text: %q", p)
	}
}

// TestBrokenWordsFound: the check finds a word broken at a row's end (a
// terminal's wrap) and in a table's column, and lets a name fold after "/".
func TestBrokenWordsFound(t *testing.T) {
	ref := "NAME DEVICE\nsaxpy pthread-skylake-avx512\npeaks/bandwidth/stride"
	if p := brokenWords("saxpy pthread-skylake-a\nvx512", ref, 80); len(p) != 1 {
		t.Errorf("a terminal's wrap: %q", p)
	}
	if p := brokenWords("saxpy  pthread-sky  12 ms\n       lake-avx512", ref, 80); len(p) != 1 {
		t.Errorf("a table's column: %q", p)
	}
	if p := brokenWords("saxpy  peaks/\n       bandwidth/stride", ref, 80); len(p) != 0 {
		t.Errorf("a name folded at its slash: %q", p)
	}
	if p := brokenWords("[ 1] 3 ms\n[ 2] 4 ms", ref+" 12", 80); len(p) != 0 {
		t.Errorf("a column of numbers: %q", p)
	}
	if p := brokenWords(ref, ref, 80); len(p) != 0 {
		t.Errorf("whole words: %q", p)
	}
}

// TestPaneChecksFail: a real output made wider than its pane (COLUMNS=200
// in a pane of 80) is found by the checks on what the pane shows: lines
// over the width and words the terminal broke.
func TestPaneChecksFail(t *testing.T) {
	fixtures := filepath.Join("..", "..", "results", "testdata")
	args := []string{"compare", "--ignore-device", filepath.Join(fixtures, "pocl.json"), filepath.Join(fixtures, "h200.json")}
	t.Setenv("COLUMNS", "1000")
	_, out, errs := clm(t, args...)
	tm := startTmux(t, append(noTerminalEnv(), "COLUMNS=200"), 80)
	screen, joined, code, err := tm.paneRun(80, args)
	if err != nil || code != 0 {
		t.Fatalf("exit %d %v\n%s", code, err, joined)
	}
	if len(widthProblems(joined, 80)) == 0 {
		t.Errorf("no line over 80 found in:\n%s", joined)
	}
	if p := brokenWords(screen, out+errs, 80); len(p) == 0 {
		t.Errorf("no broken word found in:\n%s", screen)
	} else {
		t.Logf("found %d, the first: %s", len(p), p[0])
	}
}
