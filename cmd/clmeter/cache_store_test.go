package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/runtime/cache"
)

// TestCacheStoreChildAndWrongPayload runs a user file as a user would: the
// run exits and its store child makes the entry (cache wait waits for it);
// then the entry's payload is replaced by garbage with a matching checksum:
// cache verify rejects it as unproven, and a run rebuilds it without failing.
func TestCacheStoreChildAndWrongPayload(t *testing.T) {
	needDevice(t)
	dir := t.TempDir()
	cacheDir := filepath.Join(dir, "cache")
	src := filepath.Join(dir, "two.cl")
	os.WriteFile(src, []byte(`__kernel void add(__global float *x, int n) { int i = get_global_id(0); if (i < n) x[i] += 1.0f; }
__kernel void mul(__global float *x, int n) { int i = get_global_id(0); if (i < n) x[i] *= 2.0f; }
`), 0o644)
	args := append([]string{"run", src, "--kernel", "add", "--global", "N", "--arg", "buf:float:N:rand", "--arg", "int:N", "--size", "1Ki", "--no-profile"}, fast...)
	cmd := child(args...)
	cmd.Env = append(cmd.Env, cache.DirEnv+"="+cacheDir, cache.StoreWaitEnv+"=", cache.DebugEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "handed to child process") {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	if code, _, errs := clm(t, "cache", "wait", "--cache-dir", cacheDir, "--timeout", "2m"); code != 0 {
		t.Fatalf("cache wait: %d %s", code, errs)
	}
	files, _ := filepath.Glob(filepath.Join(cacheDir, "*", "*.clbin"))
	if len(files) != 1 {
		t.Fatalf("entries after the store child: %v", files)
	}
	if code, out, _ := clm(t, "cache", "verify", "--cache-dir", cacheDir); code != 0 || !strings.Contains(out, "1 entries checked, 0 bad") {
		t.Fatalf("verify of the child's entry: %d\n%s", code, out)
	}

	// A wrong payload whose checksum matches, planted with the unsealed first
	// line (a sealed entry's names its payload's CRC and seals its header).
	b, _ := os.ReadFile(files[0])
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	if !bytes.HasPrefix(first, []byte("CLMETER-CLBIN ")) {
		t.Fatalf("the child's entry is not sealed: %q", first)
	}
	magic := []byte("CLMETER-CLBIN")
	hdr, _, _ := bytes.Cut(rest, []byte("\n"))
	var h map[string]any
	if err := json.Unmarshal(hdr, &h); err != nil {
		t.Fatal(err)
	}
	if ks, _ := h["kernels"].([]any); len(ks) != 2 || h["proof"] == "" || h["driver"] == "" {
		t.Fatalf("the entry's kernels, driver and proof: %s", hdr)
	}
	garbage := bytes.Repeat([]byte("\x7fELF not this driver's binary "), 100)
	sum := sha256.Sum256(garbage)
	h["payload_bytes"], h["payload_sha256"] = len(garbage), hex.EncodeToString(sum[:])
	hb, _ := json.Marshal(h)
	planted := append(append(append(append(magic, '\n'), hb...), '\n'), garbage...)
	os.WriteFile(files[0], planted, 0o644)
	code, vout, verrs := clm(t, "cache", "verify", "--cache-dir", cacheDir)
	if code != exitError || !strings.Contains(strings.Join(strings.Fields(vout), " "), "not proven") { // the table wraps its cells
		t.Fatalf("verify of a planted payload: %d\n%s%s", code, vout, verrs)
	}
	os.WriteFile(files[0], planted, 0o644)
	cmd = child(args...)
	cmd.Env = append(cmd.Env, cache.DirEnv+"="+cacheDir, cache.DebugEnv+"=1")
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "reject") || !strings.Contains(string(out), "not proven") || !strings.Contains(string(out), "Time (median)") {
		t.Fatalf("a run on a planted payload: %v\n%s", err, out)
	}
	if code, out, _ := clm(t, "cache", "verify", "--cache-dir", cacheDir); code != 0 || !strings.Contains(out, "1 entries checked, 0 bad") {
		t.Fatalf("verify after the rebuild: %d\n%s", code, out)
	}
}
