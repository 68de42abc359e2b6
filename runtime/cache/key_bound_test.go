package cache

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/spec"
)

// keyOf is KeyFor for a test that expects a key.
func keyOf(t *testing.T, d *runtime.Device, src runtime.Source, options string) KeyFields {
	t.Helper()
	kf, err := KeyFor(d, src, options)
	if err != nil {
		t.Fatalf("KeyFor: %v", err)
	}
	return kf
}

// TestKeyBoundedIncludes: an include that is a device, a FIFO or larger than
// the limit fails the key with one line naming it, without reading it (a
// FIFO with no writer would block, /dev/zero would never end); a folder of
// the include's name is passed over, as the compiler does.
func TestKeyBoundedIncludes(t *testing.T) {
	if MaxIncludeBytes != spec.MaxSourceBytes {
		t.Errorf("MaxIncludeBytes %d, the source limit %d: one limit for the source and its includes", MaxIncludeBytes, spec.MaxSourceBytes)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.h")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.h")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(MaxIncludeBytes + 1) // sparse: no disk used
	f.Close()
	os.Mkdir(filepath.Join(dir, "folder.h"), 0o755)
	os.WriteFile(filepath.Join(dir, "nested.h"), []byte("#include \"/dev/zero\"\n"), 0o644)
	d := &runtime.Device{}
	for _, tc := range []struct{ include, want string }{
		{`"/dev/zero"`, "/dev/zero is a character device, not a regular file"},
		{`"pipe.h"`, "pipe.h is a FIFO"},
		{`"big.h"`, "big.h is larger than the 16 MiB limit"},
		{`"nested.h"`, `#include "/dev/zero"`},
	} {
		src := runtime.Source{Name: "k.cl", Text: "#include " + tc.include + "\nkernel void k() {}\n", Dir: dir}
		_, err := KeyFor(d, src, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || fail.KindOf(err) != fail.Usage {
			t.Errorf("#include %s: %v (kind %v), want one usage line saying %q", tc.include, err, fail.KindOf(err), tc.want)
		}
	}
	src := runtime.Source{Name: "k.cl", Text: "#include \"folder.h\"\nkernel void k() {}\n", Dir: dir}
	if kf, err := KeyFor(d, src, ""); err != nil || len(kf.Includes) != 0 {
		t.Errorf("an include naming a folder: %v, %v; want it passed over", kf.Includes, err)
	}
}

// TestReadEntryRefusesSpecialFiles: a FIFO in an entry's place (a shared
// cache folder) is refused at once rather than waited on, and so is a file
// past maxEntryBytes; the build then goes from source.
func TestReadEntryRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	f, _ := os.Create(big)
	f.Truncate(maxEntryBytes + 1)
	f.Close()
	for _, p := range []string{fifo, big, "/dev/zero"} {
		if _, err := readEntry(p); !errors.Is(err, errNotEntry) {
			t.Errorf("readEntry(%s) = %v, want errNotEntry", p, err)
		}
	}
}
