package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/store"
)

// deviceFlag is the --device flag every command that reaches a device takes.
var deviceFlag = &cli.StringFlag{
	Name:    "device",
	Aliases: []string{"d"},
	Usage:   "devices to use: index (0), platform:device (1:0), name or vendor text (h200, pocl), gpu, cpu, accelerator, all; several joined with commas",
	EnvVars: []string{runtime.DeviceEnv},
}

// resultFormats are the --format choices of every command that prints
// results (run adds wide, report html and benchfmt).
var resultFormats = []string{"table", "json", "csv", "markdown", "md"}

// formatFlag makes a --format flag with the given choices, the first the default.
func formatFlag(choices ...string) *cli.StringFlag {
	f := &cli.StringFlag{
		Name:  "format",
		Value: choices[0],
		Usage: "output format: " + strings.Join(choices, ", "),
	}
	flagChoices[f] = choices
	return f
}

// checkFormat returns a usage error when the --format value is not a choice.
func checkFormat(c *cli.Context, choices ...string) (string, error) {
	f := strings.ToLower(c.String("format"))
	for _, ch := range choices {
		if f == ch {
			return f, nil
		}
	}
	return "", usageErr("--format %q is not one of: %s", c.String("format"), strings.Join(choices, ", "))
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// rerunPrefix goes between the executable and the arguments of a command that
// reruns itself in a child (the test binary running main needs "--");
// rerunOff keeps every command in its process (tests that run commands
// in-process, where the executable is the test binary).
var (
	rerunPrefix []string
	rerunOff    bool
)

// rerunCommand is the command line that runs this command again in a child
// process (runner's Child), nil when it cannot be made.
func rerunCommand(c *cli.Context) []string {
	args, _ := c.App.Metadata["args"].([]string)
	if rerunOff || len(args) == 0 {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return append(append([]string{exe}, rerunPrefix...), args[1:]...)
}

// recordedCommand is the command line a result file and the store record:
// this command's arguments with any store password taken out
// (store.RedactCommand), so that no secret is kept at rest.
func recordedCommand(c *cli.Context) []string {
	args, _ := c.App.Metadata["args"].([]string)
	if len(args) == 0 {
		args = os.Args
	}
	return store.RedactCommand(args)
}

// noArgs fails when a command that takes no arguments got some.
func noArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageErr("'clmeter %s' takes no arguments, got %q", fullName(c), c.Args().First())
	}
	return nil
}

// checkOutput checks the command's -o, when given, as its options are read,
// before any work: results.CheckWritable, the one check of every output.
func checkOutput(c *cli.Context) error {
	if o := c.String("output"); o != "" {
		return results.CheckWritable(o)
	}
	return nil
}

// sessionOptions reads the flags of a measuring command's session (--device,
// the cache flags, the child to rerun in) with its settings.
func sessionOptions(c *cli.Context, settings measure.Settings) runner.SessionOptions {
	return runner.SessionOptions{Device: c.String("device"), Settings: settings, Cache: cacheOptions(c), Child: rerunCommand(c)}
}

// outputOptions reads -o and describes the command in the result file; the
// caller checks --format against its own formats.
func outputOptions(c *cli.Context) runner.OutputOptions {
	return runner.OutputOptions{Output: c.String("output"), Tool: toolInfo(), Command: recordedCommand(c)}
}

// profileUse reads --no-profile and the profiles' folder.
func profileUse(c *cli.Context) runner.ProfileUse {
	return runner.ProfileUse{NoProfile: c.Bool("no-profile"), ProfileDir: env.profileDir()}
}
