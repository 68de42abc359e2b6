// Package devtest gives tests the OpenCL device they run on, or skips them
// when this machine has none: the one "a device or skip" helper of the
// module's tests.
package devtest

import (
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

var (
	once sync.Once
	dev  *runtime.Device
	err  error
)

// Device returns the test device (the CLMETER_DEVICE selection, else the
// default device), skipping t when there is no OpenCL library or device. The
// device is opened once a process, by a manager without a binary cache, so
// nothing outside the test is touched.
func Device(t testing.TB) *runtime.Device {
	t.Helper()
	once.Do(func() {
		devs, e := runtime.NewManager().Select(os.Getenv(runtime.DeviceEnv))
		if e != nil {
			err = e
			return
		}
		dev = devs[0]
	})
	if err != nil {
		skip(t, err)
	}
	return dev
}

// Select returns the test device (the CLMETER_DEVICE selection, else the
// default device) from m, a manager the test made itself (with a binary
// cache, say), skipping t when there is none: a test that opens its own
// manager still runs on the device the test process was given.
func Select(t testing.TB, m *runtime.Manager) *runtime.Device {
	t.Helper()
	devs, e := m.Select(os.Getenv(runtime.DeviceEnv))
	if e == nil && len(devs) == 0 {
		e = errors.New("no device found")
	}
	if e != nil {
		skip(t, e)
	}
	return devs[0]
}

// Need skips t when this machine has no OpenCL device. It holds nothing open
// afterwards: tests of commands that open their own devices call it.
func Need(t testing.TB) {
	t.Helper()
	m := runtime.NewManager()
	defer m.Close()
	devs, e := m.Devices()
	if e == nil && len(devs) == 0 {
		e = errors.New("no device found")
	}
	if e != nil {
		skip(t, e)
	}
}

func skip(t testing.TB, e error) {
	t.Helper()
	if errors.Is(e, cl.ErrNoLibrary) {
		t.Skipf("no OpenCL library: %v", e)
	}
	t.Skipf("no OpenCL device: %v", e)
}
