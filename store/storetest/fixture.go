package storetest

import (
	"fmt"
	"time"

	"github.com/clmeter/clmeter/results"
)

// FillPlan describes a synthetic history: Uploads result files of
// PerUpload benchmarks each, one every six hours, spread round-robin over
// Devices (so every device and driver gets its own series), with a commit
// label per upload and a 10% regression on the H100 from 80% of the way on.
// With PerUpload 50, "triad" has four parameter sets and "triad/large" one.
type FillPlan struct {
	Uploads, PerUpload int
	// Samples per benchmark (default 10).
	Samples int
}

// Files yields the plan's files in order with their labels.
func (p FillPlan) Files(yield func(i int, f *results.File, labels map[string]string) error) error {
	specs := Suite(p.PerUpload)
	// The last fifth are benchmarks of their own name, with one parameter
	// set each ("triad/large"), as most of a real suite's are.
	for i := p.PerUpload * 4 / 5; i < len(specs); i++ {
		specs[i].Name += "/large"
	}
	for i := range p.Uploads {
		dev := Devices[i%len(Devices)]
		scale := 1.0
		if dev.Type == "GPU" && dev.Vendor == "NVIDIA Corporation" && i >= p.Uploads*8/10 {
			scale = 1.1
		}
		f := File(specs, Options{Created: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 6 * time.Hour),
			Device: dev, Samples: p.Samples, Scale: scale, Seed: uint64(i), Hostname: fmt.Sprintf("ci-%d", i%len(Devices))})
		labels := map[string]string{"commit": fmt.Sprintf("%040x", 0xc0ffee+i), "branch": "main", "ci": "true"}
		if err := yield(i, f, labels); err != nil {
			return err
		}
	}
	return nil
}
