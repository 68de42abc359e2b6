package store

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
)

// The store in testdata/modernc/store-v4.db was written by clmeter at commit
// 1434b8e, whose SQLite driver was modernc.org/sqlite v1.62.0, outside any
// git checkout (so no git labels), with
//
//	clmeter store add --store store-v4.db --label compat=modernc --label 'note=ünïcode ✓' \
//	    pocl.json pocl-v3-two-devices.json h200.json h200-fleet.json
//
// (the four files beside it: three from results/testdata, and h200.json with
// a fleet section and a created time in +02:00 with nanoseconds).
var (
	moderncFiles  = []string{"pocl.json", "pocl-v3-two-devices.json", "h200.json", "h200-fleet.json"}
	moderncLabels = map[string]string{"compat": "modernc", "note": "ünïcode ✓"}
)

// moderncCopy copies the old driver's store into a new folder and returns
// the copy's path.
func moderncCopy(t *testing.T) string {
	t.Helper()
	in, err := os.Open(filepath.Join("testdata", "modernc", "store-v4.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	path := filepath.Join(t.TempDir(), "old.db")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// moderncTwin adds the fixture's files, in its order and with its labels,
// to a new store written by this package, and returns it with the files.
func moderncTwin(t *testing.T) (*Store, []*results.File) {
	t.Helper()
	s := open(t, filepath.Join(t.TempDir(), "new.db"))
	var files []*results.File
	for _, name := range moderncFiles {
		f, err := results.Read(filepath.Join("testdata", "modernc", name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Add(context.Background(), f, name, moderncLabels); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return s, files
}

// TestModerncStoreReads: a store the pure-Go driver wrote reads through
// this one as the same files added now read: every row and column with its
// SQLite type, history, each result, devices, benchmarks and the fleet run;
// times (created in two zones, to the nanosecond) are the files' own.
func TestModerncStoreReads(t *testing.T) {
	ctx := context.Background()
	path := moderncCopy(t)
	twin, files := moderncTwin(t)
	old, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	sameRows(t, old, twin)
	sameQueries(t, old, twin)
	for i, f := range files {
		r, err := old.Result(ctx, firstResult(t, old, int64(i+1)))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Upload.Created.Equal(f.Created) || r.Upload.Created.UnixNano() != f.Created.UnixNano() {
			t.Errorf("upload %d created %v, the file says %v", i+1, r.Upload.Created, f.Created)
		}
		for j, b := range f.Benchmarks {
			rj, err := old.Result(ctx, r.ID+int64(j))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(rj.Benchmark)
			want, _ := json.Marshal(b)
			if string(got) != string(want) || rj.Upload.ID != int64(i+1) {
				t.Errorf("upload %d benchmark %d reads back as\n%.300s\nnot\n%.300s", i+1, j, got, want)
			}
		}
		if !strings.HasSuffix(r.Upload.Source, moderncFiles[i]) || r.Upload.Added.Before(f.Created) || r.Upload.Added.After(time.Now()) {
			t.Errorf("upload %d: source %q added %v", i+1, r.Upload.Source, r.Upload.Added)
		}
	}
	tasks, err := old.FleetTasks(ctx, "job-4711")
	if err != nil || len(tasks) != 1 || !tasks[0].Latest || tasks[0].Node != "gpu-node-07" || tasks[0].Shard != 1 ||
		!tasks[0].Created.Equal(files[3].Created) {
		t.Errorf("fleet tasks %+v, %v", tasks, err)
	}
	for _, extra := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(path + extra); err == nil {
			t.Errorf("reading the store left %s beside it", filepath.Base(path+extra))
		}
	}
}

// TestModerncStoreMigrates: the old driver's store, taken back to schema 1,
// is migrated by this driver (the device keys filled from its rows) and
// then reads as the same files added now; it takes new files after.
func TestModerncStoreMigrates(t *testing.T) {
	ctx := context.Background()
	path := moderncCopy(t)
	s := open(t, path)
	backToSchema1(t, s)
	s.Close()
	migrated := open(t, path)
	if v, err := migrated.schemaVersion(ctx, migrated.db); err != nil || v != SchemaVersion() {
		t.Fatalf("schema %d after the migration (%v), want %d", v, err, SchemaVersion())
	}
	twin, _ := moderncTwin(t)
	// Migration 3 made fleet_tasks anew; a schema-1 store had no fleet rows.
	if _, err := twin.db.Exec("DELETE FROM fleet_tasks"); err != nil {
		t.Fatal(err)
	}
	sameRows(t, migrated, twin)
	sameQueries(t, migrated, twin)
	f, err := results.Read(filepath.Join("..", "results", "testdata", "pocl-quick.json"))
	if err != nil {
		t.Fatal(err)
	}
	if a, err := migrated.Add(ctx, f, "pocl-quick.json", nil); err != nil || a.Duplicate {
		t.Errorf("adding to the migrated store: %+v, %v", a, err)
	}
}

// firstResult is the id of upload's first result.
func firstResult(t *testing.T, s *Store, upload int64) int64 {
	t.Helper()
	var id int64
	if err := s.db.QueryRow("SELECT MIN(id) FROM results WHERE upload_id = ?", upload).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// sameRows compares every table of two SQLite stores, each value with its
// SQLite type; the upload's source and the times of adding and migrating
// differ by design and are left out.
func sameRows(t *testing.T, a, b *Store) {
	t.Helper()
	skip := map[string]bool{"uploads.source": true, "uploads.added_ns": true, "schema_migrations.applied_ns": true}
	for _, tab := range []string{"uploads", "labels", "devices", "results", "bodies", "samples", "fleet_tasks", "schema_migrations"} {
		ac, bc := columns(t, a, tab), columns(t, b, tab)
		if !reflect.DeepEqual(ac, bc) {
			t.Errorf("table %s: columns %q and %q", tab, ac, bc)
			continue
		}
		var cols []string
		for _, c := range ac {
			if !skip[tab+"."+c] {
				cols = append(cols, c)
			}
		}
		var sel []string
		for _, c := range cols {
			sel = append(sel, "typeof("+c+")", c)
		}
		q := "SELECT " + strings.Join(sel, ", ") + " FROM " + tab + " ORDER BY " + strings.Join(cols, ", ")
		ra, rb := dump(t, a, q), dump(t, b, q)
		if len(ra) == 0 && tab != "fleet_tasks" {
			t.Errorf("table %s is empty", tab)
		}
		if !reflect.DeepEqual(ra, rb) {
			i := 0
			for i < len(ra) && i < len(rb) && reflect.DeepEqual(ra[i], rb[i]) {
				i++
			}
			row := func(rs [][]any) string {
				if i >= len(rs) {
					return "(none)"
				}
				return fmt.Sprintf("%.600s", fmt.Sprint(rs[i]))
			}
			t.Errorf("table %s (%d and %d rows) differs at row %d:\n old %s\n new %s", tab, len(ra), len(rb), i, row(ra), row(rb))
		}
	}
}

// columns lists the columns of table tab.
func columns(t *testing.T, s *Store, tab string) []string {
	t.Helper()
	rows, err := s.db.Query("SELECT name FROM pragma_table_info(?) ORDER BY cid", tab)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// dump returns the rows of query q, each value as the driver gives it.
func dump(t *testing.T, s *Store, q string) [][]any {
	t.Helper()
	rows, err := s.db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameQueries compares what the package's queries return from two stores.
func sameQueries(t *testing.T, a, b *Store) {
	t.Helper()
	ctx := context.Background()
	get := func(s *Store) string {
		h, err := s.History(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := s.Devices(ctx)
		if err != nil {
			t.Fatal(err)
		}
		bs, err := s.Benchmarks(ctx)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := s.FleetRuns(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var rs []*Result
		for _, se := range h {
			for _, p := range se.Points {
				r, err := s.Result(ctx, p.ResultID)
				if err != nil {
					t.Fatal(err)
				}
				r.Upload.Source, r.Upload.Added = filepath.Base(r.Upload.Source), time.Time{}
				rs = append(rs, r)
			}
		}
		out, err := json.Marshal([]any{h, d, bs, fr, rs})
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	ga, gb := get(a), get(b)
	if ga != gb {
		i := 0
		for i < len(ga) && i < len(gb) && ga[i] == gb[i] {
			i++
		}
		t.Errorf("queries differ at byte %d:\n old …%.300s\n new …%.300s", i, ga[max(0, i-100):], gb[max(0, i-100):])
	}
	if len(ga) < 1000 {
		t.Errorf("queries returned only %s", ga)
	}
}

// TestSQLitePragmas: every connection has the settings openSQLite asks for
// (go-sqlite3 ignores a DSN parameter it does not know, so a misspelt one
// would go unnoticed): a writer's WAL, timeouts, foreign keys and caches, a
// reader's query_only.
func TestSQLitePragmas(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	w := open(t, path)
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for _, c := range []struct {
		s            *Store
		pragma, want string
	}{
		{w, "journal_mode", "wal"}, {w, "busy_timeout", "30000"}, {w, "foreign_keys", "1"}, {w, "cache_size", "-32768"},
		{w, "mmap_size", "1073741824"}, {w, "synchronous", "1"}, {w, "query_only", "0"},
		{ro, "busy_timeout", "30000"}, {ro, "query_only", "1"}, {ro, "cache_size", "-32768"},
	} {
		var got string
		if err := c.s.db.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil || got != c.want {
			t.Errorf("%s store: PRAGMA %s is %q (%v), want %q", map[bool]string{true: "read-only", false: "written"}[c.s.readOnly], c.pragma, got, err, c.want)
		}
	}
}
