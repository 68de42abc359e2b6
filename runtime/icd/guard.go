package icd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clmeter/clmeter/internal/userfile"
	"github.com/clmeter/clmeter/isolate"
	"github.com/clmeter/clmeter/runtime/cl"
)

// maxVendorFile bounds what is read of a vendor file: one library path.
const maxVendorFile = 64 << 10

// CheckVendorFile checks path as a vendor file before any loader reads it,
// cheaply, without loading anything: it must be a regular file (a FIFO blocks
// the loader that opens it), readable, within maxVendorFile bytes and without
// a NUL byte (ocl-icd's loader crashes in clGetPlatformIDs on a file whose
// first byte is NUL). It returns what is wrong, as words that follow the
// file's name ("" when nothing is), and the content read.
func CheckVendorFile(path string) (problem string, content []byte) {
	fi, err := os.Stat(path)
	if err != nil {
		return "cannot be read: " + unwrap(err).Error(), nil
	}
	if !fi.Mode().IsRegular() {
		return fmt.Sprintf("is %s, not a regular file, which ICD loaders may block on: remove it", userfile.KindOf(fi.Mode())), nil
	}
	if fi.Size() > maxVendorFile {
		return fmt.Sprintf("is %d bytes long, not one library path: remove it or write the library's path in it", fi.Size()), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "cannot be read: " + unwrap(err).Error(), nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxVendorFile+1))
	if err != nil {
		return "cannot be read: " + unwrap(err).Error(), nil
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return fmt.Sprintf("holds a NUL byte at byte %d, which ICD loaders crash on (ocl-icd in clGetPlatformIDs): remove it or write the library's path in it", i), b
	}
	return "", b
}

func unwrap(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// vendorFiles are the paths of the vendor files the ICD loader reads: the
// .icd files of the folder (or the one file) OCL_ICD_VENDORS names, else of
// DefaultVendorDir.
func vendorFiles() []string {
	dir := DefaultVendorDir
	if v := os.Getenv("OCL_ICD_VENDORS"); v != "" {
		if strings.HasSuffix(v, ".icd") {
			return []string{v}
		}
		dir = v
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var paths []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".icd") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths
}

// Suspects are the vendor files the ICD loader reads that CheckVendorFile
// finds wrong, with the reason: the files a loader may crash or hang on.
func Suspects() []VendorFile {
	var bad []VendorFile
	for _, p := range vendorFiles() {
		if problem, _ := CheckVendorFile(p); problem != "" {
			bad = append(bad, VendorFile{Path: p, Problem: problem})
		}
	}
	return bad
}

// EnumerateTimeout bounds the child process of CheckEnumeration: listing
// the platforms takes well under a second on PoCL and a few on GPU drivers;
// a loader that opened a FIFO as a vendor file waits forever.
const EnumerateTimeout = 30 * time.Second

// CheckEnumeration makes sure that listing the OpenCL platforms cannot kill
// this process: when no vendor file is suspect (Suspects, the normal case:
// a few small files read), it returns nil at once; else it lists the
// platforms first in a child process (child reruns clmeter with a hidden
// command that calls EnumerateChild) and returns one line naming the vendor
// files when the child crashed or hung, nil when the loader coped.
func CheckEnumeration(ctx context.Context, child []string) error {
	bad := Suspects()
	if len(bad) == 0 || isolate.Active() {
		return nil
	}
	var names []string
	for _, f := range bad {
		names = append(names, f.Path+" "+f.Problem)
	}
	files := "the vendor file " + strings.Join(names, "; the vendor file ")
	if len(child) == 0 {
		return errors.New("cannot check the OpenCL set-up in a child process: " + files)
	}
	r, err := isolate.Call(ctx, isolate.Child{Command: child, Timeout: EnumerateTimeout})
	if err != nil {
		return err
	}
	switch {
	case r.TimedOut:
		return fmt.Errorf("listing the OpenCL platforms did not end in %s (tried in a child process): %s", EnumerateTimeout, files)
	case r.Crash() != "":
		sig, _, _ := strings.Cut(r.Crash(), ":")
		return fmt.Errorf("listing the OpenCL platforms crashed the ICD loader (%s, in a child process): %s", sig, files)
	}
	return nil
}

// An Enumeration is what EnumerateChild reports: how many platforms the
// loader listed.
type Enumeration struct {
	Platforms int `json:"platforms"`
}

// EnumerateChild is the child's side of CheckEnumeration: it lists the
// platforms (the call that may crash) and writes the count as one JSON line.
func EnumerateChild(stdout io.Writer) error {
	ps, err := cl.Platforms()
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(Enumeration{Platforms: len(ps)})
}
