package main

import (
	"bytes"
	"context"
	"database/sql"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/dashboard"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// plantedPassword is the password the rows and tests below put in store
// URLs; it must show nowhere.
const plantedPassword = "plantedSecret44"

// escName is a benchmark name a hostile file holds: a clear-screen escape,
// a right-to-left override, a bell and a newline.
const escName = "copy\x1b[2J\u202eevil\a\nline2"

// secretRows are issue 44's bad inputs of secrets, hosts and escapes: a
// malformed store URL is refused without its password and makes no folder,
// serve beyond loopback needs --public, and a label that could drive a
// terminal is refused. TestSecretRowsShowNoPassword checks the password
// shows nowhere in what they print.
func secretRows(fx badFixtures) []badInput {
	const u = exitUsage
	d := fx.dir
	pw := plantedPassword
	saxpy := func(more ...string) []string { return append([]string{"run", "saxpy", "--size", "1Ki"}, more...) }
	escFile := filepath.Join(d, "esc-negative.json")
	f := storetest.File(storetest.Suite(1), storetest.Options{Device: storetest.Devices[0], Samples: 8, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	f.Benchmarks[0].Name = escName
	f.Benchmarks[0].Measurement.Samples[0].PerLaunch = -5
	var buf bytes.Buffer
	f.WriteTo(&buf)
	os.WriteFile(escFile, buf.Bytes(), 0o644)
	return []badInput{
		{name: "store URL with one slash", args: saxpy("--store", "postgres:/u:"+pw+"@h/db"), code: u, want: []string{"two slashes", "postgres:/u:xxxxx@h/db"}},
		{name: "store URL scheme misspelt", args: saxpy("--store", "postgress://u:"+pw+"@h/db"), code: u, want: []string{"postgress:// is not a store", "u:xxxxx@h"}},
		{name: "store add URL without slashes", args: []string{"store", "add", "--store", "postgresql:u:" + pw + "@h/db", fx.good}, code: u, want: []string{"two slashes"}},
		{name: "history store of a word scheme", args: []string{"history", "--store", "pg:u:" + pw + "@h/db"}, code: u, want: []string{`"pg:" looks like a URL scheme`}},
		{name: "store URL password option", args: []string{"history", "--store", "postgres://h/?password=" + pw}, code: u, want: []string{"names no database", "password=xxxxx"}},
		{name: "store URL given as a target", args: []string{"run", "postgres://u:" + pw + "@h/db"}, code: u, want: []string{"unknown kernel", "u:xxxxx@h"}},
		{name: "serve on every interface", args: []string{"serve", "--store", fx.goodStore, "--addr", "0.0.0.0:0"}, code: u, want: []string{"--public", "every interface"}},
		{name: "serve on every interface, no host", args: []string{"serve", "--store", fx.goodStore, "--addr", ":0"}, code: u, want: []string{"--public"}},
		{name: "serve on a network address", args: []string{"serve", "--store", fx.goodStore, "--addr", "192.0.2.1:0"}, code: u, want: []string{"--public", "192.0.2.1"}},
		{name: "label with escapes", args: saxpy("--store", filepath.Join(d, "label.db"), "--label", "k=\x1b[31mRED\x1b]0;pwned\a\nline2"), code: u, want: []string{`\x1b[31mRED`, "control character"}},
		{name: "label with a bidi override", args: saxpy("--store", filepath.Join(d, "label.db"), "--label", "k=abc\u202edef"), code: u, want: []string{`\u202e`, "bidirectional override"}},
		{name: "store add label with DEL", args: []string{"store", "add", "--store", filepath.Join(d, "label.db"), "--label", "k=a\x7f", fx.good}, code: u, want: []string{`\x7f`}},
		{name: "history label with a C1 control", args: []string{"history", "--store", fx.goodStore, "--label", "k=a\u009b31m"}, code: u, want: []string{`\u009b`}},
		{name: "report of an escape in a name", args: []string{"report", escFile}, code: u, want: []string{`copy\x1b[2J\u202eevil\a\nline2`, "above zero"}},
	}
}

// TestSecretRowsShowNoPassword: no row of secretRows prints the planted
// password, and none made a folder named after a URL here.
func TestSecretRowsShowNoPassword(t *testing.T) {
	fx := makeBadFixtures(t)
	for _, r := range secretRows(fx) {
		_, stdout, errs := clm(t, r.args...)
		if strings.Contains(stdout+errs, plantedPassword) {
			t.Errorf("%s: the password shows: %q", r.name, errs)
		}
		if strings.ContainsAny(stdout+errs, "\x1b\a\u202e") {
			t.Errorf("%s: raw escapes reach the terminal: %q", r.name, errs)
		}
	}
	for _, dir := range []string{"postgres:", "postgresql:u:" + plantedPassword + "@h", "pg:u:" + plantedPassword + "@h"} {
		if _, err := os.Stat(dir); err == nil {
			os.RemoveAll(dir)
			t.Errorf("a folder %s was made", dir)
		}
	}
}

// TestNoSecretAtRest: a run with a password in its PostgreSQL URL keeps it
// out of the result file, every row of every table of the store, every
// dashboard page and every message; the dashboard refuses a foreign Host.
func TestNoSecretAtRest(t *testing.T) {
	needDevice(t)
	_, plain := storetest.PrivatePostgres(t)
	loc := strings.Replace(plain, "://clmeter@", "://clmeter:"+plantedPassword+"@", 1)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, errs := clm(t, append([]string{"run", "saxpy", "--size", "1Ki", "--store", loc, "-o", out, "--label", "who=me"}, fast...)...)
	if code != 0 || !strings.Contains(errs, "stored") {
		t.Fatalf("run: exit %d: %s %s", code, stdout, errs)
	}
	noSecret(t, "run's output", stdout+errs)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	noSecret(t, "the result file", string(data))
	if !strings.Contains(string(data), "clmeter:xxxxx@") {
		t.Errorf("the result file's command line does not show the redacted URL")
	}
	code, stdout, errs = clm(t, "store", "add", "--store", loc, out, "--label", "again=1")
	noSecret(t, "store add's output", stdout+errs)
	scanTables(t, plain)
	scanDashboard(t, loc)
	wrong, _ := url.Parse(loc)
	wrong.Path = "/nosuchdb"
	for _, args := range [][]string{{"history", "--store", wrong.String()}, {"serve", "--store", wrong.String(), "--addr", "127.0.0.1:0"}} {
		code, stdout, errs = clm(t, args...)
		if code == 0 {
			t.Errorf("%s of a missing database: exit 0", args[0])
		}
		noSecret(t, args[0]+" of a missing database", stdout+errs)
	}
}

func noSecret(t *testing.T, where, text string) {
	t.Helper()
	if strings.Contains(text, plantedPassword) {
		t.Errorf("%s shows the password: %.2000s", where, text)
	}
}

// scanTables reads every row of every table of the store at location as
// text and looks for the password.
func scanTables(t *testing.T, location string) {
	t.Helper()
	db, err := sql.Open("postgres", location)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) < 3 {
		t.Fatalf("tables %v", tables)
	}
	uploads := 0
	for _, tb := range tables {
		rs, err := db.Query(`SELECT t::text FROM "` + tb + `" t`)
		if err != nil {
			t.Fatal(err)
		}
		for rs.Next() {
			var row string
			rs.Scan(&row)
			noSecret(t, "table "+tb, row)
			if tb == "uploads" {
				uploads++
			}
		}
		rs.Close()
	}
	if uploads != 2 {
		t.Errorf("%d uploads, want 2 (the run's and store add's)", uploads)
	}
}

// scanDashboard serves the store and reads every page it links to, looking
// for the password; a foreign Host header gets 421 on each.
func scanDashboard(t *testing.T, location string) {
	t.Helper()
	st, err := store.Open(context.Background(), location, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(dashboard.New(st, 0))
	defer srv.Close()
	link := regexp.MustCompile(`href="(/[^"]*)"`)
	seen := map[string]bool{"/": true}
	queue := []string{"/"}
	runs := 0
	for len(queue) > 0 && len(seen) < 300 {
		p := queue[0]
		queue = queue[1:]
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
		noSecret(t, "page "+p, string(body))
		if strings.HasPrefix(p, "/run/") {
			runs++
			if !strings.Contains(string(body), "xxxxx") {
				t.Errorf("%s does not show the redacted command line", p)
			}
		}
		req, _ := http.NewRequest("GET", srv.URL+p, nil)
		req.Host = "attacker.example"
		if fr, err := http.DefaultClient.Do(req); err != nil || fr.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("%s with Host attacker.example: %v %v", p, fr.Status, err)
		} else {
			fb, _ := io.ReadAll(fr.Body)
			fr.Body.Close()
			noSecret(t, "the 421 answer", string(fb))
		}
		for _, m := range link.FindAllStringSubmatch(string(body), -1) {
			if q := html.UnescapeString(m[1]); !seen[q] && !strings.HasPrefix(q, "/static/") {
				seen[q] = true
				queue = append(queue, q)
			}
		}
	}
	t.Logf("dashboard: %d pages read, %d of them run pages", len(seen), runs)
	if runs == 0 || len(seen) < 4 {
		t.Errorf("read %d pages, %d run pages: %v", len(seen), runs, seen)
	}
}

// TestEscapesShownEscaped: a result file whose benchmark name, parameter
// and device hold ESC[2J, U+202E, BEL and a newline is shown escaped by
// report (text, markdown, CSV), compare, store add and history (table, CSV).
func TestEscapesShownEscaped(t *testing.T) {
	dir := t.TempDir()
	specs := []storetest.Spec{{Name: escName, Params: []string{"size=1Ki\x1b]0;title\a"}, Median: 10 * time.Microsecond}}
	var files []string
	for i := range 2 {
		f := storetest.File(specs, storetest.Options{Device: storetest.Devices[0], Samples: 8, Seed: uint64(i), Created: time.Date(2026, 1, 2+i, 3, 4, 5, 0, time.UTC)})
		f.Benchmarks[0].Device.Name = "dev\u202eice"
		f.Benchmarks[0].Device.DriverVersion += "\x1b[31m"
		f.Host.CPU, f.Host.Hostname, f.Tool.Version = "cpu\x1b[2J", "host\u2066", "0.1\x9b"
		f.Benchmarks[0].Measurement.Warnings = append(f.Benchmarks[0].Measurement.Warnings, "warn\x1b]0;t\a")
		p := filepath.Join(dir, []string{"a.json", "b.json"}[i])
		if err := results.WriteFile(p, f); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	db := filepath.Join(dir, "esc.db")
	for _, args := range [][]string{
		{"report", files[0]}, {"report", files[0], "--format", "markdown"}, {"report", files[0], "--format", "csv"}, {"report", files[0], "--format", "benchfmt"},
		{"compare", files[0], files[1]}, {"compare", files[0], files[1], "--format", "csv"},
		{"store", "add", "--store", db, files[0], files[1]},
		{"history", "--store", db}, {"history", "--store", db, "--format", "csv"}, {"history", "--store", db, "--format", "markdown"},
	} {
		code, stdout, errs := clm(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
		if strings.ContainsAny(stdout+errs, "\x1b\a\u202e\u2066\u009b") {
			t.Errorf("%v: raw escapes reach the terminal:\n%q", args, stdout+errs)
		}
		// A table cell shows the newline as \n; wrapped text (a heading) as a space.
		if args[0] != "store" && !strings.Contains(stdout, `copy\x1b[2J\u202eevil\a`) {
			t.Errorf("%v: the name is not shown escaped:\n%s", args, stdout)
		}
	}
}
