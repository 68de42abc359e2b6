package cl

import (
	"strings"
	"testing"
)

// What a build keeps of its logs and of the driver's chatter on stderr, alone
// and while other builds ran at once.
func TestDriverOutput(t *testing.T) {
	log := "input.cl:3:5: warning: unused variable 'x'"
	chatter := "1 warning generated."
	for _, c := range []struct {
		name           string
		logs           []string
		chatter        string
		shared, failed bool
		want           string
	}{
		{"quiet", []string{log}, "", false, false, ""},
		{"warnings", []string{log}, chatter, false, false, log + "\n" + chatter},
		{"log in chatter", []string{log}, log, false, false, log},
		{"failed", []string{log}, "", false, true, log},
		{"failed with chatter", []string{log}, chatter, false, true, log + "\n" + chatter},
		{"shared: own log only", []string{log}, chatter, true, false, log},
		{"shared: no log", nil, chatter, true, false, SharedOutputNote + "\n" + chatter},
		{"shared and failed", []string{log}, chatter, true, true, log + "\n" + SharedOutputNote + "\n" + chatter},
	} {
		if got := driverOutput(c.logs, c.chatter, c.shared, c.failed); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if strings.Contains(driverOutput([]string{log}, "other build's warning", true, false), "other build") {
		t.Error("a shared capture's chatter was kept beside the build's own log")
	}
}
