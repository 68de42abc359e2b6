package runtime

import (
	"os"
	"testing"
)

// realDevice returns the test device (the CLMETER_DEVICE selection, else the
// default device), skipping when there is none. (devtest does this for the
// other packages; it imports runtime, so runtime's own tests cannot use it.)
func realDevice(t *testing.T) (*Manager, *Device) {
	t.Helper()
	m := NewManager()
	devs, err := m.Select(os.Getenv(DeviceEnv))
	if err != nil {
		t.Skipf("no OpenCL here: %v", err)
	}
	if len(devs) == 0 {
		t.Skip("no OpenCL device here")
	}
	t.Cleanup(m.Close)
	return m, devs[0]
}
