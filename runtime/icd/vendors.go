package icd

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clmeter/clmeter/runtime/cl"
)

// DefaultVendorDir is where ICD loaders look for vendor files by default.
const DefaultVendorDir = "/etc/OpenCL/vendors"

// VendorDir is one folder of .icd files.
type VendorDir struct {
	Path   string       `json:"path"`
	Source string       `json:"source"`
	Err    string       `json:"error,omitempty"`
	Files  []VendorFile `json:"files"`
}

// VendorFile is one .icd file and whether the library it names loads.
type VendorFile struct {
	Path    string `json:"path"`
	Library string `json:"library"`
	// OK is true when the library loads as an ICD; once the loader has
	// listed its platforms (the doctor's Served), only when at least one of
	// them came from this library.
	OK bool `json:"ok"`
	// Platforms is how many platforms the library offers.
	Platforms int    `json:"platforms"`
	Problem   string `json:"problem,omitempty"`
}

// ReadVendorDir lists the .icd files of dir and probes the library each names.
func ReadVendorDir(dir, source string) VendorDir {
	vd := VendorDir{Path: dir, Source: source, Files: []VendorFile{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		vd.Err = err.Error()
		return vd
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".icd") {
			continue
		}
		vd.Files = append(vd.Files, ReadVendorFile(filepath.Join(dir, e.Name())))
	}
	return vd
}

// ReadVendorFile checks one .icd file (CheckVendorFile) and probes the
// library it names.
func ReadVendorFile(path string) VendorFile {
	vf := VendorFile{Path: path}
	problem, b := CheckVendorFile(path)
	if problem != "" {
		vf.Problem = problem
		return vf
	}
	vf.Library = strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	if vf.Library == "" {
		vf.Problem = "the file names no library"
		return vf
	}
	n, err := cl.ProbeICD(vf.Library)
	if err != nil {
		vf.Problem = err.Error()
		return vf
	}
	vf.OK, vf.Platforms = true, n
	return vf
}

// libraryDirs are searched for vendor libraries beside ldconfig's cache.
var libraryDirs = []string{"/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/opt/rocm/lib", "/opt/intel/opencl"}

// FindLibrary looks a library up in ldconfig's cache, then in the folders of
// LD_LIBRARY_PATH, then in the usual driver folders.
func FindLibrary(name string) string {
	for _, l := range ldconfigCache() {
		if l.name == name && strings.Contains(l.desc, "x86-64") {
			return l.path
		}
	}
	for _, dir := range filepath.SplitList(os.Getenv("LD_LIBRARY_PATH")) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); dir != "" && err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	var found []string
	for _, dir := range libraryDirs {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			found = append(found, p)
		}
	}
	sort.Strings(found)
	if len(found) > 0 {
		return found[0]
	}
	return ""
}

// Listing reads the vendor files the ICD loader reads: those of the folder or
// file OCL_ICD_VENDORS names, else of DefaultVendorDir, and probes each
// library they name; files are the libraries OCL_ICD_FILENAMES names, probed.
func Listing() (dirs []VendorDir, files []VendorFile) {
	dirs, files = []VendorDir{}, []VendorFile{}
	if v := os.Getenv("OCL_ICD_VENDORS"); v != "" {
		if strings.HasSuffix(v, ".icd") {
			dir := VendorDir{Path: v, Source: "OCL_ICD_VENDORS"}
			dir.Files = []VendorFile{ReadVendorFile(v)}
			dirs = append(dirs, dir)
		} else {
			dirs = append(dirs, ReadVendorDir(v, "OCL_ICD_VENDORS"))
		}
	} else {
		dirs = append(dirs, ReadVendorDir(DefaultVendorDir, "default"))
	}
	if v := os.Getenv("OCL_ICD_FILENAMES"); v != "" {
		for _, lib := range strings.Split(v, ":") {
			if lib = strings.TrimSpace(lib); lib == "" {
				continue
			}
			vf := VendorFile{Path: "OCL_ICD_FILENAMES", Library: lib, OK: true}
			if _, err := cl.ProbeICD(lib); err != nil {
				vf.OK, vf.Problem = false, err.Error()
			}
			files = append(files, vf)
		}
	}

	return dirs, files
}

// Resolve returns the file a library stands for: a path as it is, a bare
// name (as an .icd file or OCL_ICD_FILENAMES gives it) looked up as
// FindLibrary does ("" when it is not found).
func Resolve(lib string) string {
	if lib != "" && !strings.Contains(lib, "/") {
		return FindLibrary(lib)
	}
	return lib
}

// SameLibrary reports whether two libraries, each a path or a bare name
// (Resolve), are one file.
func SameLibrary(a, b string) bool {
	ra, rb := Resolve(a), Resolve(b)
	if ra == "" || rb == "" {
		return false
	}
	sa, err := os.Stat(ra)
	if err != nil {
		return false
	}
	sb, err := os.Stat(rb)
	return err == nil && os.SameFile(sa, sb)
}
