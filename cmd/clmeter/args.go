package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves flags that follow positional arguments in front of them, so
// that 'clmeter run saxpy --size 16Mi' works as users expect (urfave/cli/v2 stops
// reading flags at the first positional argument). A "--" ends the flags: what
// follows stays positional.
func interspersed(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	// Shell completion asks with a last --generate-bash-completion, which
	// must stay last.
	if last := args[len(args)-1]; last == "--generate-bash-completion" {
		return append(interspersed(app, args[:len(args)-1]), last)
	}
	out := []string{args[0]}
	rest := args[1:]
	cmds := app.Commands
	var cmd *cli.Command
	// Walk the command path: global flags, then command names, then subcommand
	// names (flags between a command and its subcommand are not supported).
	for len(rest) > 0 {
		tok := rest[0]
		if cmd == nil && strings.HasPrefix(tok, "-") {
			out = append(out, tok)
			rest = rest[1:]
			continue
		}
		next := findCommand(cmds, tok)
		if next == nil {
			break
		}
		cmd = next
		out = append(out, tok)
		rest = rest[1:]
		cmds = cmd.Subcommands
	}
	if cmd == nil {
		return args
	}
	var flags, positional []string
	for i := 0; i < len(rest); i++ {
		tok := rest[i]
		if tok == "--" {
			positional = append(positional, rest[i:]...)
			break
		}
		if !strings.HasPrefix(tok, "-") || tok == "-" {
			positional = append(positional, tok)
			continue
		}
		flags = append(flags, tok)
		name := strings.TrimLeft(tok, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue(cmd, name) && i+1 < len(rest) {
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out = append(out, flags...)
	return append(out, positional...)
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether the command's flag of that name takes a value (an
// unknown flag is assumed to take none; the parser will then reject it).
func takesValue(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if dg, ok := f.(cli.DocGenerationFlag); ok {
				return dg.TakesValue()
			}
			return true
		}
	}
	return false
}
