package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/runner"
)

// flagChoices are the values a flag takes, for completion (formatFlag
// records each --format's; filled while the commands are declared).
var flagChoices = map[*cli.StringFlag][]string{}

// argChoices are the words a command's first argument may be, for
// completion: suite names, built-in kernels (a file completes as the shell
// does when none of them matches).
func argChoices(command string) []string {
	switch command {
	case "suite":
		return runner.SuiteChoices()
	case "run", "check", "trace":
		return clkernels.Names()
	}
	return nil
}

// hasSubcommands tells whether cmd has subcommands of its own (urfave adds
// a help command to every command it runs).
func hasSubcommands(cmd *cli.Command) bool {
	for _, s := range cmd.Subcommands {
		if s.Name != "help" {
			return true
		}
	}
	return false
}

// completer is cmd's --generate-bash-completion answer: after a flag with
// choices, its values; after another flag, the flags (urfave's default);
// else the subcommands, or the words of its first argument.
func completer(cmd *cli.Command) cli.BashCompleteFunc {
	return func(c *cli.Context) {
		last := ""
		if len(os.Args) > 2 {
			last = os.Args[len(os.Args)-2]
		}
		if name, ok := strings.CutPrefix(last, "--"); ok {
			for _, f := range cmd.Flags {
				if sf, ok := f.(*cli.StringFlag); ok && sf.Name == name && flagChoices[sf] != nil {
					fmt.Fprintln(c.App.Writer, strings.Join(flagChoices[sf], "\n"))
					return
				}
			}
		}
		if strings.HasPrefix(last, "-") || hasSubcommands(cmd) {
			cli.DefaultCompleteWithFlags(cmd)(c)
			return
		}
		if c.NArg() > 0 {
			return // the first argument is given: files, as the shell completes them
		}
		if words := argChoices(cmd.Name); len(words) > 0 {
			fmt.Fprintln(c.App.Writer, strings.Join(words, "\n"))
		}
	}
}

// bashCompletion asks clmeter itself for the words that may follow (urfave/cli's
// --generate-bash-completion), so it always matches this build's commands and flags.
const bashCompletion = `# clmeter completion for bash: source <(clmeter completion bash)
_clmeter_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  if [[ "$cur" == -* ]]; then
    words=$("${COMP_WORDS[0]}" "${COMP_WORDS[@]:1:$COMP_CWORD-1}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    words=$("${COMP_WORDS[0]}" "${COMP_WORDS[@]:1:$COMP_CWORD-1}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "${words}" -- "${cur}"))
}
complete -o bashdefault -o default -F _clmeter_complete clmeter
`

const zshCompletion = `#compdef clmeter
# clmeter completion for zsh: clmeter completion zsh > "${fpath[1]}/_clmeter"
_clmeter() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[1]} ${words[@]:1:#words[@]-2} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[1]} ${words[@]:1:#words[@]-2} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _clmeter clmeter
`

// completionShells are the shells 'clmeter completion' writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

func init() {
	register(&cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "SHELL",
		Description: "Examples:\n" +
			"     source <(clmeter completion bash)                 # bash, this shell\n" +
			"     clmeter completion zsh > \"${fpath[1]}/_clmeter\"   # zsh\n" +
			"     clmeter completion fish > ~/.config/fish/completions/clmeter.fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("'clmeter completion' takes one shell: %s", strings.Join(completionShells, ", "))
			}
			switch c.Args().First() {
			case "bash":
				_, err := fmt.Fprint(c.App.Writer, bashCompletion)
				return err
			case "zsh":
				_, err := fmt.Fprint(c.App.Writer, zshCompletion)
				return err
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(c.App.Writer, s)
				return err
			}
			return usageErr("%q is not a shell clmeter completes; the shells are %s", c.Args().First(), strings.Join(completionShells, ", "))
		},
	})
	register(&cli.Command{
		Name:  "man",
		Usage: "print clmeter's manual page (roff), made from the commands' own help",
		Description: "Example:\n" +
			"     clmeter man > clmeter.1 && man ./clmeter.1",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			s, err := c.App.ToManWithSection(1)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, s)
			return err
		},
	})
}
