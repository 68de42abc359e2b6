package store

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/store/storetest"
)

// TestTextNoStoreRefuses: a NUL byte or invalid UTF-8, which PostgreSQL's
// text refuses, is refused alike by both back ends before anything is
// written: in a label value (ParseLabels, Add) and in a result file's
// names. The same file without them is stored by both.
func TestTextNoStoreRefuses(t *testing.T) {
	for _, l := range []string{"k=a\x00b", "k=\xff", "k=caf\xc3"} {
		if _, err := ParseLabels([]string{l}); err == nil || !strings.Contains(err.Error(), "a store cannot keep") {
			t.Errorf("ParseLabels(%q): %v, want a refusal", l, err)
		}
	}
	if _, err := ParseLabels([]string{"k=café ✓"}); err != nil {
		t.Errorf("a UTF-8 label: %v", err)
	}
	stores(t, func(t *testing.T, location string) {
		s := open(t, location)
		f := storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0], Samples: 4, Created: time.Now()})
		good := f.Benchmarks[1].Name
		f.Benchmarks[1].Name = "peaks/a\x00b"
		if _, err := s.Add(context.Background(), f, "nul.json", nil); err == nil || !strings.Contains(err.Error(), "benchmark 2: name") || !strings.Contains(err.Error(), "NUL") {
			t.Errorf("a NUL in a name: %v, want a refusal naming benchmark 2", err)
		}
		f.Benchmarks[1].Name = good
		if _, err := s.Add(context.Background(), f, "bad.json", map[string]string{"k": "\xff"}); err == nil || !strings.Contains(err.Error(), "UTF-8") {
			t.Errorf("an invalid UTF-8 label: %v, want a refusal", err)
		}
		if n := count(t, s)["uploads"]; n != 0 {
			t.Errorf("%d uploads after the refusals, want 0", n)
		}
		if _, err := s.Add(context.Background(), f, "good.json", map[string]string{"k": "café"}); err != nil {
			t.Errorf("the file without them: %v", err)
		}
	})
}

// TestPostgresRefusalsSayWhy: a server that answers but refuses the login
// or has no such database says so and how to fix it, not that it does not
// answer.
func TestPostgresRefusalsSayWhy(t *testing.T) {
	good, err := url.Parse(storetest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	noRole, noDB := *good, *good
	noRole.User = url.User("nosuchrole")
	noDB.Path = "/nosuchdb"
	for _, c := range []struct {
		u    *url.URL
		want string
	}{{&noRole, "refuses the login"}, {&noDB, "has no such database"}} {
		_, err := Open(context.Background(), c.u.String(), Options{Create: true})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "does not answer") {
			t.Errorf("%s: %v, want %q", c.u.Redacted(), err, c.want)
		}
	}
}
