// Command clmeter measures OpenCL kernels: it lists and diagnoses devices, runs
// built-in and user kernels with warm-up, batching and statistics, caches program
// binaries, and renders reports. Run 'clmeter --help' for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	goruntime "runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/check"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/atomicfile"
	"github.com/clmeter/clmeter/internal/drvthread"
	"github.com/clmeter/clmeter/internal/suggest"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/devsel"
	"github.com/clmeter/clmeter/runtime/icd"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/units"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit statuses, chosen here and nowhere else.
const (
	exitOK          = 0
	exitError       = 1   // the command failed (a clear one-line reason on stderr)
	exitUsage       = 2   // bad flags or arguments
	exitInvalid     = 3   // a result failed validation against its reference
	exitNoDevice    = 4   // no usable OpenCL device (doctor) or no OpenCL library
	exitRegression  = 5   // compare --fail-on-regression or history --ci found a regression
	exitOutlier     = 6   // suite, report or fleet view --fail-on-outlier: a device slower than its peers
	exitInterrupted = 130 // Ctrl-C: finished results were kept
)

// envHelp lists every CLMETER_* variable a user may set.
const envHelp = `ENVIRONMENT:
   CLMETER_DEVICE          the --device of every command (same grammar)
   CLMETER_STORE           the results store of --store (a SQLite file or a postgres:// URL)
   CLMETER_CACHE_DIR       the program binary cache's folder (default: the user cache folder)
   CLMETER_CACHE_MAX_SIZE  the cache's bound, e.g. 512MiB
   CLMETER_NO_CACHE        1 builds every program from source
   CLMETER_CACHE           1 turns the binary cache on for every driver, also where its policy leaves it off
   CLMETER_CACHE_DEBUG     1 prints one line per cache event on stderr
   CLMETER_CACHE_STORE_WAIT  1 waits for the cache's store of a miss before exiting (scripts that time the next run, tests)
   CLMETER_PROFILE_DIR     where device profiles (rooflines) are kept (default: the user cache folder)
   CLMETER_OPENCL_LIB      the OpenCL library to load instead of the system's libOpenCL
   CLMETER_OCLGRIND_ICD    Oclgrind's ICD library, for check and --device oclgrind
   CLMETER_FLEET_RUN       the --fleet-run of suite and run (the fleet run a scheduler's task belongs to)
   CLMETER_K8S_JOB, CLMETER_K8S_POD, CLMETER_K8S_NODE, CLMETER_K8S_NAMESPACE, CLMETER_K8S_INDEX_FAILURES
                           a Kubernetes pod's job, pod, node, namespace and index failures, set from the
                           downward API by the manifest of 'clmeter fleet kubernetes' (docs/FLEET.md)
   COLUMNS                 the width tables fit (default: the terminal's, else 100)`

const exitHelp = `EXIT STATUS:
   0 success; 1 error; 2 bad usage; 3 a result failed validation or check found errors;
   4 no usable OpenCL device or library; 5 a regression (compare --fail-on-regression, history --ci);
   6 a device slower than its peers (suite, report or fleet view --fail-on-outlier); 130 interrupted (results finished so far are kept)`

// kindCodes maps the failure kinds of package fail to exit statuses.
var kindCodes = map[fail.Kind]int{
	fail.Usage:       exitUsage,
	fail.Invalid:     exitInvalid,
	fail.NoDevice:    exitNoDevice,
	fail.Regression:  exitRegression,
	fail.Interrupted: exitInterrupted,
	fail.Outlier:     exitOutlier,
}

// usageErr is a bad-usage error: exit status 2.
func usageErr(format string, a ...any) error { return fail.Usagef(format, a...) }

// toolInfo names this build of clmeter in result files.
func toolInfo() results.ToolInfo { return results.ToolInfo{Name: "clmeter", Version: version} }

var commands []*cli.Command

// register adds a command; each command's file registers itself in init.
func register(c *cli.Command) { commands = append(commands, c) }

func init() {
	// --version only: -v is --verbose where a command has it.
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version"}
}

func newApp(stdout, stderr io.Writer) *cli.App {
	sort.Slice(commands, func(i, j int) bool { return commands[i].Name < commands[j].Name })
	onUsage := func(c *cli.Context, err error, isSub bool) error {
		name := strings.TrimSpace("clmeter " + fullName(c))
		if bad, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
			flags := c.App.VisibleFlags()
			if c.Command != nil && c.Command.Name != "" {
				flags = c.Command.VisibleFlags()
			}
			return unknownFlag(name, bad, flags)
		}
		return usageErr("%v (see '%s --help')", err, name)
	}
	// A flag error is one line on stderr, not the whole help text; a word
	// that is no subcommand of a command with subcommands is bad usage,
	// answered with its subcommands.
	// Each command once: urfave adds its help command to a command's
	// subcommands when run ('cache help X'), and in a test's process the
	// next newApp meets that help command inside itself.
	seen := map[*cli.Command]bool{}
	var walk func([]*cli.Command)
	walk = func(cs []*cli.Command) {
		for _, c := range cs {
			if seen[c] {
				continue
			}
			seen[c] = true
			c.OnUsageError = onUsage
			// urfave prefixes HelpName with the app's at every run: a
			// process that builds the app again (a test) would repeat it.
			c.HelpName = ""
			if c.BashComplete == nil {
				c.BashComplete = completer(c)
			}
			if len(c.Subcommands) > 0 && c.Action == nil {
				c.Action = unknownSubcommand
			}
			walk(c.Subcommands)
		}
	}
	walk(commands)
	app := &cli.App{
		Name:    "clmeter",
		Usage:   "measure OpenCL kernels you can trust",
		Version: version,
		Description: "clmeter lists and diagnoses OpenCL devices, measures kernels with warm-up, " +
			"20 ms batched samples and statistics, caches program binaries, and renders reports.\n\n" +
			"   Devices are picked with --device (or CLMETER_DEVICE): an index (0), platform:device (1:0),\n" +
			"   a name or vendor substring (h200, pocl), a type (gpu, cpu, accelerator) or all.\n" +
			"   The default is the first GPU, else the first device.\n\n   " +
			"Results print as --format table (fitted to the terminal), json, csv or markdown (md).\n\n   " + envHelp + "\n\n   " + exitHelp,
		Commands:                  commands,
		DisableSliceFlagSeparator: true,
		Writer:                    stdout,
		ErrWriter:                 stderr,
		EnableBashCompletion:      true,
		// Errors are printed once, in main, as one line.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsage,
		// 'help WORD' for a WORD that is no command: recorded, for
		// helpTopicErr to answer as bad usage (urfave would exit 3).
		CommandNotFound: func(c *cli.Context, topic string) { c.App.Metadata[helpTopicKey] = topic },
		Metadata:        map[string]any{},
		// A word that is no command is bad usage, answered with the commands.
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			return unknownCommand(c.Args().First())
		},
	}
	return app
}

// fullName is the command path of c without the program: "cache verify".
func fullName(c *cli.Context) string {
	var names []string
	for _, l := range c.Lineage() {
		if l.Command != nil && l.Command.Name != l.App.Name && l.Command.Name != "" {
			names = append([]string{l.Command.Name}, names...)
		}
	}
	// The lineage repeats a command whose context was made twice (urfave
	// sets up a subcommand's own context); keep each name once in order.
	out := names[:0]
	for _, n := range names {
		if len(out) == 0 || out[len(out)-1] != n {
			out = append(out, n)
		}
	}
	return strings.Join(out, " ")
}

// unknownCommand is the usage error of a word that is no clmeter command
// (clmeter WORD, clmeter help WORD): the nearest commands, else them all.
func unknownCommand(word string) error {
	var names []string
	for _, cmd := range commands {
		if !cmd.Hidden {
			names = append(names, cmd.Name)
		}
	}
	if hint := suggest.DidYouMean(word, names); hint != "" {
		return usageErr("%q is not a clmeter command; %s (see 'clmeter --help')", word, hint)
	}
	return usageErr("%q is not a clmeter command; the commands are %s (see 'clmeter --help')", word, strings.Join(names, ", "))
}

// unknownSubcommand is the action of a command with subcommands (cache,
// store): its help without arguments, else a usage error that lists them.
func unknownSubcommand(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowSubcommandHelp(c)
	}
	var names []string
	for _, sc := range c.Command.Subcommands {
		if !sc.Hidden && sc.Name != "help" {
			names = append(names, sc.Name)
		}
	}
	word := c.Args().First()
	if hint := suggest.DidYouMean(word, names); hint != "" {
		return usageErr("%q is not a 'clmeter %s' subcommand; %s (see 'clmeter %s --help')", word, fullName(c), hint, fullName(c))
	}
	return usageErr("%q is not a 'clmeter %s' subcommand; they are %s (see 'clmeter %s --help')",
		word, fullName(c), strings.Join(names, ", "), fullName(c))
}

// unknownFlag is the usage error of a flag that command (its full name,
// "clmeter run") does not take: the flag as it was typed, with the nearest
// of the command's flags, else as many of them as fit on a line.
func unknownFlag(command, bad string, flags []cli.Flag) error {
	bad = strings.TrimLeft(bad, "-")
	dashed := func(n string) string {
		if len(n) == 1 {
			return "-" + n
		}
		return "--" + n
	}
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	near := suggest.Closest(bad, names)
	for i, n := range near {
		near[i] = dashed(n)
	}
	if hint := suggest.Phrase(near); hint != "" {
		return usageErr("'%s' has no flag %s; %s (see '%s --help')", command, dashed(bad), hint, command)
	}
	var first []string
	for _, f := range flags {
		first = append(first, dashed(f.Names()[0]))
	}
	return usageErr("'%s' has no flag %s; it takes %s (see '%s --help')", command, dashed(bad), suggest.Fit(first, 60), command)
}

// run runs clmeter with args and returns the exit status. Errors go to stderr as
// "clmeter: reason".
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if err := env.checkSwitches(); err != nil {
		fmt.Fprintf(stderr, "clmeter: %v\n", err)
		return exitUsage
	}
	stdout, writeErr := watchWrites(stdout)
	app := newApp(stdout, stderr)
	app.Metadata["args"] = args // for rerunCommand
	err := guardEnumeration(ctx, args)
	if err == nil {
		err = app.RunContext(ctx, interspersed(app, args))
	}
	if err == nil {
		err = helpTopicErr(app, args)
	}
	if werr := writeErr(); err == nil && werr != nil {
		err = fmt.Errorf("cannot write the output: %v", werr)
	}
	var st stopped
	if errors.As(err, &st) {
		// A command that runs until interrupted (serve) ended as asked.
		fmt.Fprintf(stderr, "clmeter: %s\n", st)
		return exitOK
	}
	if err == nil && ctx.Err() != nil {
		// The work was done when the interrupt came (during the end-of-run
		// store of the binary cache, which it skips, or the exit).
		fmt.Fprintln(stderr, "clmeter: interrupted after the work was done (its results are complete and kept)")
		return exitInterrupted
	}
	if err == nil {
		return exitOK
	}
	code := exitError
	var ce cli.ExitCoder
	switch {
	case errors.Is(err, devsel.ErrSpec): // a malformed --device, whoever wrapped it
		code = exitUsage
	case errors.Is(err, devsel.ErrNoMatch): // no usable device, whoever wrapped it
		code = exitNoDevice
	case fail.KindOf(err) != fail.Other:
		code = kindCodes[fail.KindOf(err)]
	case errors.Is(err, context.Canceled):
		code = exitInterrupted
	case errors.Is(err, check.ErrFindings):
		code = exitInvalid
	case errors.Is(err, runtime.ErrNoLibrary), errors.Is(err, runtime.ErrNoDevice), errors.Is(err, icd.ErrNoOclgrind):
		code = exitNoDevice
	case errors.As(err, &ce):
		code = ce.ExitCode()
	}
	msg := strings.TrimRight(err.Error(), "\n")
	if code == exitError && ctx.Done() != nil {
		// A compiler in the driver catches an interrupt first (LLVM removes
		// its files and raises the signal again), so the build can fail a
		// moment before the interrupt reaches ctx.
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	if ctx.Err() != nil && code != exitInterrupted {
		// The interrupt came first: what failed after it (a build whose
		// compiler removed its files on the signal) is its consequence.
		code = exitInterrupted
		msg, _, _ = strings.Cut(msg, "\n")
	}
	if code == exitInterrupted && !strings.Contains(msg, "interrupt") {
		msg = "interrupted: " + msg
	}
	fmt.Fprintf(stderr, "clmeter: %s\n", escapeLines(store.RedactText(msg)))
	return code
}

// helpTopicKey is the app's Metadata key of the WORD of a 'help WORD' that
// named no command.
const helpTopicKey = "helpTopic"

// helpTopicErr is the usage error of a 'help WORD' for a WORD that names no
// command (app.CommandNotFound recorded it): the nearest commands for
// 'clmeter help WORD'. Nil when there was none.
func helpTopicErr(app *cli.App, args []string) error {
	topic, ok := app.Metadata[helpTopicKey].(string)
	if !ok {
		return nil
	}
	if len(args) > 1 && args[1] == "help" {
		return unknownCommand(topic)
	}
	return usageErr("no help topic %q (see '%s --help')", topic, strings.Join(append([]string{"clmeter"}, args[1:max(len(args)-2, 1)]...), " "))
}

// escapeLines shows each line of an error message (its passwords already
// taken out by store.RedactText) through units.Escape: a
// name from a file or the store that a message quotes reaches the terminal
// escaped, while a message of several lines (a build log) keeps its lines.
func escapeLines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = units.Escape(l)
	}
	return strings.Join(lines, "\n")
}

// stopped is the end of a command that runs until it is interrupted (serve):
// its line, exit status 0.
type stopped string

func (s stopped) Error() string { return string(s) }

// The main goroutine stays on the process's main thread, which main makes the
// driver thread (drvthread.ServeMain): the driver is called from the thread a
// C program calls it from.
func init() { goruntime.LockOSThread() }

func main() {
	drvthread.ServeMain(func() {
		// The handlers stay to the exit: a signal between their removal and
		// os.Exit would kill the process by the default action after its work was
		// done and its result written (TestSignalStorm saw it once).
		ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		done := make(chan struct{})
		stderr := runtime.Stderr() // never a build's capture of fd 2
		go runtime.ExitWhenStuck(ctx, done, runtime.DefaultExitGrace, stderr, exitInterrupted, atomicfile.RemovePending)
		storeCommand = selfStoreCommand() // a miss's binary is stored by a detached child
		code := run(ctx, os.Args, os.Stdout, stderr)
		close(done)
		os.Exit(code)
	})
}
