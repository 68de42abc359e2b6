package icd

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
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

// TestCheckVendorFile: a NUL byte, a FIFO, an unreadable or overlong file is
// found without opening a FIFO or loading anything; a good file passes, and
// Suspects lists only the bad ones of OCL_ICD_VENDORS's folder.
func TestCheckVendorFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	good := write("good.icd", "libpocl.so.2\n")
	nul := write("nul.icd", "\x00libpocl.so.2\n")
	long := write("long.icd", strings.Repeat("x", maxVendorFile+1))
	fifo := filepath.Join(dir, "fifo.icd")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{good: "", nul: "holds a NUL byte at byte 0", long: "bytes long", fifo: "is a FIFO"} {
		if got, _ := CheckVendorFile(path); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", filepath.Base(path), got, want)
		}
	}
	t.Setenv("OCL_ICD_VENDORS", dir)
	var bad []string
	for _, f := range Suspects() {
		bad = append(bad, filepath.Base(f.Path))
	}
	if strings.Join(bad, " ") != "fifo.icd long.icd nul.icd" {
		t.Errorf("suspects %v, want fifo.icd long.icd nul.icd", bad)
	}
	if vf := ReadVendorFile(nul); vf.OK || vf.Library != "" || !strings.Contains(vf.Problem, "NUL") {
		t.Errorf("ReadVendorFile of a NUL file: %+v", vf)
	}
}
