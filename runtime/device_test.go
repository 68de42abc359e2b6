package runtime

import "testing"

// realDevice returns the first OpenCL device, skipping when there is none.
func realDevice(t *testing.T) (*Manager, *Device) {
	t.Helper()
	m := NewManager()
	devs, err := m.Devices()
	if err != nil {
		t.Skipf("no OpenCL here: %v", err)
	}
	if len(devs) == 0 {
		t.Skip("no OpenCL device here")
	}
	t.Cleanup(m.Close)
	return m, devs[0]
}
