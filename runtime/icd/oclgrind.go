// Package icd finds OpenCL libraries on this machine: the ICD vendor files and
// the libraries they name, vendor libraries no file names, and Oclgrind's ICD
// library. It is the one home of that search (the loader itself is runtime/cl).
package icd

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// OclgrindInstall is the command that installs Oclgrind on Debian and Ubuntu.
const OclgrindInstall = "apt-get install oclgrind"

// oclgrindICDNames are the file names of Oclgrind's ICD library (the one an
// .icd file names; liboclgrind-rt.so is the same runtime without the ICD entry).
var oclgrindICDNames = []string{"liboclgrind-rt-icd.so"}

// oclgrindDirs are where Linux packages and source builds put it: Debian and
// Ubuntu use /usr/lib/oclgrind, older packages and source builds the library
// folders themselves.
var oclgrindDirs = []string{"/usr/lib/oclgrind", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
	"/usr/local/lib", "/usr/local/lib/oclgrind", "/usr/lib64", "/usr/lib"}

// ErrNoOclgrind is returned by FindOclgrindICD when Oclgrind is not installed.
var ErrNoOclgrind = errors.New("Oclgrind is not installed: install it with '" + OclgrindInstall + "' (sudo if not root), or set CLMETER_OCLGRIND_ICD to its liboclgrind-rt-icd.so")

// OclgrindICDEnv names a variable that points at Oclgrind's ICD library when it
// is somewhere FindOclgrindICD does not look.
const OclgrindICDEnv = "CLMETER_OCLGRIND_ICD"

// FindOclgrindICD returns the path of Oclgrind's ICD library
// (liboclgrind-rt-icd.so): override (the value of CLMETER_OCLGRIND_ICD, which
// the command reads) when not "", else the files the oclgrind package
// installed (dpkg -L oclgrind), else the usual folders, else ldconfig's cache.
// It returns ErrNoOclgrind when none exists.
func FindOclgrindICD(override string) (string, error) {
	if p := override; p != "" {
		if isFile(p) {
			return p, nil
		}
		return "", errors.New(OclgrindICDEnv + "=" + p + ": no such file; point it at liboclgrind-rt-icd.so or unset it")
	}
	for _, p := range dpkgFiles("oclgrind") {
		if isOclgrindICD(p) && isFile(p) {
			return p, nil
		}
	}
	for _, dir := range oclgrindDirs {
		for _, name := range oclgrindICDNames {
			if p := filepath.Join(dir, name); isFile(p) {
				return p, nil
			}
		}
	}
	for _, l := range ldconfigCache() {
		if isOclgrindICD(l.path) && isFile(l.path) {
			return l.path, nil
		}
	}
	return "", ErrNoOclgrind
}

func isOclgrindICD(p string) bool {
	base := filepath.Base(p)
	for _, name := range oclgrindICDNames {
		if base == name || strings.HasPrefix(base, name+".") {
			return true
		}
	}
	return false
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// dpkgFiles lists the files a Debian package installed (nil when dpkg is
// missing or the package is not installed).
func dpkgFiles(pkg string) []string {
	if _, err := exec.LookPath("dpkg"); err != nil {
		return nil
	}
	out, err := exec.Command("dpkg", "-L", pkg).Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

// OclgrindStatus says whether Oclgrind is installed and whether the ICD loader
// already offers it (a vendor file naming it), for 'clmeter doctor'.
type OclgrindStatus struct {
	// Library is Oclgrind's ICD library ("" when Oclgrind is not installed).
	Library string `json:"library"`
	// Registered is the vendor file that names it, "" when none does.
	Registered string `json:"registered,omitempty"`
}

// Oclgrind finds Oclgrind (FindOclgrindICD with override) and the vendor
// file, among dirs, that names it; nil when it is not installed.
func Oclgrind(dirs []VendorDir, override string) *OclgrindStatus {
	lib, err := FindOclgrindICD(override)
	if err != nil {
		return nil
	}
	st := &OclgrindStatus{Library: lib}
	for _, d := range dirs {
		for _, f := range d.Files {
			if isOclgrindICD(f.Library) {
				st.Registered = f.Path
			}
		}
	}
	return st
}
