package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// twinFiles are runs of one benchmark on two identical GPUs (one name,
// driver and figures; two UUIDs), and on the first of them again under
// another index.
func twinFiles() []*results.File {
	gpu := storetest.Devices[2]
	a, b := gpu, gpu
	a.UUID, a.Host = "1a2b3c4d-0000-0000-0000-00000000000a", "node-1"
	b.UUID, b.Host, b.Index = "5e6f7081-0000-0000-0000-00000000000b", "node-1", "1:1"
	a.Key, _ = results.DeviceKey(a)
	b.Key, _ = results.DeviceKey(b)
	moved := a
	moved.Index = "1:1" // CUDA_VISIBLE_DEVICES listed it second
	specs := storetest.Suite(1)
	var out []*results.File
	for i, d := range []results.DeviceInfo{a, b, moved} {
		out = append(out, storetest.File(specs, storetest.Options{Created: day0.Add(time.Duration(i) * time.Hour), Device: d, Seed: uint64(i)}))
	}
	return out
}

// TestSeriesByDeviceKey stores two identical GPUs that differ only by
// their keys, and one of them again under another index: history has two
// series, told apart by Which; the moved GPU's run joins its series.
func TestSeriesByDeviceKey(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		for i, f := range twinFiles() {
			if _, err := s.Add(ctx, f, "twin.json", map[string]string{"run": string(rune('a' + i))}); err != nil {
				t.Fatal(err)
			}
		}
		h, err := s.History(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 2 {
			t.Fatalf("%d series, want 2 (one per GPU): %+v", len(h), h)
		}
		if h[0].DeviceKey == h[1].DeviceKey || h[0].Which != "uuid 1a2b3c4d" || h[1].Which != "uuid 5e6f7081" {
			t.Errorf("series keys %q %q, which %q %q", h[0].DeviceKey, h[1].DeviceKey, h[0].Which, h[1].Which)
		}
		if len(h[0].Points) != 2 || len(h[1].Points) != 1 {
			t.Errorf("points %d and %d, want 2 (the GPU under two indexes) and 1", len(h[0].Points), len(h[1].Points))
		}
		if k := h[0].Key(); k != "copy type=float n=1024 @ NVIDIA H100 80GB HBM3 [uuid 1a2b3c4d] (driver 550.54.15)" {
			t.Errorf("series key text %q", k)
		}
		// --device takes a stored UUID as text.
		h, err = s.History(ctx, Filter{Device: "5e6f7081"})
		if err != nil || len(h) != 1 || h[0].Which != "" || !strings.HasPrefix(h[0].DeviceKey, "uuid:5e6f7081") {
			t.Errorf("--device 5e6f7081: %v %+v", err, h)
		}
	})
}

// TestMigrationFillsDeviceKeys takes a store back to schema 1 (no device
// key) with two devices of one name at two indexes, from a file without
// keys, and opens it: the migration gives each result the key Add would
// have, so history shows two series.
func TestMigrationFillsDeviceKeys(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		specs := storetest.Suite(2)
		d0 := storetest.Devices[0]
		d1 := d0
		d1.Index = "0:1"
		for i, d := range []results.DeviceInfo{d0, d1} {
			f := storetest.File(specs, storetest.Options{Created: day0.Add(time.Duration(i) * time.Hour), Device: d, Seed: uint64(i)})
			if _, err := s.Add(ctx, f, "legacy.json", nil); err != nil {
				t.Fatal(err)
			}
		}
		want := deviceKeys(t, s)
		if len(want) != 4 || want[0] == want[2] {
			t.Fatalf("keys as added: %q", want)
		}
		backToSchema1(t, s)
		s.Close()
		s2 := open(t, loc)
		if got := deviceKeys(t, s2); len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
			t.Errorf("keys after the migration %q, want %q", got, want)
		}
		h, err := s2.History(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 4 {
			t.Errorf("%d series after the migration, want 4 (2 benchmarks x 2 devices)", len(h))
		}
	})
}

// deviceKeys returns every result's device key in id order.
func deviceKeys(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := s.db.Query("SELECT device_key FROM results ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		out = append(out, k)
	}
	return out
}

// backToSchema1 takes store s back to schema 1, undoing migrations 2-4, so
// that a test can watch the migrations run again on its rows.
func backToSchema1(t *testing.T, s *Store) {
	t.Helper()
	for _, stmt := range []string{
		"DROP INDEX results_failed",
		"DROP INDEX results_device_index",
		"DROP INDEX results_history",
		"ALTER TABLE results DROP COLUMN device_key",
		"CREATE INDEX results_history ON results (name, ok, params, device_id, created_ns, id, upload_id, median_ns, ci_low_ns, ci_high_ns, n, cv, valid)",
		"DROP TABLE fleet_tasks",
		"DELETE FROM schema_migrations WHERE version > 1",
	} {
		if _, err := s.db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}
