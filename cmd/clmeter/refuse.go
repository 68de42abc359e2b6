package main

import (
	"github.com/urfave/cli/v2"
)

// noMeasuringFlags refuses run's flags on 'compare OLD NEW', which compares
// files and measures nothing: a flag it would ignore is an error that says
// so. Flags that the environment may set too (--device, the cache's, the
// store's) are every command's settings and pass.
func noMeasuringFlags(c *cli.Context) error {
	for _, f := range withoutFlag(runFlags, "format") {
		if env, ok := f.(interface{ GetEnvVars() []string }); ok && len(env.GetEnvVars()) > 0 {
			continue
		}
		if name := f.Names()[0]; c.IsSet(name) {
			return usageErr("--%s is for 'compare --interleave A B', which measures; comparing result files measures nothing (drop --%s, or add --interleave)", name, name)
		}
	}
	return nil
}

// traceIgnores are run's flags that trace shares but has no use for: it
// writes a timeline, not results (no profile, no roofline, no store).
var traceIgnores = []string{"check", "verbose", "no-profile", "label"}

// noTraceOnlyFlags refuses the flags of run that trace would ignore.
func noTraceOnlyFlags(c *cli.Context) error {
	for _, name := range traceIgnores {
		if c.IsSet(name) {
			return usageErr("--%s is run's: 'clmeter trace' writes a timeline, not results (drop --%s, or use 'clmeter run')", name, name)
		}
	}
	return nil
}
