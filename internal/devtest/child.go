package devtest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// childEnv marks the child process of InChild.
const childEnv = "CLMETER_TEST_DEVICES_CHILD"

// PoCLPair is the set-up of two identical PoCL CPU devices: POCL_DEVICES
// with a vendor folder of PoCL alone.
func PoCLPair(t testing.TB) []string {
	return Vendors(t, []string{"POCL_DEVICES=pthread pthread"}, "pocl")
}

// Vendors returns env with OCL_ICD_VENDORS set to a private folder holding
// the system's vendor files whose names contain one of names ("pocl",
// "oclgrind"); Oclgrind, which Debian does not register, is found in its
// library folder. It skips t when one is missing, unless make test requires
// it (CLMETER_IMPLS_REQUIRED), where it fails.
func Vendors(t testing.TB, env []string, names ...string) []string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vendors")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		lib := vendorLibrary(n)
		if lib == "" {
			msg := fmt.Sprintf("no %s OpenCL implementation installed: run make test-deps", n)
			if strings.Contains(os.Getenv("CLMETER_IMPLS_REQUIRED"), n) {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
		if err := os.WriteFile(filepath.Join(dir, n+".icd"), []byte(lib+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return append(env, "OCL_ICD_VENDORS="+dir)
}

// vendorLibrary is the library of implementation name.
func vendorLibrary(name string) string {
	files, _ := filepath.Glob("/etc/OpenCL/vendors/*.icd")
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(strings.ToLower(filepath.Base(f)), name) {
			return strings.TrimSpace(string(b))
		}
	}
	if name == "oclgrind" {
		for _, p := range []string{"/usr/lib/oclgrind/liboclgrind-rt-icd.so", "/usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so", "/usr/local/lib/liboclgrind-rt-icd.so"} {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return ""
}

// InChild runs the calling top-level test again in a child process with env
// added (the ICD loader reads its set-up once a process, so a test of
// another set-up needs a process of its own). It returns true in the child,
// where the test goes on; in the parent it waits, logs the child's output
// and fails t when the child failed, and returns false.
func InChild(t *testing.T, timeout time.Duration, env ...string) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	args := []string{"-test.run=" + strings.Join(parts, "/"), "-test.count=1", "-test.v", "-test.timeout=" + timeout.String()}
	cmd := exec.Command(os.Args[0], args...)
	drop := map[string]bool{"OCL_ICD_VENDORS": true, "OCL_ICD_FILENAMES": true, "POCL_DEVICES": true, "RUSTICL_ENABLE": true, "CLMETER_DEVICE": true}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !drop[k] {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, env...), childEnv+"="+t.Name())
	start := time.Now()
	out, err := cmd.CombinedOutput()
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fmt.Fprintf(&b, "[child] %s\n", sc.Text())
	}
	if err != nil {
		t.Fatalf("child (%s) after %s: %v\n%s", strings.Join(env, " "), time.Since(start).Round(time.Millisecond), err, b.String())
	}
	t.Logf("child (%s), %s:\n%s", strings.Join(env, " "), time.Since(start).Round(time.Millisecond), b.String())
	if strings.Contains(string(out), "--- SKIP: "+t.Name()) {
		t.Skip("the child skipped (see its output)")
	}
	return false
}
