package main

import (
	"context"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/runtime/icd"
)

func init() {
	register(&cli.Command{
		Name:   "enumerate-child",
		Hidden: true,
		Usage:  "list the OpenCL platforms and print their count (a child process of the vendor file check)",
		Action: func(c *cli.Context) error { return icd.EnumerateChild(c.App.Writer) },
	})
}

// enumerateChildCommand reruns this clmeter to list the platforms in a child
// process (icd.CheckEnumeration); nil when the executable cannot be found.
func enumerateChildCommand() []string {
	exe, err := os.Executable()
	if err != nil || rerunOff {
		return nil
	}
	return append(append([]string{exe}, rerunPrefix...), "enumerate-child")
}

// enumerating are the commands (and subcommands) that list OpenCL platforms
// in this process: compare only with --interleave; check's children have
// their own vendor folder; doctor checks the vendor files itself, in its
// report.
var enumerating = map[string][]string{
	"devices": nil, "run": nil, "suite": nil, "compare": {"--interleave"}, "trace": nil, "tune": nil,
	"profile": nil, "cache": {"verify", "bench"},
}

// guardEnumeration runs icd.CheckEnumeration before a command that lists the
// OpenCL platforms, so that a vendor file the loader crashes on is one line
// (exit status 4), not a crash. args are the command line, the program first.
func guardEnumeration(ctx context.Context, args []string) error {
	if len(args) < 2 || slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		return nil
	}
	subs, ok := enumerating[args[1]]
	if !ok || (subs != nil && !slices.ContainsFunc(args[2:], func(a string) bool { return slices.Contains(subs, a) })) {
		return nil
	}
	if err := icd.CheckEnumeration(ctx, enumerateChildCommand()); err != nil {
		return fail.With(fail.NoDevice, err)
	}
	return nil
}
