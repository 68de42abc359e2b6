package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/runner"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/units"
)

// cacheFlags are the binary-cache flags of every command that builds programs
// (run, suite, ...); setupCache reads them.
var cacheFlags = []cli.Flag{
	&cli.BoolFlag{Name: "no-cache", Usage: "build every program from source, bypassing clmeter's binary cache", EnvVars: []string{cache.OffEnv}},
	cacheDirFlag,
	cacheMaxSizeFlag,
}

var cacheDirFlag = &cli.StringFlag{Name: "cache-dir", Usage: "binary cache folder (default: the user cache folder/clmeter)", EnvVars: []string{cache.DirEnv}}

var cacheMaxSizeFlag = &cli.StringFlag{Name: "cache-max-size", Usage: "bound on the binary cache; least-recently-used entries are trimmed (512MiB, 1GiB, 100M)", Value: "512MiB", EnvVars: []string{cache.MaxSizeEnv}}

// storeCommand runs the store child of a miss ('clmeter cache store-jobs'),
// detached; main sets it. Nil (clmeter run in-process, as tests do) stores in
// the process after the work.
var storeCommand []string

// selfStoreCommand is this executable's store-jobs command line, or nil when
// the executable cannot be found.
func selfStoreCommand() []string {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return []string{exe, "cache", "store-jobs"}
}

// cacheOptions reads cacheFlags.
func cacheOptions(c *cli.Context) runner.CacheOptions {
	return runner.CacheOptions{Dir: c.String("cache-dir"), MaxSize: c.String("cache-max-size"), Off: c.Bool("no-cache"), StoreCommand: storeCommand,
		Force: env.cacheForce(), Debug: env.cacheDebug(), WaitStore: env.cacheStoreWait()}
}

// openCache opens the cache folder for the cache commands (no write probe).
func openCache(c *cli.Context) (*cache.Cache, error) {
	dir := c.String("cache-dir")
	if dir == "" {
		d, err := cache.DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	size, err := units.ParseByteSize(c.String("cache-max-size"))
	if err != nil {
		return nil, usageErr("--cache-max-size: %v", err)
	}
	return cache.New(dir, size), nil
}

func init() {
	register(&cli.Command{
		Name:  "cache",
		Usage: "inspect, verify, clear and benchmark the program binary cache",
		Description: "Every program clmeter builds goes through a binary cache: the driver's binary is stored\n" +
			"   under a SHA-256 key of the source, its #includes, the build options, the platform, device\n" +
			"   and driver, and the driver's code-generation environment, and loaded from there next time.\n" +
			"   A bad entry is deleted and rebuilt silently. The folder is the user cache folder/clmeter\n" +
			"   (CLMETER_CACHE_DIR), bounded by --cache-max-size (512MiB); --no-cache or CLMETER_NO_CACHE=1\n" +
			"   turn it off; CLMETER_CACHE_DEBUG=1 prints each hit, miss, reuse, store, evict and reject to stderr.",
		Subcommands: []*cli.Command{
			cacheReportCommand("stats", "show the cache's folder, entries, size, bound and recorded hits and misses",
				"Hits and misses are counted by every clmeter process since the last 'cache clear'.", (*cache.Cache).WriteStats),
			cacheReportCommand("list", "list the entries, most recently used first",
				"Shows each entry's key prefix, device, source, size and time since last use.\n   --format json prints a list ([] when empty).", (*cache.Cache).WriteList),
			cacheReportCommand("verify", "check every entry as a build would (whole, proven, loadable with its kernels) and remove the bad ones",
				"Reads every entry and checks it: magic, header, length, checksum and proof (the binary was\n"+
					"   loaded back with its source's kernels when stored); an entry of a device of this machine must also\n"+
					"   be proven on the device's driver library and load with the kernels and arguments of its source.\n"+
					"   Bad entries are reported and removed (a build would reject and rebuild them). Exit status 1 when\n"+
					"   any entry was bad, 0 otherwise.", (*cache.Cache).WriteVerify),
			cacheClearCommand(),
			cacheWaitCommand(),
			cacheStoreJobsCommand(),
			cacheBenchCommand(),
			cacheBenchChildCommand(),
		},
	})
}

// cacheFolderFlags name the cache folder and its bound for the cache commands.
var cacheFolderFlags = []cli.Flag{cacheDirFlag, cacheMaxSizeFlag}

// cacheReportCommand is a cache subcommand that prints a report of the
// folder as a table or JSON (stats, list, verify).
func cacheReportCommand(name, usage, desc string, run func(*cache.Cache, io.Writer, bool) error) *cli.Command {
	return &cli.Command{
		Name:        name,
		Usage:       usage,
		Description: desc,
		Flags:       append([]cli.Flag{formatFlag("table", "json")}, cacheFolderFlags...),
		Action: func(c *cli.Context) error {
			bc, format, err := cacheCmdSetup(c)
			if err != nil {
				return err
			}
			return run(bc, c.App.Writer, format == "json")
		},
	}
}

// cacheClearCommand is 'clmeter cache clear'.
func cacheClearCommand() *cli.Command {
	return &cli.Command{
		Name:  "clear",
		Usage: "remove every entry and the recorded counters",
		Flags: cacheFolderFlags,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			bc, err := openCache(c)
			if err != nil {
				return err
			}
			n, b, err := bc.Clear()
			if err != nil {
				return fmt.Errorf("cache clear: %w", err)
			}
			fmt.Fprintf(c.App.Writer, "removed %d entries (%s) from %s\n", n, units.Bytes(b), bc.Dir)
			return nil
		},
	}
}

// cacheWaitCommand is 'clmeter cache wait'.
func cacheWaitCommand() *cli.Command {
	return &cli.Command{
		Name:  "wait",
		Usage: "wait until the binaries of earlier runs' misses are stored",
		Description: "A miss's binary is stored by a detached child process after the run exits (reading it\n" +
			"   compiles every kernel on PoCL); this waits for those children, at most --timeout.",
		Flags: append([]cli.Flag{&cli.DurationFlag{Name: "timeout", Value: cache.StoreChildLimit, Usage: "give up after this long (exit 1)"}}, cacheFolderFlags...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			bc, err := openCache(c)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(c.Context, c.Duration("timeout"))
			defer cancel()
			if err := bc.WaitStores(ctx); err != nil {
				if c.Context.Err() != nil {
					return c.Context.Err()
				}
				return fmt.Errorf("cache wait: stores still running after %s", c.Duration("timeout"))
			}
			return nil
		},
	}
}

// cacheStoreJobsCommand is the hidden 'clmeter cache store-jobs', the store
// child of a run's misses.
func cacheStoreJobsCommand() *cli.Command {
	return &cli.Command{
		Name:   "store-jobs",
		Usage:  "store the entries of the given keys from their job files (the store child of a run)",
		Hidden: true,
		Flags:  cacheFolderFlags,
		Action: func(c *cli.Context) error {
			bc, err := openCache(c)
			if err != nil {
				return err
			}
			return cache.RunStoreJobs(c.Context, bc.Dir, c.Args().Slice())
		},
	}
}

// cacheCmdSetup checks a report command's arguments and --format and opens
// the cache folder.
func cacheCmdSetup(c *cli.Context) (*cache.Cache, string, error) {
	if err := noArgs(c); err != nil {
		return nil, "", err
	}
	format, err := checkFormat(c, "table", "json")
	if err != nil {
		return nil, "", err
	}
	bc, err := openCache(c)
	return bc, format, err
}
