package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime/devsel"
	"github.com/clmeter/clmeter/store/storetest"
)

var cleanupBig = func() {}

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.StopShared()
	cleanupBig()
	os.Exit(code)
}

// stores runs f against a new SQLite store and a new PostgreSQL database.
func stores(t *testing.T, f func(t *testing.T, location string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, filepath.Join(t.TempDir(), "sub", "results.db")) })
	t.Run("postgres", func(t *testing.T) { f(t, storetest.PostgresURL(t)) })
}

func open(t *testing.T, location string) *Store {
	t.Helper()
	s, err := Open(context.Background(), location, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// count returns the rows of each table.
func count(t *testing.T, s *Store) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, tab := range []string{"uploads", "labels", "devices", "results", "bodies", "samples"} {
		var n int
		if err := s.db.QueryRow("SELECT COUNT(*) FROM " + tab).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[tab] = n
	}
	return out
}

var day0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func TestAddAndHistory(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		specs := storetest.Suite(4)
		for i := range 6 {
			scale := 1.0
			if i >= 3 {
				scale = 1.25
			}
			f := storetest.File(specs, storetest.Options{Created: day0.Add(time.Duration(i) * 24 * time.Hour), Device: storetest.Devices[2], Scale: scale, Seed: uint64(i)})
			a, err := s.Add(ctx, f, fmt.Sprintf("run%d.json", i), map[string]string{"commit": fmt.Sprintf("c%d", i), "branch": "main"})
			if err != nil {
				t.Fatal(err)
			}
			if a.Duplicate || a.Benchmarks != 4 || a.UploadID == 0 {
				t.Fatalf("added %+v", a)
			}
		}
		// Another device and driver, once.
		if _, err := s.Add(ctx, storetest.File(specs, storetest.Options{Created: day0, Device: storetest.Devices[0]}), "pocl.json", nil); err != nil {
			t.Fatal(err)
		}
		c := count(t, s)
		want := map[string]int{"uploads": 7, "labels": 12, "devices": 2, "results": 28, "bodies": 28, "samples": 280}
		if !reflect.DeepEqual(c, want) {
			t.Errorf("rows %v, want %v", c, want)
		}

		all, err := s.History(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 8 {
			t.Fatalf("%d series, want 8 (4 benchmarks x 2 devices)", len(all))
		}
		h, err := s.History(ctx, Filter{Pattern: specs[0].Name, Device: "h100"})
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 1 || len(h[0].Points) != 6 {
			t.Fatalf("history of %s on h100: %+v", specs[0].Name, h)
		}
		sr := h[0]
		if sr.Device != storetest.Devices[2].Name || sr.Driver != storetest.Devices[2].DriverVersion || sr.Params != "type=float n=1024" {
			t.Errorf("series %q %q %q", sr.Device, sr.Driver, sr.Params)
		}
		for i, p := range sr.Points {
			if !p.Created.Equal(day0.Add(time.Duration(i) * 24 * time.Hour)) {
				t.Errorf("point %d created %v", i, p.Created)
			}
			if p.Labels["commit"] != fmt.Sprintf("c%d", i) || p.N != 10 || p.CILow > p.Median || p.CIHigh < p.Median {
				t.Errorf("point %d: %+v", i, p)
			}
		}
		if r := float64(sr.Points[5].Median) / float64(sr.Points[0].Median); r < 1.2 || r > 1.3 {
			t.Errorf("the last run should be 25%% slower than the first: ratio %.3f", r)
		}
		// Labels, since and glob patterns.
		for _, tc := range []struct {
			f      Filter
			series int
			points int
		}{
			{Filter{Labels: map[string]string{"commit": "c4"}}, 4, 4},
			{Filter{Labels: map[string]string{"commit": "c4", "branch": "main"}}, 4, 4},
			{Filter{Labels: map[string]string{"commit": "c4", "branch": "dev"}}, 0, 0},
			{Filter{Since: day0.Add(72 * time.Hour)}, 4, 12},
			{Filter{Pattern: "*"}, 8, 28},
			{Filter{Pattern: "co?y"}, 2, 7},
			{Filter{Pattern: "s*"}, 2, 7},
			{Filter{Pattern: "*a*"}, 6, 21},
			{Filter{Device: "gpu"}, 4, 24},
			{Filter{Pattern: "cop"}, 0, 0},
			{Filter{Device: "pocl"}, 4, 4},
			// --device's grammar, as in run: platform:device, several parts.
			{Filter{Device: "1:0"}, 4, 24},
			{Filter{Device: "1:0,pocl"}, 8, 28},
			{Filter{Device: "all"}, 8, 28},
		} {
			h, err := s.History(ctx, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			pts := 0
			for _, sr := range h {
				pts += len(sr.Points)
			}
			if len(h) != tc.series || pts != tc.points {
				t.Errorf("%+v: %d series %d points, want %d and %d", tc.f, len(h), pts, tc.series, tc.points)
			}
		}
		// A device the store does not hold is an error that lists them, not
		// an empty history.
		if _, err := s.History(ctx, Filter{Device: "9:9"}); !errors.Is(err, devsel.ErrNoMatch) || !strings.Contains(err.Error(), "1:0 NVIDIA H100") {
			t.Errorf("--device 9:9: %v, want no device matches with the list", err)
		}
	})
}

func TestDuplicateIsNoop(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		f := storetest.File(storetest.Suite(3), storetest.Options{Device: storetest.Devices[1]})
		a, err := s.Add(ctx, f, "a.json", map[string]string{"k": "1"})
		if err != nil {
			t.Fatal(err)
		}
		before := count(t, s)
		// The same content read back from a file is the same upload.
		path := filepath.Join(t.TempDir(), "a.json")
		if err := results.WriteFile(path, f); err != nil {
			t.Fatal(err)
		}
		again, err := s.AddPaths(ctx, []string{path}, map[string]string{"k": "2"})
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != 1 || !again[0].Duplicate || again[0].UploadID != a.UploadID || again[0].Hash != a.Hash {
			t.Errorf("second add: %+v, first %+v", again, a)
		}
		if after := count(t, s); !reflect.DeepEqual(before, after) {
			t.Errorf("rows changed: %v -> %v", before, after)
		}
	})
}

func TestBadFileStoresNothing(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		dir := t.TempDir()
		good := filepath.Join(dir, "good.json")
		if err := results.WriteFile(good, storetest.File(storetest.Suite(3), storetest.Options{Device: storetest.Devices[0]})); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(good)
		bad := filepath.Join(dir, "bad.json")
		os.WriteFile(bad, data[:len(data)/2], 0o644)
		empty := filepath.Join(dir, "empty.json")
		ef := storetest.File(nil, storetest.Options{})
		results.WriteFile(empty, ef)
		for _, paths := range [][]string{{good, bad}, {good, empty}, {good, filepath.Join(dir, "missing.json")}} {
			_, err := s.AddPaths(ctx, paths, nil)
			if err == nil {
				t.Fatalf("%v: no error", paths)
			}
			t.Logf("%v", err)
		}
		if c := count(t, s); c["uploads"]+c["results"]+c["bodies"]+c["samples"]+c["labels"] != 0 {
			t.Errorf("rows after refused files: %v", c)
		}
		// A failure in the middle of an upload rolls all of it back.
		afterResult = func(i int) error {
			if i == 1 {
				return errors.New("injected failure")
			}
			return nil
		}
		defer func() { afterResult = nil }()
		if _, err := s.AddPaths(ctx, []string{good}, map[string]string{"a": "b"}); err == nil || err.Error() != "injected failure" {
			t.Fatalf("err %v", err)
		}
		if c := count(t, s); c["uploads"]+c["results"]+c["bodies"]+c["samples"]+c["labels"] != 0 {
			t.Errorf("rows after a failed upload: %v", c)
		}
		afterResult = nil
		if _, err := s.AddPaths(ctx, []string{good}, nil); err != nil {
			t.Fatal(err)
		}
		if c := count(t, s); c["uploads"] != 1 || c["results"] != 3 || c["samples"] != 30 {
			t.Errorf("rows after the retry: %v", c)
		}
	})
}

func TestResultRoundTrip(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		f := storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[4], Samples: 1200, Created: day0})
		a, err := s.Add(ctx, f, "x.json", map[string]string{"kernel": "v2"})
		if err != nil {
			t.Fatal(err)
		}
		h, err := s.History(ctx, Filter{Pattern: f.Benchmarks[1].Name})
		if err != nil || len(h) != 1 {
			t.Fatal(err, h)
		}
		r, err := s.Result(ctx, h[0].Points[0].ResultID)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(r.Benchmark)
		want, _ := json.Marshal(f.Benchmarks[1])
		if string(got) != string(want) {
			t.Errorf("benchmark read back differs:\n got %.300s\nwant %.300s", got, want)
		}
		if r.Upload.ID != a.UploadID || r.Upload.Hash != a.Hash || !r.Upload.Created.Equal(day0) || r.Upload.Labels["kernel"] != "v2" ||
			!reflect.DeepEqual(r.Upload.Host, f.Host) || !reflect.DeepEqual(r.Upload.CommandLine, f.CommandLine) {
			t.Errorf("upload %+v", r.Upload)
		}
		wantDev := f.Benchmarks[1].Device
		wantDev.Index = ""
		if !reflect.DeepEqual(r.Device.Info, wantDev) || r.Device.Driver != wantDev.DriverVersion {
			t.Errorf("device %+v", r.Device)
		}
		if _, err := s.Result(ctx, 999999); err == nil {
			t.Error("no error for a missing result")
		}
	})
}

// TestConcurrentWriters: 8 writers, each with its own connection pool as
// separate processes would have, add 6 files each plus one file all of them
// add; nothing is lost and the shared file is stored once.
func TestConcurrentWriters(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		open(t, loc) // create and migrate first, as the first run would
		specs := storetest.Suite(20)
		shared := storetest.File(specs, storetest.Options{Device: storetest.Devices[3], Created: day0})
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := Open(ctx, loc, Options{Create: true})
				if err != nil {
					errs <- err
					return
				}
				defer s.Close()
				for i := range 6 {
					f := storetest.File(specs, storetest.Options{Device: storetest.Devices[w%len(storetest.Devices)],
						Created: day0.Add(time.Duration(w*100+i) * time.Minute), Seed: uint64(w)})
					if _, err := s.Add(ctx, f, fmt.Sprintf("w%d-%d.json", w, i), map[string]string{"writer": fmt.Sprint(w)}); err != nil {
						errs <- err
						return
					}
					if i == 3 {
						if _, err := s.Add(ctx, shared, "shared.json", nil); err != nil {
							errs <- err
							return
						}
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		s := open(t, loc)
		c := count(t, s)
		want := map[string]int{"uploads": 49, "labels": 48, "devices": 5, "results": 49 * 20, "bodies": 49 * 20, "samples": 49 * 200}
		if !reflect.DeepEqual(c, want) {
			t.Errorf("rows %v, want %v", c, want)
		}
	})
}

func TestMigrations(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		v, err := s.schemaVersion(ctx, s.db)
		if err != nil || v != SchemaVersion() {
			t.Fatalf("version %d %v, want %d", v, err, SchemaVersion())
		}
		s.Add(ctx, storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0]}), "a.json", nil)
		s.Close()
		// A later migration applies once, over the data already there.
		saved := migrations
		t.Cleanup(func() { migrations = saved })
		migrations = append(append([]migration{}, saved...), migration{len(saved) + 1, "test column", "ALTER TABLE uploads ADD COLUMN note TEXT NOT NULL DEFAULT ''", nil})
		for range 2 {
			s2 := open(t, loc)
			var note string
			if err := s2.db.QueryRow("SELECT note FROM uploads").Scan(&note); err != nil {
				t.Fatal(err)
			}
			var n int
			s2.db.QueryRow("SELECT COUNT(*) FROM schema_migrations").Scan(&n)
			if n != len(migrations) {
				t.Errorf("%d migrations recorded, want %d", n, len(migrations))
			}
			s2.Close()
		}
		// This clmeter is now older than the store.
		migrations = saved
		_, err = Open(ctx, loc, Options{})
		if err == nil || !contains(err.Error(), "newer than this clmeter") {
			t.Errorf("opening a newer store: %v", err)
		}
		_, err = Open(ctx, loc, Options{ReadOnly: true})
		if err == nil {
			t.Error("read-only open of a newer store: no error")
		}
	})
}

func contains(s, sub string) bool {
	return len(sub) == 0 || len(s) >= len(sub) && (s == sub || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestReadOnly(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		s.Add(ctx, storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0]}), "a.json", nil)
		ro, err := Open(ctx, loc, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		if h, err := ro.History(ctx, Filter{}); err != nil || len(h) != 2 {
			t.Errorf("read-only history: %v %d", err, len(h))
		}
		if _, err := ro.Add(ctx, storetest.File(storetest.Suite(1), storetest.Options{Device: storetest.Devices[0], Seed: 9}), "b.json", nil); err == nil {
			t.Error("read-only store took an upload")
		}
		if _, err := ro.db.ExecContext(ctx, "DELETE FROM labels"); err == nil {
			t.Error("read-only connection ran a DELETE")
		}
	})
	_, err := Open(context.Background(), filepath.Join(t.TempDir(), "none.db"), Options{})
	if !errors.Is(err, ErrNoStore) {
		t.Errorf("missing file: %v", err)
	}
}

func TestLatest(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	specs := storetest.Suite(3)
	for i, dev := range []int{0, 0, 2} {
		f := storetest.File(specs[:2+i%2], storetest.Options{Device: storetest.Devices[dev], Created: day0.Add(time.Duration(i) * time.Hour), Scale: float64(1 + i)})
		if _, err := s.Add(ctx, f, "f", nil); err != nil {
			t.Fatal(err)
		}
	}
	devs, err := s.Devices(ctx)
	if err != nil || len(devs) != 2 {
		t.Fatal(err, devs)
	}
	if devs[0].Results+devs[1].Results != 7 {
		t.Errorf("devices %+v", devs)
	}
	var a, b int64
	for _, d := range devs {
		if d.Type == "CPU" {
			a = d.ID
		} else {
			b = d.ID
		}
	}
	pairs, err := s.Latest(ctx, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 3 {
		t.Fatalf("%d pairs: %+v", len(pairs), pairs)
	}
	for _, p := range pairs {
		if p.A == nil {
			t.Errorf("%s: no A", p.Benchmark)
			continue
		}
		// A's newest is run 1 (scale 2) for the first two, run 1 for the third.
		if p.B != nil && (p.Ratio() < 1.3 || p.Ratio() > 1.7) {
			t.Errorf("%s %s: ratio %.3f, want about 3/2", p.Benchmark, p.Params, p.Ratio())
		}
	}
	bs, err := s.Benchmarks(ctx)
	if err != nil || len(bs) != 3 {
		t.Errorf("benchmarks %v %v", bs, err)
	}
}

func TestGitLabels(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	if l := GitLabels(context.Background(), dir); len(l) != 0 {
		t.Errorf("outside a checkout: %v", l)
	}
	run := func(args ...string) {
		c := exec.Command("git", args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	run("init", "-q", "-b", "trunk")
	os.WriteFile(filepath.Join(dir, "a"), []byte("1"), 0o644)
	run("add", "a")
	run("commit", "-q", "-m", "one")
	l := GitLabels(context.Background(), dir)
	if len(l["commit"]) != 40 || l["branch"] != "trunk" || l["dirty"] != "" {
		t.Errorf("labels %v", l)
	}
	os.WriteFile(filepath.Join(dir, "a"), []byte("2"), 0o644)
	if l := GitLabels(context.Background(), dir); l["dirty"] != "true" {
		t.Errorf("dirty checkout: %v", l)
	}
}

func TestParseLabels(t *testing.T) {
	l, err := ParseLabels([]string{"commit=abc", "kernel.version=2=3"})
	if err != nil || l["commit"] != "abc" || l["kernel.version"] != "2=3" {
		t.Errorf("%v %v", l, err)
	}
	for _, bad := range []string{"novalue", "=x", "k=", "a b=c"} {
		if _, err := ParseLabels([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func init() {
	cleanupBig = func() {
		if big.dir != "" {
			os.RemoveAll(big.dir)
		}
	}
}
