package dashboard

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/pagecheck"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// fleetStore is a store holding fleet run "acc": nodes n1 and n2 of two
// identical GPUs each, every node running every benchmark, n2's second GPU
// 10% slow, n1's task retried (its first attempt 50% slow); and run "r2",
// sharded in 4, shard 2 never run.
func fleetStore(t *testing.T, gpus int) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "f.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	specs := storetest.Suite(6)
	node := func(run, name string, first, attempt, shard, shards int, slow map[int]float64, specs []storetest.Spec) {
		var f *results.File
		for i := range gpus {
			d := storetest.Devices[2]
			d.UUID = fmt.Sprintf("%08x-0000-0000-0000-%012d", 0x1111aaaa*(first+i+1), first+i)
			d.Key, d.KeyFallback = results.DeviceKey(d)
			g := storetest.File(specs, storetest.Options{Created: day0.Add(time.Duration(attempt) * time.Hour), Device: d, Scale: slow[i], Seed: uint64(first + i), Hostname: "host-" + name})
			if f == nil {
				f = g
			} else {
				f.Benchmarks = append(f.Benchmarks, g.Benchmarks...)
			}
		}
		f.Fleet = &results.FleetInfo{Run: run, Node: name, Attempt: attempt, Shard: shard, Shards: shards, Scheduler: "slurm"}
		if _, err := st.Add(context.Background(), f, run+".json", nil); err != nil {
			t.Fatal(err)
		}
	}
	node("acc", "n1", 0, 0, 0, 0, map[int]float64{0: 1.5, 1: 1.5}, specs)
	node("acc", "n1", 0, 1, 0, 0, nil, specs)
	node("acc", "n2", gpus, 0, 0, 0, map[int]float64{1: 1.1}, specs)
	for _, k := range []int{0, 1, 3} {
		node("r2", fmt.Sprintf("n%d", k%2+1), 0, 0, k, 4, nil, specs[k:k+1])
	}
	return st
}

// TestFleetPages: the fleet runs' list and a run's page: both nodes' GPUs
// side by side, the slow one flagged, the retried task counted once, the
// missing shard with its command; an unknown run is a 404.
func TestFleetPages(t *testing.T) {
	st := fleetStore(t, 2)
	srv := httptest.NewServer(New(st, 0))
	defer srv.Close()
	code, list := get(t, srv.URL+"/fleet")
	if code != 200 || !strings.Contains(list, `href="/fleet/acc"`) || !strings.Contains(list, `href="/fleet/r2"`) {
		t.Errorf("/fleet: %d\n%s", code, list)
	}
	code, page := get(t, srv.URL+"/fleet/acc")
	if code != 200 {
		t.Fatalf("/fleet/acc: %d\n%s", code, page)
	}
	slow := fmt.Sprintf("n2/%08x", 0x1111aaaa*4)
	for _, want := range []string{">n1/1111aaaa</th>", ">n2/" + fmt.Sprintf("%08x", 0x1111aaaa*3) + "</th>", "slow: " + slow,
		"2 earlier attempt(s) superseded", "clmeter history --device-key uuid:"} {
		if !strings.Contains(page, want) {
			t.Errorf("/fleet/acc lacks %q", want)
		}
	}
	if n := strings.Count(page, "<td class=\"num regression\">"); n != 6 {
		t.Errorf("/fleet/acc flags %d figures, want %s's 6", n, slow)
	}
	_, r2 := get(t, srv.URL+"/fleet/r2")
	if !strings.Contains(r2, "Missing shard 2/4: run it with") || !strings.Contains(r2, "--shard 2/4 --fleet-run r2") {
		t.Errorf("/fleet/r2 lacks the missing shard's command")
	}
	if code, _ := get(t, srv.URL+"/fleet/nope"); code != 404 {
		t.Errorf("/fleet/nope: %d, want 404", code)
	}
}

// TestFleetGeometryInChromium loads the fleet pages in headless Chromium,
// with 2 and with 8 GPUs a node (16 columns), at 1400 and 800 px: no text
// overlaps or is clipped, and the page is no wider than the window (the
// matrix scrolls in its box).
func TestFleetGeometryInChromium(t *testing.T) {
	browser := chromium(t)
	for _, gpus := range []int{2, 8} {
		srv := httptest.NewServer(pagecheck.Inject(New(fleetStore(t, gpus), 0)))
		for _, p := range []string{"/fleet", "/fleet/acc", "/fleet/r2"} {
			for _, width := range []int{1400, 800} {
				v, err := pagecheck.Check(context.Background(), browser, srv.URL+p, width, 2000, filepath.Join(t.TempDir(), "profile"))
				if err != nil {
					t.Fatal(err)
				}
				for _, pr := range v.Problems {
					t.Errorf("%d GPUs, %s at %d px: %s", gpus, p, width, pr)
				}
				t.Logf("%d GPUs, %s at %d px: %d text boxes, %g px wide", gpus, p, width, v.Texts, v.Width)
			}
		}
		srv.Close()
	}
}
