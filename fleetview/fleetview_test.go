package fleetview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
	"github.com/clmeter/clmeter/table"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.StopShared()
	os.Exit(code)
}

// stores runs f against a new SQLite store and a new PostgreSQL database.
func stores(t *testing.T, f func(t *testing.T, st *store.Store)) {
	run := func(t *testing.T, loc string) {
		st, err := store.Open(context.Background(), loc, store.Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		f(t, st)
	}
	t.Run("sqlite", func(t *testing.T) { run(t, filepath.Join(t.TempDir(), "results.db")) })
	t.Run("postgres", func(t *testing.T) { run(t, storetest.PostgresURL(t)) })
}

var day0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// gpu is an H100 with UUID uuid, its key set from it.
func gpu(uuid string) results.DeviceInfo {
	d := storetest.Devices[2]
	d.UUID = uuid
	d.Key, d.KeyFallback = results.DeviceKey(d)
	return d
}

// A task is one upload of a synthetic fleet run.
type task struct {
	shard, shards, attempt int
	node                   string
	devs                   []results.DeviceInfo
	// scale multiplies the medians of the device of each index (1: as is).
	scale map[int]float64
	specs []storetest.Spec
	// failOne makes the file's first benchmark a failure, and adds a
	// record without samples (a summary's), which is no failure.
	failOne bool
}

// add stores t as one result file of run, every device's benchmarks in it.
func add(t *testing.T, st *store.Store, run string, tk task) {
	t.Helper()
	created := day0.Add(time.Duration(tk.attempt) * time.Hour)
	var f *results.File
	for i, d := range tk.devs {
		scale := tk.scale[i]
		g := storetest.File(tk.specs, storetest.Options{Created: created, Device: d, Scale: scale, Seed: uint64(i + 7*tk.shard), Hostname: "host-" + tk.node})
		if f == nil {
			f = g
			continue
		}
		f.Benchmarks = append(f.Benchmarks, g.Benchmarks...)
	}
	if tk.failOne {
		f.Benchmarks[0].Error, f.Benchmarks[0].Measurement = "kernel timed out", nil
		sum := f.Benchmarks[1]
		sum.Name, sum.Measurement = "quick/summary", nil
		f.Benchmarks = append(f.Benchmarks, sum)
	}
	f.CommandLine = []string{"clmeter", "suite", "quick", "--device", "gpu", "--shards", fmt.Sprint(tk.shards), "--shard", "auto", "-o", "q.json"}
	f.Fleet = &results.FleetInfo{Run: run, Shard: tk.shard, Shards: tk.shards, Attempt: tk.attempt, Node: tk.node, Scheduler: "slurm"}
	if _, err := st.Add(context.Background(), f, "task.json", nil); err != nil {
		t.Fatal(err)
	}
}

// nodes: two nodes of two identical GPUs each.
var (
	n1 = []results.DeviceInfo{gpu("1111aaaa-0000-0000-0000-000000000001"), gpu("2222bbbb-0000-0000-0000-000000000002")}
	n2 = []results.DeviceInfo{gpu("3333cccc-0000-0000-0000-000000000003"), gpu("4444dddd-0000-0000-0000-000000000004")}
)

// TestFleetNodes: every node runs every benchmark (node acceptance); n2's
// second GPU is 10% slow and is flagged, told apart from its twins by node
// and UUID; n1's first attempt, retried, is not counted (its figures, 50%
// slow, would flag n1's devices and repeat every benchmark).
func TestFleetNodes(t *testing.T) {
	stores(t, func(t *testing.T, st *store.Store) {
		specs := storetest.Suite(4)
		add(t, st, "acc", task{node: "n1", devs: n1, scale: map[int]float64{0: 1.5, 1: 1.5}, specs: specs})
		add(t, st, "acc", task{node: "n1", attempt: 1, devs: n1, specs: specs})
		add(t, st, "acc", task{node: "n2", devs: n2, scale: map[int]float64{1: 1.1}, specs: specs})
		v, err := Build(context.Background(), st, "acc", 0)
		if err != nil {
			t.Fatal(err)
		}
		labels := []string{}
		for _, c := range v.Columns {
			labels = append(labels, c.Label)
		}
		if want := "n1/1111aaaa n1/2222bbbb n2/3333cccc n2/4444dddd"; strings.Join(labels, " ") != want {
			t.Errorf("columns %v, want %s", labels, want)
		}
		if len(v.Matrix.Rows) != len(specs) {
			t.Errorf("%d rows, want %d", len(v.Matrix.Rows), len(specs))
		}
		for _, n := range v.Matrix.Notes {
			if strings.Contains(n, "repeat") {
				t.Errorf("a retried task counted twice: %s", n)
			}
		}
		if testing.Verbose() {
			v.WriteTable(os.Stdout, 80)
		}
		if len(v.Matrix.Outliers) != len(specs) {
			t.Fatalf("outliers %+v, want n2/4444dddd on each of %d benchmarks", v.Matrix.Outliers, len(specs))
		}
		for _, o := range v.Matrix.Outliers {
			if o.Device != "n2/4444dddd" || o.Key != "uuid:4444dddd-0000-0000-0000-000000000004" || o.Worse < 0.07 || o.Worse > 0.11 {
				t.Errorf("outlier %+v, want n2/4444dddd about 9%% worse", o)
			}
		}
		if v.Superseded != 2 || len(v.Slots) != 4 || len(v.Nodes) != 2 {
			t.Errorf("superseded %d, slots %+v, nodes %+v", v.Superseded, v.Slots, v.Nodes)
		}
		if !errors.Is(v.Err(), peers.ErrOutliers) {
			t.Errorf("Err %v", v.Err())
		}
		var out bytes.Buffer
		if err := v.WriteTable(&out, 80); err != nil {
			t.Fatal(err)
		}
		checkWidth(t, out.String(), 80)
		flat := strings.Join(strings.Fields(out.String()), " ")
		for _, want := range []string{"n2/4444dddd", "slow: n2/4444dddd", "2 earlier attempt(s) superseded", "clmeter history --device-key uuid:4444dddd-0000-0000-0000-000000000004 --regressions"} {
			if !strings.Contains(flat, want) {
				t.Errorf("table lacks %q:\n%s", want, out.String())
			}
		}
	})
}

// TestFleetShards: a sharded run with a shard retried on another node, a
// shard that failed a benchmark and one never run: the retried shard
// counts once, the missing one comes with its rerun command; the formats.
func TestFleetShards(t *testing.T) {
	stores(t, func(t *testing.T, st *store.Store) {
		specs := storetest.Suite(8)
		part := func(k int) []storetest.Spec { return []storetest.Spec{specs[k], specs[k+4]} }
		add(t, st, "r2", task{shard: 0, shards: 4, node: "n1", devs: n1, specs: part(0)})
		add(t, st, "r2", task{shard: 0, shards: 4, attempt: 1, node: "n2", devs: n2, specs: part(0)})
		add(t, st, "r2", task{shard: 1, shards: 4, node: "n2", devs: n2, specs: part(1)})
		add(t, st, "r2", task{shard: 3, shards: 4, node: "n1", devs: n1, specs: part(3), failOne: true})
		v, err := Build(context.Background(), st, "r2", 0.05)
		if err != nil {
			t.Fatal(err)
		}
		states := []string{}
		for _, s := range v.Slots {
			states = append(states, fmt.Sprintf("%d:%s:%s", s.Shard, s.State, s.Node))
		}
		if want := "0:ok:n2 1:ok:n2 2:missing: 3:failed:n1"; strings.Join(states, " ") != want || v.Slots[3].Failed != 1 {
			t.Errorf("slots %v, want %s", states, want)
		}
		miss := v.Slots[2]
		if want := "clmeter suite quick --device gpu --shard 2/4 --fleet-run r2 -o clmeter-r2-2-rerun.json"; miss.Command != want {
			t.Errorf("rerun %q, want %q", miss.Command, want)
		}
		if want := "sbatch --array=2 --export=ALL,CLMETER_FLEET_RUN=r2 SCRIPT"; miss.Sbatch != want {
			t.Errorf("sbatch %q, want %q", miss.Sbatch, want)
		}
		// Shard 0 once, on n2 (its retry): 6 benchmarks, n1 has shard 3's only.
		if len(v.Matrix.Rows) != 6 {
			t.Errorf("%d rows, want 6 (shards 0, 1, 3 of two benchmarks)", len(v.Matrix.Rows))
		}
		n1cells := 0
		for _, r := range v.Matrix.Rows {
			if r.Cells[0] != nil {
				n1cells++
			}
		}
		if v.Columns[0].Label != "n1/1111aaaa" || n1cells != 2 {
			t.Errorf("column 0 %q has %d figures, want n1/1111aaaa with shard 3's 2", v.Columns[0].Label, n1cells)
		}
		var js bytes.Buffer
		if err := v.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		var back View
		if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Slots[2].Command != miss.Command || len(back.Matrix.Rows) != 6 {
			t.Errorf("JSON round trip: %v %+v", err, back.Slots)
		}
		var md bytes.Buffer
		if err := v.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"# Fleet run r2", "| 2/4 | missing |", "```\n" + miss.Command + "\n```", "| benchmark | unit | n1/1111aaaa |"} {
			if !strings.Contains(md.String(), want) {
				t.Errorf("markdown lacks %q:\n%s", want, md.String())
			}
		}
		var tb bytes.Buffer
		v.WriteTable(&tb, 80)
		checkWidth(t, tb.String(), 80)
		if !strings.Contains(tb.String(), "missing shard 2/4: run it with") {
			t.Errorf("table lacks the missing shard:\n%s", tb.String())
		}
	})
}

// TestFleetUnknownRun: a run the store holds nothing of is one usage line.
func TestFleetUnknownRun(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "r.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = Build(context.Background(), st, "nope", 0)
	if err == nil || !strings.Contains(err.Error(), `fleet run "nope"`) {
		t.Errorf("err %v", err)
	}
}

// checkWidth fails when a line of out is wider than width.
func checkWidth(t *testing.T, out string, width int) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if table.Len(l) > width {
			t.Errorf("line of %d columns, over %d: %q", table.Len(l), width, l)
		}
	}
}

// TestFleetWide: two nodes of eight identical GPUs, one slow: at 80
// columns the sixteen columns go on into further tables, every line fits,
// and the slow GPU is named.
func TestFleetWide(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for n, node := range []string{"n1", "n2"} {
		var devs []results.DeviceInfo
		for i := range 8 {
			devs = append(devs, gpu(fmt.Sprintf("%d%d00beef-0000-0000-0000-000000000000", n+1, i)))
		}
		scale := map[int]float64{}
		if n == 1 {
			scale[5] = 1.1
		}
		add(t, st, "wide", task{node: node, devs: devs, scale: scale, specs: storetest.Suite(3)})
	}
	v, err := Build(context.Background(), st, "wide", 0)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := v.WriteTable(&out, 80); err != nil {
		t.Fatal(err)
	}
	checkWidth(t, out.String(), 80)
	if n := strings.Count(out.String(), "BENCHMARK"); len(v.Columns) != 16 || n < 2 {
		t.Errorf("%d columns in %d tables, want 16 in several", len(v.Columns), n)
	}
	if !strings.Contains(out.String(), "slow: n2/2500beef") {
		t.Errorf("the slow GPU is not named:\n%s", out.String())
	}
}
