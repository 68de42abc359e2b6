package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

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

// TestEveryOutputFitsTheWidth: at 80 and 120 columns (COLUMNS) every help
// text and the tables of devices, doctor, report, compare, store, history,
// profile, cache and a suite keep their lines within the width and never
// part a number from its unit.
func TestEveryOutputFitsTheWidth(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	t.Setenv("CLMETER_PROFILE_DIR", filepath.Join(dir, "profiles"))
	t.Setenv(cache.DirEnv, filepath.Join(dir, "cache"))
	fixtures := filepath.Join("..", "..", "results", "testdata")
	quick, pocl, h200 := filepath.Join(fixtures, "pocl-quick.json"), filepath.Join(fixtures, "pocl.json"), filepath.Join(fixtures, "h200.json")
	db := filepath.Join(dir, "store.db")
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
	runs = append(runs, []string{"devices"}, []string{"doctor"}, []string{"report", quick}, []string{"report", pocl, h200},
		[]string{"compare", pocl, pocl}, []string{"compare", "--ignore-device", pocl, h200},
		[]string{"store", "add", "--store", db, quick, pocl, h200}, []string{"history", "--store", db},
		append([]string{"suite", "launch", "-o", filepath.Join(dir, "launch.json")}, fast...),
		[]string{"profile", "show"}, []string{"cache", "list"}, []string{"cache", "verify"},
		append([]string{"run", "saxpy"}, fast...))
	for _, width := range []int{80, 120} {
		t.Setenv("COLUMNS", strconv.Itoa(width))
		for _, args := range runs {
			code, out, errs := clm(t, args...)
			if code != 0 {
				t.Errorf("COLUMNS=%d clmeter %s: exit %d\n%s", width, strings.Join(args, " "), code, errs)
				continue
			}
			for _, p := range widthProblems(out+errs, width) {
				t.Errorf("COLUMNS=%d clmeter %s: %s", width, strings.Join(args, " "), p)
			}
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
