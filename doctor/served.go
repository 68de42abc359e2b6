package doctor

import (
	"fmt"
	"strings"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/icd"
	"github.com/clmeter/clmeter/units"
)

// knownLibraries are vendor OpenCL libraries whose missing .icd file is a known
// cause of a platform that some loaders do not see.
// platformVendor is how the library's platforms name their vendor, for a
// platform whose library cannot be told.
var knownLibraries = []struct{ lib, vendor, icd, platformVendor string }{
	{"libnvidia-opencl.so.1", "NVIDIA", "nvidia.icd", "NVIDIA"},
	{"libamdocl64.so", "AMD", "amdocl64.icd", "Advanced Micro Devices"},
	{"libigdrcl.so", "Intel", "intel.icd", "Intel"},
	{"libintelocl.so", "Intel CPU", "intel-cpu.icd", "Intel"},
}

// served marks each vendor library that loads but serves none of the
// platforms the loader listed as not OK, saying so: a library that loads is
// not a platform that loaded. plats are the loader's platforms, each with the
// library that serves it; where one cannot be told, nothing is marked.
func served(d *Diagnosis, plats []runtime.Platform) {
	for _, p := range plats {
		if p.Library == "" {
			return
		}
	}
	check := func(f *icd.VendorFile) {
		if !f.OK {
			return
		}
		lib := icd.Resolve(f.Library)
		for _, p := range plats {
			if icd.SameLibrary(lib, p.Library) {
				return
			}
		}
		f.OK = false
		if f.Platforms == 0 {
			f.Problem = "loads, but offered no platform when probed, and the ICD loader listed none from it"
		} else {
			f.Problem = fmt.Sprintf("loads and offers %s, but the ICD loader listed none of them", units.Count(f.Platforms, "platform"))
		}
	}
	for i := range d.VendorDirs {
		for j := range d.VendorDirs[i].Files {
			check(&d.VendorDirs[i].Files[j])
		}
	}
	for i := range d.ICDFilenames {
		check(&d.ICDFilenames[i])
	}
}

// missingICDFixes finds vendor libraries installed on the machine (ldconfig's
// cache, LD_LIBRARY_PATH, the usual driver folders) whose platform the loader
// did not list, and gives the exact fix: the .icd file and its line, or
// OCL_ICD_VENDORS without root. plats are the loader's platforms; nil when it
// could not list them, and then a library that no vendor file names counts as
// missing.
func missingICDFixes(d *Diagnosis, plats []runtime.Platform) []string {
	var fixes []string
	for _, k := range knownLibraries {
		path := icd.FindLibrary(k.lib)
		if path == "" || isServed(d, plats, path, k.platformVendor) {
			continue
		}
		dir := icd.DefaultVendorDir
		if len(d.VendorDirs) > 0 {
			dir = d.VendorDirs[0].Path
		}
		why := fmt.Sprintf("no vendor file in %s names it", dir)
		if named(d, path) {
			why = fmt.Sprintf("the ICD loader (%s) listed no platform from it", orNone(d.Loader))
		}
		fixes = append(fixes, fmt.Sprintf("the %s OpenCL library %s is installed but its platform is missing: %s. Fix: echo %s | sudo tee %s/%s   (or, without root: mkdir -p /tmp/opencl-vendors && cp %s/*.icd /tmp/opencl-vendors/ && echo %s > /tmp/opencl-vendors/%s && export OCL_ICD_VENDORS=/tmp/opencl-vendors)",
			k.vendor, path, why, path, icd.DefaultVendorDir, k.icd, dir, path, k.icd))
	}
	return fixes
}

// isServed reports whether a listed platform comes from the library at path
// (or, where a platform's library cannot be told, whether its vendor is
// vendor); without a listing, whether a vendor file names it.
func isServed(d *Diagnosis, plats []runtime.Platform, path, vendor string) bool {
	if plats == nil {
		for _, dir := range d.VendorDirs {
			for _, f := range dir.Files {
				if icd.SameLibrary(f.Library, path) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range plats {
		if icd.SameLibrary(p.Library, path) || p.Library == "" && strings.Contains(p.Info.Vendor, vendor) {
			return true
		}
	}
	return false
}

// named reports whether a vendor file or OCL_ICD_FILENAMES names the library
// at path.
func named(d *Diagnosis, path string) bool {
	for _, dir := range d.VendorDirs {
		for _, f := range dir.Files {
			if icd.SameLibrary(f.Library, path) {
				return true
			}
		}
	}
	for _, f := range d.ICDFilenames {
		if icd.SameLibrary(f.Library, path) {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "none"
	}
	return s
}
