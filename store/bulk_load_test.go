package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/clmeter/clmeter/store/storetest"
)

// TestBulkLoadIsAdd: a small fleet written by the scale benchmarks' bulk
// loader holds, table by table, row by row, what Add writes of it (ids
// included; the upload's time of adding left out), on SQLite and on
// PostgreSQL; and the loaded store takes a later Add.
func TestBulkLoadIsAdd(t *testing.T) {
	p := storetest.FleetPlan{Devices: 12, Runs: 3, Benchmarks: 7, Samples: 3}
	ctx := context.Background()
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			open := func(name string) *Store {
				loc := filepath.Join(t.TempDir(), name+".db")
				if d == Postgres {
					loc = storetest.PostgresURL(t)
				}
				st, err := Open(ctx, loc, Options{Create: true})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				return st
			}
			added, bulk := open("added"), open("bulk")
			for r := range 2 {
				for n := range p.Nodes() {
					if _, err := added.Add(ctx, p.File(r, n), "bulk", nil); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := bulkLoadPlan(ctx, bulk, p, 0, 2); err != nil {
				t.Fatal(err)
			}
			for _, st := range []*Store{added, bulk} {
				if _, err := st.Add(ctx, p.File(2, 0), "later", nil); err != nil {
					t.Fatal(err)
				}
			}
			for _, tc := range append(bulkColumns, struct {
				table string
				cols  []string
			}{"devices", []string{"id", "hash", "info"}}) {
				cols := slices.DeleteFunc(slices.Clone(tc.cols), func(c string) bool { return c == "added_ns" })
				want, got := dumpTable(t, added, tc.table, cols), dumpTable(t, bulk, tc.table, cols)
				if len(want) == 0 {
					t.Fatalf("%s: Add wrote no rows", tc.table)
				}
				if !slices.Equal(want, got) {
					i := 0
					for i < min(len(want), len(got)) && want[i] == got[i] {
						i++
					}
					t.Errorf("%s: bulk load wrote %d rows, Add %d; first difference at row %d:\nadd:  %s\nbulk: %s", tc.table, len(got), len(want), i,
						at(want, i), at(got, i))
				}
			}
		})
	}
}

func at(rows []string, i int) string {
	if i < len(rows) {
		return rows[i]
	}
	return "(none)"
}

// dumpTable returns every row of table's cols, each as one line, in the
// order of the columns.
func dumpTable(t *testing.T, st *Store, table string, cols []string) []string {
	t.Helper()
	order := ""
	for i := range cols {
		order += fmt.Sprintf(", %d", i+1)
	}
	q := "SELECT "
	for i, c := range cols {
		if i > 0 {
			q += ", "
		}
		q += "CAST(" + c + " AS TEXT)"
	}
	rows, err := st.db.Query(q + " FROM " + table + " ORDER BY " + order[2:])
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		line := ""
		for i, v := range vals {
			line += fmt.Sprintf("%s=%q ", cols[i], v.String)
			if !v.Valid {
				line += "(null) "
			}
		}
		out = append(out, line)
	}
	return out
}
