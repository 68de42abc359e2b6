package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// TestStoredPairsIsDistinct: the loose index scan finds exactly the
// (device row, index) pairs a plain SELECT DISTINCT finds, in its order,
// on SQLite and PostgreSQL: here 12 GPUs over two nodes and two drivers
// (24 device rows, 8 indexes), plus a CPU at index 0:0 of another host.
func TestStoredPairsIsDistinct(t *testing.T) {
	ctx := context.Background()
	p := storetest.FleetPlan{Devices: 12, Runs: 2, Benchmarks: 3, Samples: 2}
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			loc := filepath.Join(t.TempDir(), "r.db")
			if d == Postgres {
				loc = storetest.PostgresURL(t)
			}
			st, err := Open(ctx, loc, Options{Create: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if got, err := st.storedPairs(ctx); err != nil || len(got) != 0 {
				t.Fatalf("an empty store: %v %v", got, err)
			}
			if err := bulkLoadPlan(ctx, st, p, 0, p.Runs); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Add(ctx, storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[0]}), "cpu", nil); err != nil {
				t.Fatal(err)
			}
			rows, err := st.db.QueryContext(ctx, `SELECT DISTINCT device_id, device_index FROM results ORDER BY device_index, device_id`)
			if err != nil {
				t.Fatal(err)
			}
			var want []devicePair
			for rows.Next() {
				var dp devicePair
				rows.Scan(&dp.id, &dp.index)
				want = append(want, dp)
			}
			rows.Close()
			got, err := st.storedPairs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != 25 || !slices.Equal(got, want) {
				t.Errorf("loose index scan: %v\nSELECT DISTINCT (want 25): %v", got, want)
			}
		})
	}
}

// TestHistoryLatestAttemptPerNode: a retried per-node task (no shards) is
// one run in history, its latest attempt; another node's task stays.
func TestHistoryLatestAttemptPerNode(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		dev := storetest.Devices[2]
		dev.UUID = "0badcafe-0000-4000-8000-000000000001"
		dev.Key, _ = results.DeviceKey(dev)
		other := dev
		other.UUID = "0badcafe-0000-4000-8000-000000000002"
		other.Key, _ = results.DeviceKey(other)
		var want []int64
		for i, f := range []*results.File{fleetFile(0, 0, 0, "n1", day0, dev), fleetFile(0, 0, 1, "n1", day0.Add(time.Minute), dev),
			fleetFile(0, 0, 0, "n2", day0.Add(2*time.Minute), other)} {
			a, err := s.Add(ctx, f, "f.json", nil)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				want = append(want, a.UploadID)
			}
		}
		series, err := s.History(ctx, Filter{Pattern: storetest.Suite(2)[0].Name})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, se := range series {
			for _, p := range se.Points {
				got = append(got, p.UploadID)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("uploads in history %v, want %v (node n1's first attempt left out)", got, want)
		}
	})
}
