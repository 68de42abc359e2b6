package runner

import (
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// The options of the measuring commands (run, suite, trace, compare
// --interleave) come as one type per concept, embedded in each command's
// options (RunOptions, SuiteOptions), so that a field is read as o.Device,
// o.Output, o.Store ... whatever the command.

// SessionOptions are how a measuring command reaches its devices: which,
// measured how, built through which binary cache, and in which process.
type SessionOptions struct {
	// Device selects devices (runtime.Manager.Select syntax).
	Device string
	// Settings are the measurement settings (Settings.KernelTimeout gives up
	// on a kernel the device has not finished).
	Settings measure.Settings
	// Cache chooses the binary cache.
	Cache CacheOptions
	// Child reruns this command in a child process (clmeter's binary and its
	// arguments): where a selected device's driver may crash the process
	// (runtime.CrashRisk), the command runs there and a crash is one line.
	// Empty: always in this process.
	Child []string
}

// OutputOptions are where a measuring command's results go and how the
// result file describes them.
type OutputOptions struct {
	// Format is the printed report's format, one of the command's formats
	// (RunFormats; "table", "json", "csv", "markdown" or "md" for a suite).
	Format string
	// Output, when set, receives the result file, benchmark by benchmark.
	Output string
	// Tool and Command describe the run in the result file.
	Tool    results.ToolInfo
	Command []string
}

// StoreOptions are the results database a measuring command also puts its
// results into.
type StoreOptions struct {
	// Store, when set, is the database (see store.Open); the results go in
	// with Labels.
	Store  string
	Labels map[string]string
}

// ProfileUse is how a measuring command uses the stored device profiles.
type ProfileUse struct {
	// NoProfile leaves the stored profiles alone: run measures no short
	// profile when none is stored (no roofline then), a suite does not
	// update the profile with its figures.
	NoProfile bool
	// ProfileDir is the profiles' folder (CLMETER_PROFILE_DIR; "": the user
	// cache folder's).
	ProfileDir string
}
