package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

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
