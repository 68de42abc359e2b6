package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

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
