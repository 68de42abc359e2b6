package cache

import (
	"bytes"
	"strings"
	"testing"
)

// sealedEntry is a proven entry's file bytes, as a store writes them.
func sealedEntry(t *testing.T) (b []byte, key, driver string) {
	t.Helper()
	kf := KeyFields{Format: FormatVersion, SourceSHA256: "s", Includes: []string{}, Env: []string{}, Device: "d"}
	payload := bytes.Repeat([]byte("binary "), 100)
	h := EntryHeader{KeyFields: kf, Key: kf.Key(), Source: "a.cl", Driver: "/lib/libdrv.so 1 2 3",
		Kernels: []KernelSig{{Name: "k", Args: []string{"global float* x"}}}}
	h.Proof = entryProof(h.Key, sha(payload), h.Driver, h.Kernels)
	b = encodeEntry(h, payload)
	if !bytes.HasPrefix(b, []byte(sealedMagic)) {
		t.Fatalf("a proven entry is not sealed: %q", b[:40])
	}
	return b, h.Key, h.Driver
}

// TestSealedPayload checks the hit's fast check: it holds for the entry as
// written, and fails on every damaged byte, another key and another driver.
func TestSealedPayload(t *testing.T) {
	b, key, driver := sealedEntry(t)
	p, kd, ok := sealedPayload(b, key, driver)
	if !ok || !bytes.Equal(p, bytes.Repeat([]byte("binary "), 100)) || kd != kernelsDigest([]KernelSig{{Name: "k", Args: []string{"global float* x"}}}) {
		t.Fatalf("sealedPayload of a sealed entry = %d bytes, %q, %v", len(p), kd, ok)
	}
	if _, _, ok := sealedPayload(b, strings.Repeat("0", len(key)), driver); ok {
		t.Error("the seal holds for another key")
	}
	if _, _, ok := sealedPayload(b, key, "/lib/libdrv.so 1 2 4"); ok {
		t.Error("the seal holds for another driver library")
	}
	for i := range b {
		d := bytes.Clone(b)
		d[i] ^= 0x01
		if _, _, ok := sealedPayload(d, key, driver); ok {
			t.Fatalf("the seal holds with byte %d damaged (%q)", i, b[max(0, i-10):min(len(b), i+10)])
		}
	}
	for _, n := range []int{0, 10, sealedLineLen, len(b) - 1} {
		if _, _, ok := sealedPayload(b[:n], key, driver); ok {
			t.Errorf("the seal holds for the first %d bytes", n)
		}
	}
	if _, _, ok := sealedPayload(append(bytes.Clone(b), 0), key, driver); ok {
		t.Error("the seal holds with a byte appended")
	}
}

// TestUnprovenNotSealed: an entry without a proof that holds gets the plain
// first line, and the whole check reads both forms.
func TestUnprovenNotSealed(t *testing.T) {
	b, _, _ := sealedEntry(t)
	h, payload, err := decodeEntry(b)
	if err != nil {
		t.Fatalf("decodeEntry of a sealed entry: %v", err)
	}
	h.Proof = ""
	u := encodeEntry(h, payload)
	if !bytes.HasPrefix(u, []byte(entryMagic)) {
		t.Fatalf("an unproven entry's first line is %q", u[:40])
	}
	if _, _, err := decodeEntry(u); err != nil {
		t.Fatalf("decodeEntry of an unsealed entry: %v", err)
	}
	// The whole check also holds the sealed line's CRC to the payload.
	d := bytes.Clone(b)
	d[len(sealedMagic)] ^= 0x01
	if _, _, err := decodeEntry(d); err == nil || err.Error() != "checksum mismatch" {
		t.Fatalf("decodeEntry with the sealed CRC damaged = %v, want checksum mismatch", err)
	}
}

// BenchmarkSealedPayload is a hit's check of a 64 KiB entry.
func BenchmarkSealedPayload(b *testing.B) {
	kf := KeyFields{Format: FormatVersion, Includes: []string{}, Env: []string{}}
	payload := bytes.Repeat([]byte{7}, 64<<10)
	h := EntryHeader{KeyFields: kf, Key: kf.Key(), Driver: "drv", Kernels: []KernelSig{{Name: "k"}}}
	h.Proof = entryProof(h.Key, sha(payload), h.Driver, h.Kernels)
	e := encodeEntry(h, payload)
	b.SetBytes(int64(len(e)))
	for b.Loop() {
		if _, _, ok := sealedPayload(e, h.Key, "drv"); !ok {
			b.Fatal("not sealed")
		}
	}
}
