package main

import (
	"fmt"
	"io"
	goruntime "runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/clmeter/clmeter/runtime"
)

// commit and buildDate are set at build time with -ldflags "-X
// main.commit=... -X main.buildDate=..." (the Makefile does); without them
// --version gives the Go build's VCS stamp (vcs.revision, vcs.time), where
// the build made one.
var commit, buildDate = "", ""

func init() {
	cli.VersionPrinter = func(c *cli.Context) { writeVersion(c.App.Writer) }
}

// writeVersion prints what --version says: the version, the commit and when
// it was built (from -ldflags, else from the Go build's VCS stamp), the Go
// version and the OpenCL headers. Nothing in it needs an OpenCL library.
func writeVersion(w io.Writer) {
	rev, when, modified := commit, "", false
	if bi, ok := debug.ReadBuildInfo(); ok && rev == "" {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	switch {
	case rev == "":
		rev = "unknown"
	case modified:
		rev += " (with uncommitted changes)"
	}
	built := buildDate
	switch {
	case built == "" && when != "":
		built = "unknown (commit made " + when + ")"
	case built == "":
		built = "unknown"
	}
	fmt.Fprintf(w, "clmeter version %s\n", version)
	fmt.Fprintf(w, "  commit          %s\n", rev)
	fmt.Fprintf(w, "  built           %s\n", built)
	fmt.Fprintf(w, "  go              %s %s/%s\n", goruntime.Version(), goruntime.GOOS, goruntime.GOARCH)
	fmt.Fprintf(w, "  OpenCL headers  %s\n", runtime.HeadersText())
}
