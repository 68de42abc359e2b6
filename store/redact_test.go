package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/store/storetest"
)

func TestRedactLocation(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secret@h:5432/db":               "postgres://u:xxxxx@h:5432/db",
		"--store=postgresql://u:secret@h/db":          "--store=postgresql://u:xxxxx@h/db",
		"postgres://u:se@cr/et@h/db":                  "postgres://u:xxxxx@h/db",
		"postgres:/u:secret@h/db":                     "postgres:/u:xxxxx@h/db",
		"postgress://u:secret@h/db":                   "postgress://u:xxxxx@h/db",
		"postgres://h/db?sslmode=off&password=secret": "postgres://h/db?sslmode=off&password=xxxxx",
		"postgres://h/db?PassWord=secret#x":           "postgres://h/db?PassWord=xxxxx#x",
		"postgres://h/db?sslpassword=secret":          "postgres://h/db?sslpassword=xxxxx",
		"postgres://u@h:5432/db":                      "postgres://u@h:5432/db",
		"results.db":                                  "results.db",
		"--label=branch=main":                         "--label=branch=main",
		"saxpy":                                       "saxpy",
	} {
		if got := RedactLocation(in); got != want {
			t.Errorf("RedactLocation(%q) = %q, want %q", in, got, want)
		}
	}
	msg := `unknown kernel "postgres://u:secret@h/db": see clmeter: x @ dev, time 23:56 @ 1`
	if got := RedactText(msg); got != `unknown kernel "postgres://u:xxxxx@h/db": see clmeter: x @ dev, time 23:56 @ 1` {
		t.Errorf("RedactText(%q) = %q", msg, got)
	}
	args := []string{"clmeter", "run", "--store", "postgres://u:secret@h/db", "-o", "r.json"}
	got := RedactCommand(args)
	if strings.Contains(strings.Join(got, " "), "secret") || args[3] != "postgres://u:secret@h/db" || len(got) != len(args) {
		t.Errorf("RedactCommand(%q) = %q (and must not change its input)", args, got)
	}
}

// TestMalformedLocationRefused: a location that starts like a URL but is no
// store URL is refused, without its password, and makes no SQLite folder.
func TestMalformedLocationRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	for loc, want := range map[string]string{
		"postgres:/u:secret@h/db":   "two slashes",
		"postgresql:u:secret@h/db":  "two slashes",
		"postgress://u:secret@h/db": "postgress:// is not a store",
		"pg:u:secret@h/db":          `"pg:" looks like a URL scheme`,
		"results:2026.db":           "./results:2026.db",
	} {
		err := CheckLocation(loc)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line saying %q without the password", loc, err, want)
		}
		if s, err := Open(context.Background(), loc, Options{Create: true}); err == nil {
			s.Close()
			t.Errorf("%q: opened", loc)
		}
		if err := CheckWritable(context.Background(), loc); err == nil {
			t.Errorf("%q: CheckWritable took it", loc)
		}
	}
	if m, _ := filepath.Glob("*"); len(m) > 0 {
		t.Errorf("files made: %v", m)
	}
	if err := CheckLocation("./results:2026.db"); err != nil {
		t.Errorf("./results:2026.db: %v", err)
	}
}

// TestStoredCommandLineRedacted: a file whose command line holds a store
// password is stored (and read back) without it, on SQLite and PostgreSQL,
// and a PostgreSQL URL's password shows in no message.
func TestStoredCommandLineRedacted(t *testing.T) {
	stores(t, func(t *testing.T, location string) {
		const pw = "plantedSecret42"
		f := storetest.File(storetest.Suite(1), storetest.Options{Device: storetest.Devices[0], Samples: 8, Created: time.Now()})
		f.CommandLine = []string{"clmeter", "run", "--store", "postgres://u:" + pw + "@h/db", "--store=postgres://h/db?password=" + pw}
		s := open(t, location)
		defer s.Close()
		a, err := s.Add(context.Background(), f, "postgres://u:"+pw+"@h/db", nil)
		if err != nil {
			t.Fatal(err)
		}
		var cmd, src string
		if err := s.db.QueryRow(s.q("SELECT command_line, source FROM uploads WHERE id = ?"), a.UploadID).Scan(&cmd, &src); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(cmd+src, pw) || !strings.Contains(cmd, "xxxxx") {
			t.Errorf("stored command line %s, source %s", cmd, src)
		}
		ids := firstResultIDs(t, s.db, s)
		r, err := s.Result(context.Background(), ids)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.Join(r.Upload.CommandLine, " ")+r.Upload.Source, pw) {
			t.Errorf("read back: %q %q", r.Upload.CommandLine, r.Upload.Source)
		}
	})
	t.Run("postgres messages", func(t *testing.T) {
		u, err := url.Parse(storetest.PostgresURL(t))
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword("clmeter", "plantedSecret42")
		s, err := Open(context.Background(), u.String(), Options{Create: true})
		if err != nil {
			t.Fatalf("trust authentication takes any password: %v", err)
		}
		if strings.Contains(s.String(), "plantedSecret42") {
			t.Errorf("store named %s", s)
		}
		s.Close()
		noDB, noServer := *u, *u
		noDB.Path = "/nosuchdb"
		noServer.Host = "127.0.0.1:1"
		for _, bad := range []*url.URL{&noDB, &noServer} {
			if _, err := Open(context.Background(), bad.String(), Options{}); err == nil || strings.Contains(err.Error(), "plantedSecret42") {
				t.Errorf("%s: %v", RedactLocation(bad.String()), err)
			}
			if err := CheckWritable(context.Background(), bad.String()); err == nil || strings.Contains(err.Error(), "plantedSecret42") {
				t.Errorf("%s: %v", RedactLocation(bad.String()), err)
			}
		}
	})
}

func firstResultIDs(t *testing.T, db *sql.DB, s *Store) int64 {
	t.Helper()
	var id int64
	if err := db.QueryRow("SELECT MIN(id) FROM results").Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestPasswordSources: a server that asks for a password takes it from the
// URL, from PGPASSWORD or from a .pgpass file (PGPASSFILE), so that none
// need be in a command line; without one the store is not opened.
func TestPasswordSources(t *testing.T) {
	pg, loc := storetest.PrivatePostgres(t)
	const pw = "pw-from-elsewhere"
	if err := pg.RequirePassword(pw); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t.Setenv("PGPASSFILE", filepath.Join(t.TempDir(), "none"))
	if s, err := Open(ctx, loc, Options{Create: true}); err == nil {
		s.Close()
		t.Fatal("opened without a password")
	}
	try := func(how, location string) {
		t.Helper()
		s, err := Open(ctx, location, Options{Create: true})
		if err != nil {
			t.Errorf("password from %s: %v", how, err)
			return
		}
		defer s.Close()
		if strings.Contains(s.String(), pw) {
			t.Errorf("password from %s: the store is named %s", how, s)
		}
	}
	u, _ := url.Parse(loc)
	u.User = url.UserPassword("clmeter", pw)
	try("the URL", u.String())
	t.Setenv("PGPASSWORD", pw)
	try("PGPASSWORD", loc)
	os.Unsetenv("PGPASSWORD")
	pass := filepath.Join(t.TempDir(), ".pgpass")
	if err := os.WriteFile(pass, []byte(fmt.Sprintf("127.0.0.1:%d:*:clmeter:%s\n", pg.Port, pw)), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PGPASSFILE", pass)
	try(".pgpass", loc)
}
