package icd

import (
	"os/exec"
	"strings"
)

// A cachedLibrary is one line of ldconfig's cache:
// "libOpenCL.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libOpenCL.so.1".
type cachedLibrary struct {
	name, desc, path string
}

// ldconfigCache lists the libraries in ldconfig's cache (nil when ldconfig
// cannot be run).
func ldconfigCache() []cachedLibrary {
	bin, err := exec.LookPath("ldconfig")
	if err != nil {
		bin = "/sbin/ldconfig"
	}
	out, err := exec.Command(bin, "-p").Output()
	if err != nil {
		return nil
	}
	var libs []cachedLibrary
	for _, line := range strings.Split(string(out), "\n") {
		head, p, ok := strings.Cut(line, "=>")
		if !ok {
			continue
		}
		name, desc, _ := strings.Cut(strings.TrimSpace(head), " ")
		libs = append(libs, cachedLibrary{name: name, desc: desc, path: strings.TrimSpace(p)})
	}
	return libs
}
