package cl

/*
#cgo LDFLAGS: -ldl
#include "shim.h"
#include <stdlib.h>
*/
import "C"

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"
)

// C_int is cl_int, named so files without cgo can refer to it.
type C_int = C.cl_int

var (
	loadOnce sync.Once
	loadErr  error
	loadPath string
	loaded   atomic.Bool // the library was loaded: OpenCL may be at work
)

// Loaded reports whether this process has loaded the OpenCL library (Load
// succeeded): whether a driver may be at work in it. It loads nothing.
func Loaded() bool { return loaded.Load() }

// LibraryEnv names the environment variable that picks the OpenCL library to load
// instead of the system's libOpenCL.so.1.
const LibraryEnv = "CLMETER_OPENCL_LIB"

// Load opens the OpenCL ICD loader once; later calls return the first result.
// Every function of this package that reaches OpenCL calls it, so calling it is
// needed only to learn early whether OpenCL is there. The library is taken from
// CLMETER_OPENCL_LIB when set, else libOpenCL.so.1, else libOpenCL.so.
func Load() error {
	loadOnce.Do(func() {
		path := os.Getenv(LibraryEnv)
		var cpath *C.char
		if path != "" {
			cpath = C.CString(path)
			defer C.free(unsafe.Pointer(cpath))
		}
		var buf [512]C.char
		if rc := C.clm_load(cpath, &buf[0], C.size_t(len(buf))); rc != 0 {
			reason := C.GoString(&buf[0])
			if rc == 1 && path == "" {
				loadErr = fmt.Errorf("%w (%s)", ErrNoLibrary, reason)
			} else {
				loadErr = fmt.Errorf("%w: %s", ErrNoLibrary, reason)
			}
			return
		}
		C.clm_loaded_path(&buf[0], C.size_t(len(buf)))
		loadPath = C.GoString(&buf[0])
		loaded.Store(true)
	})
	return loadErr
}

// LibraryPath returns the file the ICD loader was loaded from ("" before Load or
// when loading failed).
func LibraryPath() string {
	if Load() != nil {
		return ""
	}
	return loadPath
}

// ProbeICD opens a vendor library named by an .icd file as an ICD loader would,
// and returns how many platforms it offers, or why it is unusable.
func ProbeICD(library string) (int, error) {
	cpath := C.CString(library)
	defer C.free(unsafe.Pointer(cpath))
	var buf [512]C.char
	var n C.int
	if rc := C.clm_probe_icd(cpath, &n, &buf[0], C.size_t(len(buf))); rc != 0 {
		return 0, fmt.Errorf("%s", C.GoString(&buf[0]))
	}
	return int(n), nil
}
