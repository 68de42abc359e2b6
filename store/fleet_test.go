package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// fleetFile is a result file of one task of fleet run "r1".
func fleetFile(shard, shards, attempt int, node string, created time.Time, dev results.DeviceInfo) *results.File {
	f := storetest.File(storetest.Suite(2), storetest.Options{Created: created, Device: dev, Seed: uint64(created.Unix()), Hostname: "vm"})
	f.Fleet = &results.FleetInfo{Run: "r1", Shard: shard, Shards: shards, Attempt: attempt, Node: node, Scheduler: "slurm",
		Labels: map[string]string{"slurm.job_id": fmt.Sprint(100 + shard + 10*attempt)}}
	return f
}

// TestFleetAttempts: every attempt is kept; the latest of each shard is
// marked, also when the retry ran on another node; a shard never run is
// missing; the scheduler's labels and the fleet's are the upload's labels.
func TestFleetAttempts(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		dev := storetest.Devices[0]
		add := func(f *results.File) int64 {
			a, err := s.Add(ctx, f, "task.json", map[string]string{"branch": "main"})
			if err != nil {
				t.Fatal(err)
			}
			return a.UploadID
		}
		first := add(fleetFile(0, 4, 0, "n1", day0, dev))
		retry := add(fleetFile(0, 4, 1, "n2", day0.Add(time.Minute), dev))
		other := add(fleetFile(1, 4, 0, "n2", day0, dev))
		third := add(fleetFile(3, 4, 0, "n1", day0, dev))
		// Re-adding a file stays a no-op: no second row.
		f := fleetFile(3, 4, 0, "n1", day0, dev)
		if a, err := s.Add(ctx, f, "again.json", nil); err != nil || !a.Duplicate {
			t.Fatalf("re-add: %+v, %v", a, err)
		}
		tasks, err := s.FleetTasks(ctx, "r1")
		if err != nil {
			t.Fatal(err)
		}
		var latest, all []int64
		for _, tk := range tasks {
			all = append(all, tk.UploadID)
			if tk.Latest {
				latest = append(latest, tk.UploadID)
			}
		}
		if want := []int64{retry, first, other, third}; !slices.Equal(all, want) {
			t.Errorf("tasks %v, want %v", all, want)
		}
		if want := []int64{retry, other, third}; !slices.Equal(latest, want) {
			t.Errorf("latest %v, want %v", latest, want)
		}
		if m := MissingShards(tasks); !slices.Equal(m, []int{2}) {
			t.Errorf("missing %v, want [2]", m)
		}
		var labels = map[string]string{}
		rows, err := s.db.Query(s.q("SELECT key, value FROM labels WHERE upload_id = ?"), retry)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var k, v string
			rows.Scan(&k, &v)
			labels[k] = v
		}
		rows.Close()
		want := map[string]string{"branch": "main", "slurm.job_id": "110", "fleet.run": "r1", "fleet.node": "n2", "fleet.shard": "0/4", "fleet.attempt": "1"}
		for k, v := range want {
			if labels[k] != v {
				t.Errorf("label %s=%q, want %q (all %v)", k, labels[k], v, labels)
			}
		}
	})
}

// TestFleetPerNode: tasks that ran every benchmark (one per node) count per
// device: the latest attempt of each device, two devices side by side.
func TestFleetPerNode(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		a, b := storetest.Devices[0], storetest.Devices[0]
		a.Key, b.Key = "uuid:aaaa", "uuid:bbbb"
		var ids []int64
		for _, f := range []*results.File{fleetFile(0, 0, 0, "n1", day0, a), fleetFile(0, 0, 0, "n2", day0, b), fleetFile(0, 0, 1, "n1", day0.Add(time.Hour), a)} {
			ad, err := s.Add(ctx, f, "node.json", nil)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, ad.UploadID)
		}
		tasks, err := s.FleetTasks(ctx, "r1")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]int64{}
		for _, tk := range tasks {
			if tk.Latest {
				got[tk.DeviceKey] = append(got[tk.DeviceKey], tk.UploadID)
			}
		}
		if len(got) != 2 || !slices.Equal(got["uuid:aaaa"], []int64{ids[2]}) || !slices.Equal(got["uuid:bbbb"], []int64{ids[1]}) {
			t.Errorf("latest per device %v (uploads %v)", got, ids)
		}
		if m := MissingShards(tasks); len(m) != 0 {
			t.Errorf("missing %v in a run without shards", m)
		}
	})
}

// TestHistoryDeviceKey: one GPU's history by its key, its UUID or the
// UUID's first digits, across its two drivers; its twin is left out.
func TestHistoryDeviceKey(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		gpu := func(d results.DeviceInfo, uuid string) results.DeviceInfo {
			d.UUID = uuid
			d.Key, d.KeyFallback = results.DeviceKey(d)
			return d
		}
		one, twin := "AB12CD34-0000-0000-0000-000000000001", "ab12cd99-0000-0000-0000-000000000002"
		for i, d := range []results.DeviceInfo{gpu(storetest.Devices[2], one), gpu(storetest.Devices[3], one), gpu(storetest.Devices[2], twin)} {
			f := storetest.File(storetest.Suite(1), storetest.Options{Created: day0.Add(time.Duration(i) * time.Hour), Device: d, Seed: uint64(i)})
			if _, err := s.Add(ctx, f, "f.json", nil); err != nil {
				t.Fatal(err)
			}
		}
		for _, k := range []string{"uuid:ab12cd34-0000-0000-0000-000000000001", "ab12cd34", "AB12CD34-0000-0000-0000-000000000001"} {
			series, err := s.History(ctx, Filter{DeviceKey: k})
			if err != nil {
				t.Fatal(err)
			}
			var drivers []string
			for _, se := range series {
				if se.DeviceKey != "uuid:ab12cd34-0000-0000-0000-000000000001" {
					t.Errorf("%s: series of %s", k, se.DeviceKey)
				}
				drivers = append(drivers, se.Driver)
			}
			if !slices.Equal(drivers, []string{"550.54.15", "570.86.15"}) {
				t.Errorf("%s: drivers %v, want both of the GPU's", k, drivers)
			}
		}
	})
}

// TestHistoryLatestAttempt: a retried shard is one run in history (its
// latest attempt, on another node), a task without a retry and an upload
// outside any fleet run are kept.
func TestHistoryLatestAttempt(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		dev := storetest.Devices[0]
		var retry int64
		for i, f := range []*results.File{fleetFile(0, 2, 0, "n1", day0, dev), fleetFile(0, 2, 1, "n2", day0.Add(time.Minute), dev),
			fleetFile(1, 2, 0, "n1", day0.Add(2*time.Minute), dev),
			storetest.File(storetest.Suite(2), storetest.Options{Created: day0.Add(time.Hour), Device: dev, Seed: 5, Hostname: "vm"})} {
			a, err := s.Add(ctx, f, "f.json", nil)
			if err != nil {
				t.Fatal(err)
			}
			if i == 1 {
				retry = a.UploadID
			}
		}
		series, err := s.History(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(series) != 2 {
			t.Fatalf("%d series, want 2", len(series))
		}
		for _, se := range series {
			var ups []int64
			for _, p := range se.Points {
				ups = append(ups, p.UploadID)
			}
			if len(ups) != 3 || ups[0] != retry {
				t.Errorf("%s: uploads %v, want 3 runs, the first the retry %d (its first attempt left out)", se.Benchmark, ups, retry)
			}
		}
	})
}
