package results

import "testing"

// TestDeviceKey checks each source of a key: a UUID ignores host and
// index, a PCI address keeps the host, the fallback keeps host, platform,
// name and index and is marked; two identical devices get two keys.
func TestDeviceKey(t *testing.T) {
	gpu := DeviceInfo{Index: "0:0", Platform: "NVIDIA CUDA", Name: "NVIDIA H200", Host: "node-1",
		UUID: "1A2B3C4D-0000-0000-0000-000000000001", PCI: "0000:19:00.0"}
	k, fb := DeviceKey(gpu)
	if k != "uuid:1a2b3c4d-0000-0000-0000-000000000001" || fb {
		t.Errorf("GPU with a UUID: %q %v", k, fb)
	}
	moved := gpu
	moved.Index, moved.Host = "0:1", "node-2"
	if k2, _ := DeviceKey(moved); k2 != k {
		t.Errorf("the same UUID under another index and host: %q, want %q", k2, k)
	}
	twin := gpu
	twin.UUID, twin.Index = "1a2b3c4d-0000-0000-0000-000000000002", "0:1"
	if k2, _ := DeviceKey(twin); k2 == k {
		t.Errorf("two GPUs share the key %q", k)
	}

	pci := gpu
	pci.UUID = ""
	k, fb = DeviceKey(pci)
	if k != "pci:node-1/0000:19:00.0" || fb {
		t.Errorf("GPU with a PCI address: %q %v", k, fb)
	}
	pci.Index = "1:0"
	if k2, _ := DeviceKey(pci); k2 != k {
		t.Errorf("a PCI key moved with the index: %q, want %q", k2, k)
	}

	cpu := DeviceInfo{Index: "0:0", Platform: "Portable Computing Language", Name: "cpu/x86 100%", Host: "ci-1"}
	k, fb = DeviceKey(cpu)
	if k != "fallback:ci-1/Portable Computing Language/cpu%2Fx86 100%25/0:0" || !fb || !IsFallbackKey(k) {
		t.Errorf("CPU device: %q %v", k, fb)
	}
	cpu2 := cpu
	cpu2.Index = "0:1"
	if k2, _ := DeviceKey(cpu2); k2 == k {
		t.Errorf("two identical CPU devices share the key %q", k)
	}
	if cpu.SeriesKey() != k {
		t.Errorf("SeriesKey without a Key = %q, want %q", cpu.SeriesKey(), k)
	}
	cpu.Key = "uuid:stored"
	if cpu.SeriesKey() != "uuid:stored" {
		t.Errorf("SeriesKey with a Key = %q", cpu.SeriesKey())
	}
}

func TestShortKey(t *testing.T) {
	for key, want := range map[string]string{
		"uuid:1a2b3c4d-0000-0000-0000-000000000001":               "uuid 1a2b3c4d",
		"pci:node-1/0000:19:00.0":                                 "node-1 0000:19:00.0",
		"fallback:ci-1/Portable Computing Language/cpu%2Fx86/0:1": "ci-1 0:1",
		"fallback:/Portable Computing Language/cpu/0:0":           "0:0",
		"something else": "something else",
	} {
		if got := ShortKey(key); got != want {
			t.Errorf("ShortKey(%q) = %q, want %q", key, got, want)
		}
	}
}
