package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// fleetStore is a SQLite store in dir holding fleet run "acc": two nodes
// (n1, n2) of two GPUs each, n2's second 10% slow.
func fleetStore(t *testing.T, dir string) string {
	t.Helper()
	db := filepath.Join(dir, "fleet.db")
	for n, node := range []string{"n1", "n2"} {
		var f *results.File
		for i := range 2 {
			d := storetest.Devices[2]
			d.UUID = fmt.Sprintf("%d%d000000-0000-0000-0000-000000000000", n+1, i+1)
			d.Key, d.KeyFallback = results.DeviceKey(d)
			scale := 1.0
			if n == 1 && i == 1 {
				scale = 1.1
			}
			g := storetest.File(storetest.Suite(3), storetest.Options{Created: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Device: d, Scale: scale, Seed: uint64(10*n + i), Hostname: node})
			if f == nil {
				f = g
			} else {
				f.Benchmarks = append(f.Benchmarks, g.Benchmarks...)
			}
		}
		f.Fleet = &results.FleetInfo{Run: "acc", Node: node, Scheduler: "slurm"}
		path := filepath.Join(dir, node+".json")
		if err := results.WriteFile(path, f); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := clm(t, "store", "add", "--store", db, path); code != 0 {
			t.Fatalf("store add: %d %s", code, errs)
		}
	}
	return db
}

// TestFleetViewGate: 'fleet view' over two nodes' result files added to a
// SQLite store: the 10% slow GPU is named; --fail-on-outlier exits 6 after
// printing the view, a wider --outlier-tolerance lets it pass; markdown;
// a bad tolerance and an unknown run are usage errors.
func TestFleetViewGate(t *testing.T) {
	db := fleetStore(t, t.TempDir())
	code, out, errs := clm(t, "fleet", "view", "--store", db, "--fail-on-outlier", "acc")
	if code != 6 || !strings.Contains(out, "slow: n2/22000000") || !strings.Contains(errs, "n2/22000000") {
		t.Errorf("--fail-on-outlier: exit %d, want 6 naming n2/22000000\n%s\n%s", code, out, errs)
	}
	if code, _, errs := clm(t, "fleet", "view", "--store", db, "--fail-on-outlier", "--outlier-tolerance", "15%", "acc"); code != 0 {
		t.Errorf("--outlier-tolerance 15%%: exit %d, %s", code, errs)
	}
	if code, md, _ := clm(t, "fleet", "view", "--store", db, "--format", "markdown", "acc"); code != 0 || !strings.Contains(md, "| benchmark | unit | n1/11000000 | n1/12000000 | n2/21000000 | n2/22000000 |") {
		t.Errorf("markdown: exit %d\n%s", code, md)
	}
	for _, args := range [][]string{{"--outlier-tolerance", "0", "acc"}, {"nope"}, {}} {
		if code, _, errs := clm(t, append([]string{"fleet", "view", "--store", db}, args...)...); code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("fleet view %v: exit %d, want 2 with one line: %q", args, code, errs)
		}
	}
}
