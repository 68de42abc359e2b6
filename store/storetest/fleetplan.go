package storetest

import (
	"fmt"
	"time"

	"github.com/clmeter/clmeter/results"
)

// A FleetPlan describes a synthetic fleet: Devices GPUs, eight to a node,
// each running a suite of Benchmarks benchmarks in each of Runs fleet runs
// (one a day), one result file per node and run: Devices × Runs ×
// Benchmarks results in Runs × Devices/8 files. Every GPU has a UUID (its
// key); the driver changes half-way, and one GPU in 97 is 10% slower from
// then on.
type FleetPlan struct {
	Devices, Runs, Benchmarks int
	// Samples per benchmark (default 10).
	Samples int
}

// GPUsPerNode is how many of a FleetPlan's devices share a node.
const GPUsPerNode = 8

// Nodes is how many nodes the plan's devices take.
func (p FleetPlan) Nodes() int { return (p.Devices + GPUsPerNode - 1) / GPUsPerNode }

// Results is how many results the plan makes.
func (p FleetPlan) Results() int { return p.Devices * p.Runs * p.Benchmarks }

// RunID is the fleet run id of run r.
func (p FleetPlan) RunID(r int) string { return fmt.Sprintf("job-%d", 700000+r) }

// Device is the description of device d (0 to Devices-1) in run r.
func (p FleetPlan) Device(d, r int) results.DeviceInfo {
	dev := Devices[2]
	if r >= p.Runs/2 {
		dev = Devices[3]
	}
	node := d / GPUsPerNode
	if node%4 == 3 {
		dev.Name = "NVIDIA H200"
		dev.GlobalMemBytes = 141 << 30
	}
	dev.Index = fmt.Sprintf("1:%d", d%GPUsPerNode)
	dev.UUID = fmt.Sprintf("%08x-0000-4000-8000-%012x", 0x5ca1e000+d, d)
	dev.PCI = fmt.Sprintf("0000:%02x:00.0", 0x18+d%GPUsPerNode)
	dev.Host = fmt.Sprintf("gpu%04d", node)
	dev.Key, dev.KeyFallback = results.DeviceKey(dev)
	return dev
}

// File returns the result file of node n in run r, with its fleet context
// (run, node, Slurm's job labels).
func (p FleetPlan) File(r, n int) *results.File {
	specs := Suite(p.Benchmarks)
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r)*24*time.Hour + time.Duration(n)*time.Second)
	host := fmt.Sprintf("gpu%04d", n)
	var f *results.File
	for d := n * GPUsPerNode; d < min(p.Devices, (n+1)*GPUsPerNode); d++ {
		scale := 1.0
		if d%97 == 5 && r >= p.Runs/2 {
			scale = 1.1
		}
		g := File(specs, Options{Created: created, Device: p.Device(d, r), Samples: p.Samples, Scale: scale,
			Seed: uint64(r)<<32 | uint64(d), Hostname: host})
		if f == nil {
			f = g
			continue
		}
		f.Benchmarks = append(f.Benchmarks, g.Benchmarks...)
	}
	f.CommandLine = []string{"clmeter", "suite", "fleet", "--fleet-run", p.RunID(r), "--store", "postgres://fleet-db/clmeter"}
	f.Fleet = &results.FleetInfo{Run: p.RunID(r), Node: host, Scheduler: "slurm", Labels: map[string]string{
		"slurm.job_id": fmt.Sprint(700000 + r), "slurm.node": host, "slurm.restart_count": "0"}}
	return f
}
