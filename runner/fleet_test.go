package runner

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/fleet"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// deadURL is a PostgreSQL URL on a loopback port nothing listens on.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "postgres://clmeter:secret@" + addr + "/results"
}

// TestUploadRetriesThenKeeps: while the store does not answer, the upload
// is tried again with backoff; after the last try the results are in a
// JSON file that 'store add' takes, the error says so, and no password is
// shown.
func TestUploadRetriesThenKeeps(t *testing.T) {
	t.Chdir(t.TempDir())
	f := storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0], Created: time.Date(2026, 11, 28, 1, 2, 3, 0, time.UTC)})
	f.Fleet = &results.FleetInfo{Run: "camp", Shard: 1, Shards: 4, Node: "n2"}
	var stderr bytes.Buffer
	err := saveToStore(context.Background(), deadURL(t), nil, "", *f, &stderr, Backoff{Total: 300 * time.Millisecond, First: 50 * time.Millisecond})
	if err == nil || !errors.Is(err, store.ErrUnreachable) {
		t.Fatalf("error %v, want the store unreachable", err)
	}
	if n := strings.Count(stderr.String(), "trying again"); n < 2 {
		t.Errorf("%d retries, want at least 2:\n%s", n, stderr.String())
	}
	name := "clmeter-unstored-camp-n2-shard1of4-attempt0.json"
	if !strings.Contains(err.Error(), "clmeter store add --store postgres://clmeter:xxxxx@") || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "secret") {
		t.Errorf("error %q: want the store add command for %s, without the password", err, name)
	}
	back, rerr := results.Read(name)
	if rerr != nil || len(back.Benchmarks) != 2 || back.Fleet == nil || back.Fleet.Run != "camp" {
		t.Fatalf("the kept file: %v, %+v", rerr, back)
	}
	// 'store add' takes it later: the fleet and its labels come along.
	loc := filepath.Join(t.TempDir(), "r.db")
	st, err := store.Open(context.Background(), loc, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	added, err := st.AddPaths(context.Background(), []string{name}, nil)
	if err != nil || len(added) != 1 || added[0].Labels["fleet.shard"] != "1/4" {
		t.Fatalf("store add: %+v, %v", added, err)
	}
}

// TestUploadNoRetryOtherErrors: an error that is no unreachable server
// (here a store file that is no SQLite database) is not tried again and
// writes no file.
func TestUploadNoRetryOtherErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	bad := filepath.Join(dir, "bad.db")
	os.WriteFile(bad, []byte("not a database, not at all, not SQLite"), 0o644)
	f := storetest.File(storetest.Suite(1), storetest.Options{Device: storetest.Devices[0], Created: time.Now()})
	var stderr bytes.Buffer
	err := saveToStore(context.Background(), bad, nil, "", *f, &stderr, Backoff{Total: time.Minute})
	if err == nil || errors.Is(err, store.ErrUnreachable) || strings.Contains(stderr.String(), "trying again") {
		t.Fatalf("error %v, stderr %q: want one try and its error", err, stderr.String())
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "clmeter-unstored-*")); len(m) != 0 {
		t.Errorf("kept %v for an error that is no unreachable server", m)
	}
}

// TestShardItems: a spec's configurations split into shards, each device's
// items of one configuration together.
func TestShardItems(t *testing.T) {
	var items []runItem
	for _, dev := range []string{"a", "b"} {
		for _, n := range []string{"1", "2", "3", "4", "5"} {
			items = append(items, runItem{name: "k", kind: dev, params: []results.Param{{Name: "N", Value: n}}})
		}
	}
	seen := map[string]int{}
	for i := range 2 {
		var stderr bytes.Buffer
		got, err := shardItems(items, fleet.Shard{Index: i, Count: 2}, "sweep.yaml", &stderr)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range got {
			seen[it.kind+" "+itemName(it)]++
		}
		if !strings.Contains(stderr.String(), "of 5 item(s)") {
			t.Errorf("note %q", stderr.String())
		}
	}
	if len(seen) != 10 {
		t.Errorf("%d items across the shards, want 10: %v", len(seen), seen)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s in %d shards", k, n)
		}
	}
	if _, err := shardItems(items, fleet.Shard{Index: 5, Count: 6}, "sweep.yaml", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "holds none") {
		t.Errorf("an empty shard: %v", err)
	}
}
