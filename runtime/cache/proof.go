package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// A cached binary is proven before it is trusted. An entry carries, beside the
// driver's bytes, the kernels and their arguments as the source build gave
// them, the identity of the driver library that made it, and a proof: a
// checksum over the key, the payload's checksum, the driver's identity and the
// kernels, written only after the binary was loaded back and its kernels
// matched the source's. A hit loads in the user's process only an entry proven
// on the very driver library at hand (a driver that changed its binary format
// without changing its version strings is a new file, so its entries are
// rebuilt), and checks the loaded kernels against the entry's before use: a
// wrong payload can neither crash the run nor change the answer.

// KernelSig is one kernel's name and arguments, as the program built from
// source gives them.
type KernelSig struct {
	Name string `json:"name"`
	// Args are "address-space type name" per argument ("global float* x");
	// empty strings where the driver gives no argument information.
	Args []string `json:"args"`
}

// programSignature lists a built program's kernels, sorted by name, with their
// arguments.
func programSignature(p *cl.Program) ([]KernelSig, error) {
	names, err := p.KernelNames()
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]KernelSig, 0, len(names))
	for _, n := range names {
		k, err := p.CreateKernel(n)
		if err != nil {
			return nil, fmt.Errorf("kernel %s: %w", n, err)
		}
		na, err := k.NumArgs()
		if err != nil {
			k.Release()
			return nil, fmt.Errorf("kernel %s: %w", n, err)
		}
		sig := KernelSig{Name: n, Args: make([]string, na)}
		for i := range na {
			if a, err := k.ArgInfo(i); err == nil {
				sig.Args[i] = a.AddressSpace + " " + a.TypeName + " " + a.Name
			}
		}
		k.Release()
		out = append(out, sig)
	}
	return out, nil
}

// sameSignature says how a loaded program's kernels differ from want (nil when
// they match). An argument the driver describes on one side only is compared
// by count alone.
func sameSignature(want, got []KernelSig) error {
	names := func(s []KernelSig) string {
		n := make([]string, len(s))
		for i, k := range s {
			n[i] = k.Name
		}
		return strings.Join(n, ",")
	}
	if len(want) != len(got) || names(want) != names(got) {
		return fmt.Errorf("kernels %s, want %s", orNone(names(got)), orNone(names(want)))
	}
	for i := range want {
		w, g := want[i], got[i]
		if len(w.Args) != len(g.Args) {
			return fmt.Errorf("kernel %s has %d arguments, want %d", w.Name, len(g.Args), len(w.Args))
		}
		for j := range w.Args {
			if w.Args[j] != "" && g.Args[j] != "" && w.Args[j] != g.Args[j] {
				return fmt.Errorf("kernel %s argument %d is %q, want %q", w.Name, j, g.Args[j], w.Args[j])
			}
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// driverIDs remembers each platform library's identity once a process.
var driverIDs sync.Map // *cl.Platform -> func() string (a sync.OnceValue)

// DriverIdentity names the driver library behind d's platform as a file:
// its path, size, modification time and inode ("" when the library cannot be
// found). A rebuilt or upgraded driver is another file, so entries proven on
// the old one are not trusted on the new one.
func DriverIdentity(d *runtime.Device) string {
	if d == nil || d.CL == nil || d.CL.Platform() == nil {
		return ""
	}
	f, _ := driverIdentityOf(d.CL.Platform())
	return f()
}

// driverIdentityOf is the once-a-process lookup of p's driver identity, and
// whether this call made it (an earlier one had not).
func driverIdentityOf(p *cl.Platform) (f func() string, made bool) {
	if v, ok := driverIDs.Load(p); ok {
		return v.(func() string), false
	}
	v, loaded := driverIDs.LoadOrStore(p, sync.OnceValue(func() string { return fileIdentity(p.Library()) }))
	return v.(func() string), !loaded
}

// prefetchDriverIdentity starts finding d's driver identity in the background
// when this process has not yet: the first costs a hit 40-90 µs in a fresh
// process on PoCL (dladdr over every loaded library, a stat). A later
// DriverIdentity waits for it.
func prefetchDriverIdentity(d *runtime.Device) {
	if d == nil || d.CL == nil || d.CL.Platform() == nil {
		return
	}
	if f, made := driverIdentityOf(d.CL.Platform()); made {
		go f()
	}
}

// PrepareDevice starts finding d's driver identity (prefetchDriverIdentity)
// when the cache is on for d: the Manager calls it as it makes d's context,
// so that a hit's first build neither starts nor waits for the lookup.
func (c *Cache) PrepareDevice(d *runtime.Device) {
	if c.policy(d).On {
		prefetchDriverIdentity(d)
	}
}

// fileIdentity is "path size mtime inode" of a file, or "" when it cannot be read.
func fileIdentity(path string) string {
	if path == "" {
		return ""
	}
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	ino := uint64(0)
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		ino = s.Ino
	}
	return fmt.Sprintf("%s %d %d %d", path, st.Size(), st.ModTime().UnixNano(), ino)
}

// entryProof is the proof an entry's header carries: a checksum over what was
// proven together.
func entryProof(key, payloadSHA256, driver string, kernels []KernelSig) string {
	var h keyHash
	h.strs("clmeter-proof", key, payloadSHA256, driver)
	h.int(len(kernels))
	for _, k := range kernels {
		h.strs(k.Name)
		h.list(k.Args)
	}
	return h.sum()
}

// staticProof says why an entry's header does not prove its payload (nil
// when it does): no proof, or a proof over another payload or other kernels.
func staticProof(h EntryHeader) error {
	if h.Proof == "" {
		return errors.New("not proven (no proof)")
	}
	if h.Proof != entryProof(h.Key, h.PayloadSHA256, h.Driver, h.Kernels) {
		return errors.New("not proven: payload or kernels do not match the entry's proof")
	}
	return nil
}

// checkProof says why an entry is not proven on d's driver (nil when it is).
func checkProof(h EntryHeader, d *runtime.Device) error {
	if err := staticProof(h); err != nil {
		return err
	}
	if drv := DriverIdentity(d); h.Driver != drv {
		return fmt.Errorf("not proven on this driver library (%s): proven on %s", orNone(drv), orNone(h.Driver))
	}
	return nil
}

// proveBinary loads binary on d and checks its kernels against want, the
// source build's, and returns the entry's proof for key and driver. The caller
// runs it where a crash costs no user's run: in the store child, or right
// after the driver made the binary in this process.
func proveBinary(d *runtime.Device, key, driver string, binary []byte, options string, want []KernelSig) (string, error) {
	p, _, err := d.BuildFromBinary(binary, options)
	if err != nil {
		return "", fmt.Errorf("the driver's binary does not load back: %v", oneLine(err.Error()))
	}
	defer p.Release()
	got, err := programSignature(p)
	if err != nil {
		return "", fmt.Errorf("the driver's binary loads without its kernels: %v", err)
	}
	if err := sameSignature(want, got); err != nil {
		return "", fmt.Errorf("the driver's binary loads back with other kernels: %v", err)
	}
	sum := sha256.Sum256(binary)
	return entryProof(key, hex.EncodeToString(sum[:]), driver, want), nil
}
