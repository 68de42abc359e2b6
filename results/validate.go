package results

import (
	"fmt"
	"time"

	"github.com/clmeter/clmeter/units"
)

// MaxSampleTime is the longest per-launch time a sample may hold: a day. A
// value beyond it (INT64_MAX ns is 292 years) is a damaged or invented file,
// not a measurement.
const MaxSampleTime = 24 * time.Hour

// CheckSamples returns why the samples of f cannot be trusted, or nil. Every
// sample of a sampled benchmark must have a per-launch time above zero and at
// most MaxSampleTime, at least one launch, and no negative host or device
// time; a summary that counts samples the file does not hold is refused too.
// name (the file's path) starts the message, which names the benchmark and
// the sample.
func CheckSamples(f *File, name string) error {
	for i := range f.Benchmarks {
		b := &f.Benchmarks[i]
		m := b.Measurement
		if m == nil {
			continue
		}
		where := func(format string, a ...any) error {
			return fmt.Errorf("%s: benchmark %d (%s): %s", name, i+1, units.Escape(b.Name), fmt.Sprintf(format, a...))
		}
		if len(m.Samples) == 0 {
			if m.Summary.N > 0 {
				return where("its summary counts %d samples but the file holds none (the samples list is empty): the file was cut or edited; measure again", m.Summary.N)
			}
			continue
		}
		for j, s := range m.Samples {
			switch {
			case s.PerLaunch <= 0:
				return where("sample %d has a per-launch time of %d ns; a time must be above zero: the file was damaged or edited; measure again", j+1, int64(s.PerLaunch))
			case s.PerLaunch > MaxSampleTime:
				return where("sample %d has a per-launch time of %d ns, more than a day: the file was damaged or edited; measure again", j+1, int64(s.PerLaunch))
			case s.Launches < 1:
				return where("sample %d counts %d launches; a sample is at least 1 launch: the file was damaged or edited; measure again", j+1, s.Launches)
			case s.Host < 0 || s.Device < 0 || s.DeviceBusy < 0:
				return where("sample %d has a negative host or device time: the file was damaged or edited; measure again", j+1)
			}
		}
		if m.Summary.N != len(m.Samples) {
			return where("its summary counts %d samples but the file holds %d: the file was cut or edited; measure again", m.Summary.N, len(m.Samples))
		}
	}
	return nil
}
