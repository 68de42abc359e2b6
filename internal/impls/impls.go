// Package impls finds the OpenCL implementations installed on this machine (PoCL,
// Mesa's Rusticl on llvmpipe, Oclgrind) and runs device-level tests on each, in a
// child process with that implementation's environment: the ICD loader
// enumerates platforms once per process, so one process sees one set-up.
package impls

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An Impl is one OpenCL implementation and the environment that makes it the
// only device (or the default one) of a process.
type Impl struct {
	// Name is "pocl", "rusticl" or "oclgrind"; Label names it for people.
	Name, Label string
	// Env are the variables to set (KEY=VALUE); Unset are removed first.
	Env, Unset []string
	// Slow marks a simulator (Oclgrind): tests use their smallest sizes.
	Slow bool
}

// EnvVar names the variable that tells a child test process which
// implementation it runs on.
const EnvVar = "CLMETER_IMPL"

// RequiredEnvVar, when set (make test sets it), lists implementations that must
// be installed, comma-separated: a missing one fails the test instead of being
// left out, so that CI cannot silently test fewer.
const RequiredEnvVar = "CLMETER_IMPLS_REQUIRED"

// SystemVendorDir is where the system's ICD loader reads vendor files.
const SystemVendorDir = "/etc/OpenCL/vendors"

// libraryDirs are searched for the implementations' ICD libraries.
var libraryDirs = []string{"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"}

// Installed returns the implementations present, in the order PoCL, Rusticl,
// Oclgrind. Private vendor folders are made under dir.
func Installed(dir string) []Impl {
	var out []Impl
	clean := []string{"OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "RUSTICL_ENABLE", "CLMETER_DEVICE", "CLMETER_OPENCL_LIB"}
	if lib := vendorLibrary("pocl"); lib != "" {
		// PoCL through the system's vendor folder, as a user has it: the
		// other platforms there show no device without RUSTICL_ENABLE.
		out = append(out, Impl{Name: "pocl", Label: "PoCL (system vendors folder)", Unset: clean})
	}
	if lib := findLibrary("libRusticlOpenCL.so.1"); lib != "" {
		if d, err := privateVendors(dir, "rusticl", lib); err == nil {
			out = append(out, Impl{Name: "rusticl", Label: "Mesa Rusticl (llvmpipe)", Unset: clean,
				Env: []string{"OCL_ICD_VENDORS=" + d, "RUSTICL_ENABLE=llvmpipe"}})
		}
	}
	if lib := findOclgrind(); lib != "" {
		if d, err := privateVendors(dir, "oclgrind", lib); err == nil {
			out = append(out, Impl{Name: "oclgrind", Label: "Oclgrind (OpenCL 1.2 simulator)", Unset: clean, Slow: true,
				Env: []string{"OCL_ICD_VENDORS=" + d}})
		}
	}
	return out
}

// vendorLibrary returns the library a system vendor file names when it
// contains sub ("" when none does).
func vendorLibrary(sub string) string {
	files, _ := filepath.Glob(filepath.Join(SystemVendorDir, "*.icd"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && strings.Contains(strings.ToLower(string(b)), sub) {
			return strings.TrimSpace(string(b))
		}
	}
	return ""
}

func findLibrary(name string) string {
	for _, d := range libraryDirs {
		if p := filepath.Join(d, name); fileExists(p) {
			return p
		}
	}
	return ""
}

// findOclgrind finds Oclgrind's ICD library (Debian puts it in
// /usr/lib/oclgrind; a source build in lib/).
func findOclgrind() string {
	for _, d := range libraryDirs {
		for _, p := range []string{filepath.Join(d, "oclgrind", "liboclgrind-rt-icd.so"), filepath.Join(d, "liboclgrind-rt-icd.so")} {
			if fileExists(p) {
				return p
			}
		}
	}
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// privateVendors makes dir/name holding one vendor file that names lib.
func privateVendors(dir, name, lib string) (string, error) {
	d := filepath.Join(dir, "vendors-"+name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	return d, os.WriteFile(filepath.Join(d, name+".icd"), []byte(lib+"\n"), 0o644)
}

// Environ returns os.Environ() with im's variables set and the others that
// pick OpenCL devices removed, plus EnvVar naming im.
func (im Impl) Environ() []string {
	drop := map[string]bool{EnvVar: true}
	for _, k := range im.Unset {
		drop[k] = true
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			env = append(env, kv)
		}
	}
	return append(append(env, im.Env...), EnvVar+"="+im.Name)
}

// Current returns the implementation this process runs on (the child side of
// Each), and false in the parent.
func Current(dir string) (Impl, bool) {
	name := os.Getenv(EnvVar)
	if name == "" {
		return Impl{}, false
	}
	for _, im := range Installed(dir) {
		if im.Name == name {
			return im, true
		}
	}
	return Impl{Name: name, Label: name}, true
}

// Each runs body once for every installed implementation, each in a child
// process: the test binary re-runs the calling top-level test (t.Name()) with
// the implementation's environment, and its output comes back prefixed with the
// implementation's name in a subtest named after it. In the child, body runs
// directly. With RequiredEnvVar set, a required implementation that is missing
// fails the test.
func Each(t *testing.T, timeout time.Duration, body func(t *testing.T, im Impl)) {
	t.Helper()
	if im, ok := Current(t.TempDir()); ok {
		t.Logf("running on %s", im.Label)
		body(t, im)
		return
	}
	dir := t.TempDir()
	all := Installed(dir)
	have := map[string]bool{}
	for _, im := range all {
		have[im.Name] = true
	}
	for _, req := range strings.Split(os.Getenv(RequiredEnvVar), ",") {
		if req = strings.TrimSpace(req); req != "" && !have[req] {
			t.Errorf("the %s implementation is required (%s) but not installed: run make deps", req, RequiredEnvVar)
		}
	}
	if len(all) == 0 {
		t.Skip("no OpenCL implementation installed")
	}
	for _, im := range all {
		t.Run(im.Name, func(t *testing.T) {
			args := []string{"-test.run=^" + strings.SplitN(t.Name(), "/", 2)[0] + "$", "-test.count=1", "-test.v",
				"-test.timeout=" + timeout.String()}
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = im.Environ()
			start := time.Now()
			out, err := cmd.CombinedOutput()
			lines := prefixed(im.Name, string(out))
			if err != nil {
				t.Fatalf("on %s (%s), after %s: %v\n%s", im.Label, strings.Join(im.Env, " "), time.Since(start).Round(time.Millisecond), err, lines)
			}
			t.Logf("on %s, %s:\n%s", im.Label, time.Since(start).Round(time.Millisecond), lines)
		})
	}
}

// prefixed puts "[name] " before every line of s.
func prefixed(name, s string) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fmt.Fprintf(&b, "[%s] %s\n", name, sc.Text())
	}
	return b.String()
}
