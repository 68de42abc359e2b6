package results

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestLegacyIdentity checks the identity the reader derives for a
// benchmark of a file older than version 3, from its kind, name and
// params as the suites named them.
func TestLegacyIdentity(t *testing.T) {
	ps := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tt := range []struct {
		kind, name string
		params     map[string]string
		want       *Identity
	}{
		{"suite:peaks", "peaks/bandwidth/chunk/float16", ps("pattern", "chunk", "width", "16", "size", "256MiB", "region", "memory", "plateau", "no"),
			&Identity{Suite: "peaks", Kind: KindBandwidth, Pattern: "chunk", Traffic: TrafficReadOnly, Width: 16, Type: "float", WorkingSetBytes: 256 << 20, Region: RegionMemory, OffPlateau: true}},
		{"suite:quick", "peaks/bandwidth/copy/float4", ps("width", "4", "size", "1MiB", "region", "l2"),
			&Identity{Suite: "quick", Kind: KindBandwidth, Pattern: "copy", Traffic: TrafficCopy, Width: 4, Type: "float", WorkingSetBytes: 1 << 20, Region: RegionCache}},
		{"suite:peaks", "peaks/bandwidth/rmw/float1", ps("width", "1"),
			&Identity{Suite: "peaks", Kind: KindBandwidth, Pattern: "rmw", Traffic: TrafficReadModifyWrite, Width: 1, Type: "float"}},
		{"suite:peaks", "peaks/cache-bandwidth/stride/float4", ps("width", "4", "size", "16MiB", "region", "cache"),
			&Identity{Suite: "peaks", Kind: KindCacheBandwidth, Pattern: "stride", Traffic: TrafficReadOnly, Width: 4, Type: "float", WorkingSetBytes: 16 << 20, Region: RegionCache}},
		{"suite:streams", "streams/triad/double", ps("type", "double", "array", "32MiB", "region", "memory", "plateau", "yes"),
			&Identity{Suite: "streams", Kind: KindBandwidth, Kernel: "triad", Traffic: TrafficCopy, Type: "double", Region: RegionMemory}},
		{"suite:streams", "streams/dot/float", nil, &Identity{Suite: "streams", Kind: KindBandwidth, Kernel: "dot", Traffic: TrafficReadOnly, Type: "float"}},
		{"suite:peaks", "peaks/local-bandwidth/float8", ps("width", "8"), &Identity{Suite: "peaks", Kind: KindLocalBandwidth, Width: 8}},
		{"suite:peaks", "peaks/image-bandwidth/tile", ps("walk", "tile", "size", "1MiB", "region", "cache"),
			&Identity{Suite: "peaks", Kind: KindImageBandwidth, Pattern: "tile", WorkingSetBytes: 1 << 20, Region: RegionCache}},
		{"suite:peaks", "peaks/compute/int24/2", ps("type", "int24", "width", "2"), &Identity{Suite: "peaks", Kind: KindCompute, Type: "int24", Width: 2}},
		{"suite:peaks", "peaks/compute-best/half", ps("type", "half"), &Identity{Suite: "peaks", Kind: KindCompute, Type: "half", Best: true}},
		{"suite:peaks", "peaks/bandwidth-best", nil, &Identity{Suite: "peaks", Kind: KindBandwidth, Best: true}},
		{"suite:peaks", "peaks/cache-bandwidth-best", nil, &Identity{Suite: "peaks", Kind: KindCacheBandwidth, Best: true}},
		{"suite:peaks", "peaks/image-bandwidth-best", nil, &Identity{Suite: "peaks", Kind: KindImageBandwidth, Best: true}},
		{"suite:launch", "launch/round-trip", ps("mode", "round-trip"), &Identity{Suite: "launch", Kind: KindLaunch, Mode: "round-trip"}},
		{"profile", "launch/throughput", ps("mode", "throughput"), &Identity{Suite: "profile", Kind: KindLaunch, Mode: "throughput"}},
		{"suite:transfers", "transfers/pinned/write/64KiB", ps("memory", "pinned"), &Identity{Suite: "transfers", Kind: KindTransfer, Memory: "pinned", Direction: "write", WorkingSetBytes: 64 << 10}},
		{"suite:quick", "peaks/working-set", ps("size", "256MiB"), &Identity{Suite: "quick", Kind: KindWorkingSet}},
		{"suite:quick", "quick/summary", nil, &Identity{Suite: "quick", Kind: KindSummary}},
		{"suite:peaks", "peaks/unknown-best", nil, nil},
		{"suite:matmul", "matmul/tiled", ps("size", "512x512x512"), nil},
		{"run", "peaks/bandwidth/chunk/float16", ps("width", "16"), nil}, // a user's kernel, whatever its name
	} {
		got := legacyIdentity(Benchmark{Kind: tt.kind, Name: tt.name, Params: tt.params})
		if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
			t.Errorf("%s %s: %+v, want %+v", tt.kind, tt.name, got, tt.want)
		}
	}
}

// TestReadIdentity checks that a version 3 file keeps the identity it was
// written with (none derived for a benchmark without one), a version 2 file
// gets the derived one, and a version 2 file that holds an identity is
// rejected.
func TestReadIdentity(t *testing.T) {
	f := NewFile(ToolInfo{Name: "clmeter", Version: "test"}, nil)
	f.Benchmarks = []Benchmark{
		{Name: "any label", Kind: "suite:peaks", Identity: &Identity{Suite: "peaks", Kind: KindCompute, Type: "float", Width: 4}},
		{Name: "peaks/compute/float/4", Kind: "suite:peaks"},
	}
	data, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(data), "v3.json")
	if err != nil {
		t.Fatal(err)
	}
	if id := got.Benchmarks[0].Identity; id == nil || id.Kind != KindCompute || id.Type != "float" {
		t.Errorf("identity read back %+v", id)
	}
	if id := got.Benchmarks[1].Identity; id != nil {
		t.Errorf("a version 3 benchmark without an identity got one derived: %+v", id)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["version"] = 2
	v2, _ := json.Marshal(raw)
	if _, err := Decode(bytes.NewReader(v2), "v2.json"); err == nil || !strings.Contains(err.Error(), `field "identity" is not in schema version 2 (it came in version 3)`) {
		t.Errorf("a version 2 file with an identity: %v", err)
	}
	delete(raw["benchmarks"].([]any)[0].(map[string]any), "identity")
	v2, _ = json.Marshal(raw)
	old, err := Decode(bytes.NewReader(v2), "v2.json")
	if err != nil {
		t.Fatal(err)
	}
	if id := old.Benchmarks[1].Identity; id == nil || id.Kind != KindCompute || id.Type != "float" || id.Width != 0 {
		t.Errorf("a version 2 benchmark's derived identity %+v", id)
	}
}

// TestReadV3DeviceKeys reads a version 3 file of two devices that differ
// only by index: no key is stored, the host comes from the file, and
// SeriesKey gives each a fallback key of its own. A version 3 file that
// holds a key is rejected.
func TestReadV3DeviceKeys(t *testing.T) {
	f, err := Read("testdata/pocl-v3-two-devices.json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.Benchmarks[0].Device, f.Benchmarks[1].Device
	if a.Key != "" || b.Key != "" || a.Host != "ci-1" || b.Host != "ci-1" {
		t.Fatalf("v3 devices read as %+v and %+v: want no key, host ci-1", a, b)
	}
	ka, kb := a.SeriesKey(), b.SeriesKey()
	if ka == kb || !IsFallbackKey(ka) || !IsFallbackKey(kb) {
		t.Errorf("series keys %q and %q: want two fallback keys", ka, kb)
	}
	if !strings.Contains(ka, "ci-1/") || !strings.HasSuffix(ka, "/0:0") {
		t.Errorf("series key %q: want the host and the index in it", ka)
	}
	data, err := os.ReadFile("testdata/pocl-v3-two-devices.json")
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(data, []byte(`"index": "0:1",`), []byte(`"index": "0:1", "key": "uuid:x",`), 1)
	if _, err := Decode(bytes.NewReader(bad), "v3.json"); err == nil || !strings.Contains(err.Error(), `field "device.key" is not in schema version 3 (it came in version 4)`) {
		t.Errorf("a version 3 file with a device key: %v", err)
	}
}
