package store

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/store/storetest"
)

func TestCheckLocation(t *testing.T) {
	for loc, want := range map[string]string{
		"results.db":                              "",
		"sqlite:results.db":                       "",
		"file:results.db":                         "",
		"postgres://u:p@host:5432/db":             "",
		"postgresql://u@host/db?sslmode=off":      "",
		"mysql://u@h/db":                          "mysql:// is not a store clmeter can use",
		"http://example.com/x":                    "http:// is not a store",
		"postgres:///db":                          "names no host",
		"postgres://u@host/":                      "names no database",
		"postgres://u:secret@host:99999999/db%zz": "bad PostgreSQL URL",
		"results.db?mode=rw":                      "without '?' options",
		"sqlite:":                                 "names no file",
		"a\x01b.db":                               "control characters",
	} {
		err := CheckLocation(loc)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", loc, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: error %v, want %q", loc, err, want)
		case err != nil && fail.KindOf(err) != fail.Usage:
			t.Errorf("%q: %v is not a usage error", loc, err)
		case err != nil && strings.Contains(err.Error(), "secret"):
			t.Errorf("%q: the message shows the password: %v", loc, err)
		}
	}
}

// FuzzStoreLocation: CheckLocation never panics, answers in one line, never
// shows a password (one that RedactLocation hides, in any scheme-like prefix:
// postgres:/u:pw@h, postgress://u:pw@h), and what it takes Resolve keeps as
// given.
func FuzzStoreLocation(f *testing.F) {
	for _, s := range []string{"results.db", "sqlite:x.db", "postgres://u:pw@h:5432/db", "postgresql://h/db?sslmode=disable",
		"mysql://u@h/db", "postgres://u:pw@[::1/db", "postgres:/u:secret@h/db", "postgress://u:secret@h/db", "pg:u:secret@h/db?a=b", "postgres://%zz", "file:", "x.db?mode=ro", "HTTP://x", "a+b.c-d://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckLocation(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("CheckLocation(%q): several lines: %q", s, err)
			}
			if m := userinfoRE.FindStringSubmatch(s); m != nil && len(m[3]) > 3 && strings.Contains(err.Error(), m[3]) && !strings.Contains(RedactLocation(s), m[3]) {
				t.Errorf("CheckLocation(%q) shows the password %q: %v", s, m[3], err)
			}
			if u, perr := url.Parse(s); perr == nil && u.User != nil {
				if pw, ok := u.User.Password(); ok && len(pw) > 3 && strings.Contains(err.Error(), pw) && !strings.Contains(u.Redacted(), pw) {
					t.Errorf("CheckLocation(%q) shows the password: %v", s, err)
				}
			}
			return
		}
		if strings.TrimSpace(s) == "" || strings.TrimSpace(s) == "default" {
			return
		}
		got, rerr := Resolve(s)
		if rerr != nil || got != strings.TrimSpace(s) {
			t.Errorf("Resolve(%q) = %q, %v after CheckLocation took it", s, got, rerr)
		}
	})
}

func TestCheckPattern(t *testing.T) {
	for _, ok := range []string{"", "triad", "peaks/*", "copy?", "launch/dispatch"} {
		if err := CheckPattern(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"[", "peaks/[ab]", "{a,b}", `a\b`, "a\x00b", "\xff"} {
		if err := CheckPattern(bad); err == nil || fail.KindOf(err) != fail.Usage {
			t.Errorf("%q taken: %v", bad, err)
		}
	}
}

func TestParseLabelsDuplicate(t *testing.T) {
	if _, err := ParseLabels([]string{"k=v", "k=w"}); err == nil || !strings.Contains(err.Error(), `key "k" is given twice`) {
		t.Errorf("duplicate key: %v", err)
	}
}

// TestReadOnlyLeavesNothing: history and serve open a store read-only
// (immutable while no writer is at work): they work, and leave no -wal or
// -shm file behind, even beside a file and folder made read-only.
func TestReadOnlyLeavesNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "r.db")
	st, err := Open(ctx, path, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	f := storetest.File(storetest.Suite(3), storetest.Options{Device: storetest.Devices[0], Created: time.Now()})
	if _, err := st.Add(ctx, f, "a.json", nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	os.Chmod(path, 0o444)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	series, err := ro.History(ctx, Filter{Pattern: "*"})
	if err != nil || len(series) != 3 {
		t.Errorf("history: %d series, %v", len(series), err)
	}
	if _, err := ro.Add(ctx, f, "b.json", nil); err == nil {
		t.Error("a read-only store took an upload")
	}
	ro.Close()
	es, _ := os.ReadDir(dir)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"r.db"}) {
		t.Errorf("files after a read-only open: %v, want only r.db", names)
	}
}

func TestOpenErrorsSayWhatToDo(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	notDB := filepath.Join(dir, "not.db")
	os.WriteFile(notDB, []byte("hello"), 0o644)
	folder := filepath.Join(dir, "folder.db")
	os.Mkdir(folder, 0o755)
	good := filepath.Join(dir, "good.db")
	st, err := Open(ctx, good, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Add(ctx, storetest.File(storetest.Suite(20), storetest.Options{Device: storetest.Devices[0]}), "a.json", nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	data, _ := os.ReadFile(good)
	for i := 4096; i < len(data); i++ {
		data[i] = byte(i * 13)
	}
	damaged := filepath.Join(dir, "damaged.db")
	os.WriteFile(damaged, data, 0o644)
	for _, c := range []struct {
		loc  string
		opts Options
		want string
	}{
		{notDB, Options{ReadOnly: true}, "is not a SQLite database"},
		{notDB, Options{Create: true}, "is not a SQLite database"},
		{folder, Options{ReadOnly: true}, "is a folder"},
		{damaged, Options{ReadOnly: true}, "recover"},
		{"mysql://u@h/db", Options{ReadOnly: true}, "mysql:// is not a store"},
	} {
		if s, err := Open(ctx, c.loc, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			if s != nil {
				s.Close()
			}
			t.Errorf("Open(%s): %v, want %q", c.loc, err, c.want)
		}
		if err := CheckWritable(ctx, c.loc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckWritable(%s): %v, want %q", c.loc, err, c.want)
		}
	}
	// What can be written passes, and the check creates nothing.
	for _, loc := range []string{good, filepath.Join(dir, "new", "deeper", "x.db")} {
		if err := CheckWritable(ctx, loc); err != nil {
			t.Errorf("CheckWritable(%s): %v", loc, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Error("CheckWritable made a folder")
	}
}

// TestReadOnlyBesideAWriter: while a writer has the store open (its
// write-ahead log beside the file), a read-only open reads through the log and
// sees what the writer committed.
func TestReadOnlyBesideAWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	w, err := Open(ctx, path, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	f := storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0], Created: time.Now()})
	if _, err := w.Add(ctx, f, "a.json", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Skipf("no write-ahead log beside the open store: %v", err)
	}
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if series, err := ro.History(ctx, Filter{}); err != nil || len(series) != 2 {
		t.Errorf("read beside a writer: %d series, %v", len(series), err)
	}
}

// TestReadOnlySeesNewResults: a long-lived read-only store (serve) sees what a
// writer added after it opened: its connections are dropped once the file
// changed, never read through a stale cache.
func TestReadOnlySeesNewResults(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	add := func(n int, seed uint64) {
		w, err := Open(ctx, path, Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		f := storetest.File(storetest.Suite(n), storetest.Options{Device: storetest.Devices[0], Created: time.Now(), Seed: seed})
		if _, err := w.Add(ctx, f, "a.json", nil); err != nil {
			t.Fatal(err)
		}
	}
	add(2, 1)
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, ok := func() (any, bool) {
		c, err := readOnlyConnector{path: path}.Connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, ok := c.(*roConn)
		return c, ok
	}(); !ok {
		t.Fatal("the SQLite driver's connection no longer has the methods roConn forwards")
	}
	for round, want := range []int{2, 5, 9} {
		if round > 0 {
			add(want, uint64(round+1))
		}
		series, err := ro.History(ctx, Filter{})
		if err != nil || len(series) != want {
			t.Errorf("round %d: %d series, %v; want %d", round, len(series), err, want)
		}
	}
}
