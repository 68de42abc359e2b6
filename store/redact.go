package store

import (
	"regexp"
	"strings"
)

// Redacted stands where a password was.
const Redacted = "xxxxx"

// userinfoRE finds a URL's user:password@ (the scheme with any number of
// slashes, so "postgres:/u:pw@h" and "postgress://u:pw@h" are caught too).
// The password runs to the last '@', so one holding '@' or '/' is hidden
// whole; what is hidden beyond it is only ever more than the password.
var userinfoRE = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*:/*)([^/:@]*):(.*)@`)

// queryPasswordRE finds a password given as a URL option (?password=...,
// &sslpassword=...), which the PostgreSQL driver takes too.
var queryPasswordRE = regexp.MustCompile(`(?i)([?&](?:ssl)?password=)[^&#]*`)

// RedactLocation returns s (a store location, a command-line argument such as
// --store=URL, or any text naming one URL) with every password it holds
// replaced by Redacted: the one after user: in a URL of any scheme, and a
// password= or sslpassword= option. It is the one place passwords are
// taken out: result files' command lines, the store's uploads, messages and
// the dashboard's pages all show a location through it.
func RedactLocation(s string) string {
	s = userinfoRE.ReplaceAllString(s, "${1}${2}:"+Redacted+"@")
	return queryPasswordRE.ReplaceAllString(s, "${1}"+Redacted)
}

// wordRE is a run of text without whitespace.
var wordRE = regexp.MustCompile(`\S+`)

// RedactText returns a message or other free text with RedactLocation
// applied to each of its words (runs without whitespace), so that a URL
// quoted anywhere in it (a store URL given where a target was expected)
// shows no password, and text around it is kept as it is.
func RedactText(s string) string {
	if !strings.Contains(s, "@") && !strings.Contains(strings.ToLower(s), "password=") {
		return s
	}
	return wordRE.ReplaceAllStringFunc(s, RedactLocation)
}

// RedactCommand returns a copy of a command line (os.Args style) with each
// argument passed through RedactLocation, the form result files and uploads
// record.
func RedactCommand(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = RedactLocation(a)
	}
	return out
}
