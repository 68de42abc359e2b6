package spec

import "github.com/clmeter/clmeter/internal/userfile"

// The limits of the files a spec reads (docs/COMMANDS.md, "Limits"): each is
// read whole, through package userfile, which refuses a special file and a
// file past its limit with one line.
const (
	// MaxSpecBytes is the most a spec file may hold: a spec is a few dozen
	// lines.
	MaxSpecBytes = 1 * userfile.MiB
	// MaxSourceBytes is the most a kernel source (.cl) or a file it
	// includes may hold.
	MaxSourceBytes = 16 * userfile.MiB
	// MaxExpectBytes is the most an expect file (an output's expected
	// contents) may hold.
	MaxExpectBytes = 2048 * userfile.MiB
)

// specLimit is a spec file's limit.
func specLimit() userfile.Limit {
	return userfile.Limit{What: "spec file", Bytes: MaxSpecBytes, Hint: "a spec file is a few dozen lines of YAML"}
}

// SourceLimit is the limit of a kernel source and of each file it includes.
func SourceLimit() userfile.Limit {
	return userfile.Limit{What: "kernel source", Bytes: MaxSourceBytes, Hint: "split it, or build it with your own tools"}
}

// expectLimit is an expect file's limit.
func expectLimit() userfile.Limit {
	return userfile.Limit{What: "expect file", Bytes: MaxExpectBytes}
}
