package devtest

import (
	"os"
	"testing"
	"time"

	"github.com/clmeter/clmeter/runtime"
)

// PairDevices is the PoCL selection that gives a process two identical
// devices (two "pthread" CPU devices of one name): what Pair's child runs with.
const PairDevices = "pthread pthread"

// Pair gives a test two devices of one name to measure at once: two of this
// machine's (two GPUs of one model), else PoCL's. OpenCL lists its devices
// once a process, so for PoCL's Pair runs t's test again in a child process
// with POCL_DEVICES set to PairDevices (the child's test binary is the
// parent's: built with -race, it runs with it), reports the child's output
// and returns ok false: the parent's test then returns at once. In the child
// it returns the two devices and ok true. The test is skipped where the child
// finds no two devices (no PoCL).
func Pair(t *testing.T) (a, b *runtime.Device, ok bool) {
	t.Helper()
	child := os.Getenv(childEnv) == t.Name()
	m := runtime.NewManager()
	t.Cleanup(m.Close)
	devs, err := m.Devices()
	if err != nil {
		skip(t, err)
	}
	if a, b := twoOfOneName(devs); b != nil {
		return a, b, true
	}
	if !child {
		runPairChild(t)
		return nil, nil, false
	}
	t.Skipf("POCL_DEVICES=%q gave no two devices of one name", PairDevices)
	return nil, nil, false
}

// twoOfOneName returns the first two devices of one name and platform (two
// GPUs of one model, PoCL's two pthread devices), or nil.
func twoOfOneName(devs []*runtime.Device) (a, b *runtime.Device) {
	for i, d := range devs {
		for _, e := range devs[i+1:] {
			if e.Info.Name == d.Info.Name && e.PlatformIndex == d.PlatformIndex {
				return d, e
			}
		}
	}
	return nil, nil
}

// runPairChild runs t's test in a child process with two PoCL devices, and
// fails, skips or passes t as the child did.
func runPairChild(t *testing.T) {
	t.Helper()
	InChild(t, 10*time.Minute, "POCL_DEVICES="+PairDevices, runtime.DeviceEnv+"=")
}
