package icd

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
)

// TestFindOclgrindOverride: a named library is taken as it is, a missing one
// is an error that names the variable and the fix.
func TestFindOclgrindOverride(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "liboclgrind-rt-icd.so")
	os.WriteFile(lib, []byte("x"), 0o644)
	if p, err := FindOclgrindICD(lib); err != nil || p != lib {
		t.Errorf("override %s: %q, %v", lib, p, err)
	}
	_, err := FindOclgrindICD("/nonexistent/liboclgrind-rt-icd.so")
	if err == nil || !strings.Contains(err.Error(), OclgrindICDEnv) || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing override: %v", err)
	}
}

// TestListingReadsVendorFiles: OCL_ICD_VENDORS's folder is read, each file's
// library probed, and the one Oclgrind status names its vendor file.
func TestListingReadsVendorFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "missing.icd"), []byte("/nonexistent/libnothing.so\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "oclgrind.icd"), []byte("/nonexistent/liboclgrind-rt-icd.so\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a vendor file\n"), 0o644)
	t.Setenv("OCL_ICD_VENDORS", dir)
	t.Setenv("OCL_ICD_FILENAMES", "")
	dirs, files := Listing()
	if len(dirs) != 1 || dirs[0].Source != "OCL_ICD_VENDORS" || len(dirs[0].Files) != 2 || len(files) != 0 {
		t.Fatalf("listing %+v, %+v", dirs, files)
	}
	for _, f := range dirs[0].Files {
		if f.OK || f.Problem == "" {
			t.Errorf("%s: a missing library loaded: %+v", f.Path, f)
		}
	}
	lib := filepath.Join(t.TempDir(), "liboclgrind-rt-icd.so")
	os.WriteFile(lib, []byte("x"), 0o644)
	st := Oclgrind(dirs, lib)
	if st == nil || st.Library != lib || st.Registered != filepath.Join(dir, "oclgrind.icd") {
		t.Errorf("Oclgrind status %+v", st)
	}
}

// TestFindLibraryFindsLibc: the C library is in ldconfig's cache or a usual
// folder on every Linux machine clmeter runs on.
func TestFindLibraryFindsLibc(t *testing.T) {
	if goruntime.GOARCH != "amd64" {
		t.Skip("FindLibrary reads x86-64 entries of ldconfig's cache")
	}
	if p := FindLibrary("libc.so.6"); p == "" || !strings.Contains(p, "libc.so.6") {
		t.Errorf("libc.so.6 not found: %q", p)
	}
	if p := FindLibrary("libclmeter-nothing.so.9"); p != "" {
		t.Errorf("a library that does not exist found at %q", p)
	}
}
