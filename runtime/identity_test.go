package runtime

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
)

// TestTwoIdenticalDevicesTwoKeys lists PoCL with POCL_DEVICES="pthread
// pthread" (two devices of one name and one make) in a process of its own,
// since PoCL reads the variable once: each device's record carries a key
// of its own, built from its UUID or PCI address when PoCL gives one, else
// the marked fallback; the host is recorded.
func TestTwoIdenticalDevicesTwoKeys(t *testing.T) {
	if os.Getenv("CLMETER_TWO_DEVICES_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTwoIdenticalDevicesTwoKeys$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "CLMETER_TWO_DEVICES_CHILD=1", "POCL_DEVICES=pthread pthread")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the check in its own process: %v\n%s", err, out)
		}
		if strings.Contains(string(out), "--- SKIP") {
			t.Skipf("%s", out)
		}
		t.Logf("%s", out)
		return
	}
	m := NewManager()
	defer m.Close()
	devs, err := m.Devices()
	if err != nil {
		t.Skipf("no OpenCL here: %v", err)
	}
	var pocl []results.DeviceInfo
	for _, d := range devs {
		if d.Platform.Name == "Portable Computing Language" {
			pocl = append(pocl, d.Describe())
		}
	}
	if len(pocl) < 2 {
		t.Skipf("PoCL lists %d device(s) under POCL_DEVICES=\"pthread pthread\", want 2", len(pocl))
	}
	a, b := pocl[0], pocl[1]
	t.Logf("keys %q and %q", a.Key, b.Key)
	if a.Name != b.Name {
		t.Fatalf("the two devices are named %q and %q: not identical", a.Name, b.Name)
	}
	host, _ := os.Hostname()
	for _, d := range []results.DeviceInfo{a, b} {
		want, fallback := results.DeviceKey(d)
		if d.Key == "" || d.Key != want || d.KeyFallback != fallback || d.Host != host {
			t.Errorf("device %s: key %q (fallback %v), host %q; want %q (%v), host %q", d.Index, d.Key, d.KeyFallback, d.Host, want, fallback, host)
		}
		if d.KeyFallback != (d.UUID == "" && d.PCI == "") {
			t.Errorf("device %s: fallback %v with UUID %q and PCI %q", d.Index, d.KeyFallback, d.UUID, d.PCI)
		}
	}
	if a.Key == b.Key {
		t.Errorf("two devices share the key %q", a.Key)
	}
}

// TestDeviceTableFits80 writes the devices table at 80 columns: no line
// is wider, and each device's key is there, whole.
func TestDeviceTableFits80(t *testing.T) {
	m, _ := realDevice(t)
	devs, _ := m.Devices()
	var b strings.Builder
	writeDeviceTable(&b, devs, 80)
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	joined := strings.Join(strings.Fields(out), " ")
	for _, d := range devs {
		if k := strings.Join(strings.Fields(d.Describe().Key), " "); !strings.Contains(joined, k) {
			t.Errorf("key %q not shown in:\n%s", k, out)
		}
	}
}
