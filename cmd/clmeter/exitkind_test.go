package main

import (
	"errors"
	"slices"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/fail"
)

// TestExitFromKindNotText: the exit status comes from the error's kind
// (package fail), never from its words: a failure whose message reads like
// a flag error (a name from a file, a driver's log) exits 1, and a usage
// error in plain words exits 2.
func TestExitFromKindNotText(t *testing.T) {
	saved := slices.Clone(commands)
	defer func() { commands = saved }()
	errCmd := func(name string, err error) *cli.Command {
		return &cli.Command{Name: name, Hidden: true, Action: func(*cli.Context) error { return err }}
	}
	commands = append(commands,
		errCmd("x-looks-like-usage", errors.New(`invalid value "nan" in the output of "Required flag.cl"`)),
		errCmd("x-flag-words", errors.New("flag provided but not defined: by the kernel's log")),
		errCmd("x-usage", fail.With(fail.Usage, errors.New("plain words"))),
		errCmd("x-help-words", errors.New("No help topic for 'x'")))
	for cmd, want := range map[string]int{"x-looks-like-usage": exitError, "x-flag-words": exitError, "x-usage": exitUsage, "x-help-words": exitError} {
		if code, _, errs := clm(t, cmd); code != want {
			t.Errorf("%s: exit %d, want %d (%s)", cmd, code, want, errs)
		}
	}
}
