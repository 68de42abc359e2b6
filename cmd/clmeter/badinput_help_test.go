package main

// helpRows are issue 48's commands that help: a mistyped command, suite,
// built-in kernel or flag is answered on one line with the nearest name.
func helpRows(badFixtures) []badInput {
	const u = exitUsage
	return []badInput{
		{name: "did you mean a command", args: []string{"sutie"}, code: u, want: []string{`"sutie" is not a clmeter command; did you mean 'suite'?`}},
		{name: "did you mean a subcommand", args: []string{"cache", "verfy"}, code: u, want: []string{`did you mean 'verify'?`}},
		{name: "did you mean a suite", args: []string{"suite", "quik"}, code: u, want: []string{`no suite "quik": did you mean 'quick'?`}},
		{name: "did you mean a kernel", args: []string{"run", "triadd"}, code: u, want: []string{`unknown kernel "triadd": did you mean 'triad'?`}},
		{name: "did you mean a flag", args: []string{"run", "saxpy", "--max-tim", "1s"}, code: u, want: []string{`'clmeter run' has no flag --max-tim; did you mean '--max-time'?`}},
		{name: "did you mean a top-level flag", args: []string{"--verison"}, code: u, want: []string{`did you mean '--version'?`}},
		{name: "unknown flag far from all", args: []string{"run", "saxpy", "--zzzzzz"}, code: u, want: []string{`'clmeter run' has no flag --zzzzzz; it takes --device`, " more (see 'clmeter run --help')"}},
		// The help rows run in a child: urfave/cli's help command is one
		// value shared by every command, and running it in this process
		// leaves it among its own subcommands, so that a later in-process
		// fish completion recursed until the stack overflowed (one command a
		// process, as clmeter runs, never meets it).
		{name: "help of a mistyped command", args: []string{"help", "sutie"}, code: u, limited: true, want: []string{`"sutie" is not a clmeter command; did you mean 'suite'?`}},
		{name: "help of no subcommand", args: []string{"cache", "help", "verfy"}, code: u, limited: true, want: []string{`no help topic "verfy" (see 'clmeter cache --help')`}},
		// A filter that matches nothing lists the suite's names and leaves no -o file.
		{name: "suite filter matches nothing", args: []string{"suite", "launch", "--filter", "nomatch"}, code: u, want: []string{`--filter "nomatch" matches none of suite launch: launch/dispatch, launch/round-trip`}, device: true},
	}
}
