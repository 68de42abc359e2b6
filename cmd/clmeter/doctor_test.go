package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stubICD is a vendor library as an ICD loader sees one: it offers
// clIcdGetPlatformIDsKHR, which finds no platform (as NVIDIA's does on a
// machine whose GPU driver is not loaded), so loading it is harmless.
const stubICD = `#include <string.h>
typedef int cl_int;
typedef unsigned int cl_uint;
static cl_int stub_platforms(cl_uint n, void **ps, cl_uint *np) {
	(void)n; (void)ps;
	if (np) *np = 0;
	return -1001; /* CL_PLATFORM_NOT_FOUND_KHR */
}
void *clGetExtensionFunctionAddress(const char *name) {
	return strcmp(name, "clIcdGetPlatformIDsKHR") == 0 ? (void *)stub_platforms : 0;
}
`

// TestDoctorFindsUnregisteredDriver stages the GPU machine's set-up with a
// stub: a vendor folder that holds only PoCL's file, an NVIDIA library
// installed in a driver folder (on LD_LIBRARY_PATH) and named by
// OCL_ICD_FILENAMES, but no platform from it. The doctor must not print "ok"
// for it, and must name the library and print the .icd line that registers it.
func TestDoctorFindsUnregisteredDriver(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Fatalf("a C compiler is needed (cgo needs one too): %v", err)
	}
	dir := t.TempDir()
	drivers, vendors := filepath.Join(dir, "drivers"), filepath.Join(dir, "vendors")
	for _, d := range []string{drivers, vendors} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(dir, "stub.c")
	os.WriteFile(src, []byte(stubICD), 0o644)
	lib := filepath.Join(drivers, "libnvidia-opencl.so.1")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("building the stub library: %v\n%s", err, out)
	}
	if pocl, err := os.ReadFile("/etc/OpenCL/vendors/pocl.icd"); err == nil {
		os.WriteFile(filepath.Join(vendors, "pocl.icd"), pocl, 0o644)
	}
	cmd := child("doctor")
	cmd.Env = append(cmd.Env, "OCL_ICD_VENDORS="+vendors, "OCL_ICD_FILENAMES=libnvidia-opencl.so.1",
		"LD_LIBRARY_PATH="+drivers+string(os.PathListSeparator)+os.Getenv("LD_LIBRARY_PATH"))
	outb, _ := cmd.Output()
	out := string(outb)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "libnvidia-opencl") && strings.Contains(line, "ok ") {
			t.Errorf("doctor says ok for a library whose platform did not load: %q\n%s", line, out)
		}
	}
	for _, want := range []string{
		"FAIL OCL_ICD_FILENAMES libnvidia-opencl.so.1",
		"the NVIDIA OpenCL library " + lib + " is installed but its platform is missing",
		"echo " + lib + " | sudo tee /etc/OpenCL/vendors/nvidia.icd",
		"export OCL_ICD_VENDORS=",
	} {
		// Lines are wrapped to the terminal: compared with spaces collapsed.
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("doctor's output lacks %q:\n%s", want, out)
		}
	}
}
