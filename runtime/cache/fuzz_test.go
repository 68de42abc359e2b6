package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// fuzzKeyFields are the key fields of a PoCL-like device, with options.
func fuzzKeyFields(options string) KeyFields {
	sum := sha256.Sum256([]byte(cacheTestSrc))
	return KeyFields{
		Format: FormatVersion, SourceSHA256: hex.EncodeToString(sum[:]),
		Includes: []string{"a.h 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		Options:  options,
		Platform: "Portable Computing Language", PlatformVendor: "The pocl project", PlatformVersion: "OpenCL 3.0 PoCL 5.0",
		Device: "cpu-haswell", DeviceVendor: "GenuineIntel", DeviceVersion: "OpenCL 3.0 PoCL HSTR", DriverVersion: "5.0",
		AddressBits: 64, Env: []string{"POCL_DEVICES=cpu"},
	}
}

// fuzzEntry is a valid entry file holding payload.
func fuzzEntry(options string, payload []byte) (EntryHeader, []byte) {
	kf := fuzzKeyFields(options)
	h := EntryHeader{KeyFields: kf, Key: kf.Key(), Source: "add1.cl", Created: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)}
	return h, encodeEntry(h, payload)
}

// lossyKey reports whether an entry's key fields held invalid UTF-8, which the
// header stores as \ufffd: its key cannot be recomputed from the header.
func lossyKey(entry []byte) bool {
	return bytes.Contains(entry, []byte(`\ufffd`))
}

// checkDecoded checks what decodeEntry accepted from entry: the header
// describes the payload, and the key is the key of the key fields.
func checkDecoded(t *testing.T, entry []byte, h EntryHeader, payload []byte) {
	t.Helper()
	sum := sha256.Sum256(payload)
	if h.Format != FormatVersion || h.PayloadBytes != int64(len(payload)) ||
		h.PayloadSHA256 != hex.EncodeToString(sum[:]) || (h.KeyFields.Key() != h.Key && !lossyKey(entry)) {
		t.Fatalf("accepted an entry whose header does not describe it: %+v (payload %d bytes)", h, len(payload))
	}
}

// checkDamaged checks that a damaged copy of the entry (h, payload) is rejected,
// or, when accepted, still holds the same payload for the same key: only the
// informational Source and Created may differ (they are not checksummed), and a
// JSON name whose case changed decodes as before. Key fields that held invalid
// UTF-8 (see lossyKey) are not checked.
func checkDamaged(t *testing.T, what string, b []byte, h EntryHeader, payload []byte) {
	t.Helper()
	gh, gp, err := decodeEntry(b)
	if err != nil {
		return
	}
	checkDecoded(t, b, gh, gp)
	if lossyKey(b) {
		// decodeEntry cannot check these key fields; BuildProgram and Verify
		// still check the key against the one expected.
		if gh.Key != h.Key {
			return
		}
		gh.KeyFields = h.KeyFields
	}
	if !bytes.Equal(gp, payload) || gh.Key != h.Key || !reflect.DeepEqual(gh.KeyFields, h.KeyFields) {
		t.Fatalf("%s: accepted with another payload or key:\n got %+v\nwant %+v", what, gh, h)
	}
}

// FuzzCacheEntry checks decodeEntry on arbitrary bytes (raw), and on a valid
// entry of payload built with options, flipped at pos by xor and truncated to cut.
func FuzzCacheEntry(f *testing.F) {
	_, valid := fuzzEntry("-cl-fast-relaxed-math", []byte("\x7fELF binary\n\x00\x01"))
	f.Add(valid, []byte("\x7fELF binary\n\x00\x01"), "-cl-fast-relaxed-math", uint32(0), byte(1), uint32(0))
	f.Add([]byte{}, []byte{}, "", uint32(5), byte(0x80), uint32(1))
	f.Add([]byte(entryMagic), []byte("x"), "-I \"inc\"", uint32(20), byte(0x20), uint32(30))
	f.Add([]byte(entryMagic+"{\"format\":1}\n"), bytes.Repeat([]byte{0}, 64), "\xff\xfe", uint32(300), byte(0x04), uint32(400))
	f.Add([]byte(entryMagic+"{\"format\":1,\"payload_bytes\":-1}\n"), []byte("\n\n"), "-D X=\"\\\"", uint32(1<<31), byte(0xff), uint32(1<<30))
	f.Add(valid[:len(valid)-1], []byte("p"), "", uint32(len(valid)-1), byte(0x01), uint32(len(valid)-1))
	f.Fuzz(func(t *testing.T, raw, payload []byte, options string, pos uint32, xor byte, cut uint32) {
		if h, p, err := decodeEntry(raw); err == nil {
			checkDecoded(t, raw, h, p)
		}

		h, e := fuzzEntry(options, payload)
		gh, gp, err := decodeEntry(e)
		if err != nil || !bytes.Equal(gp, payload) || gh.Key != h.Key {
			t.Fatalf("a valid entry did not decode to itself: %v", err)
		}
		if xor != 0 {
			i := int(pos % uint32(len(e)))
			b := bytes.Clone(e)
			b[i] ^= xor
			checkDamaged(t, fmt.Sprintf("byte %d ^ %#x", i, xor), b, h, payload)
		}
		n := int(cut % uint32(len(e)))
		if _, _, err := decodeEntry(e[:n]); err == nil {
			t.Fatalf("entry of %d bytes truncated to %d accepted", len(e), n)
		}
	})
}

// TestCacheEntryEveryByteFlipped flips every bit of every byte of an entry, and
// truncates it at every length: each damaged copy is rejected, or decodes to the
// same payload and key.
func TestCacheEntryEveryByteFlipped(t *testing.T) {
	payload := make([]byte, 200)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	h, e := fuzzEntry("-cl-mad-enable -D N=4", payload)
	accepted := 0
	for i := range e {
		for bit := 0; bit < 8; bit++ {
			b := bytes.Clone(e)
			b[i] ^= 1 << bit
			if _, _, err := decodeEntry(b); err == nil {
				accepted++
			}
			checkDamaged(t, "flip", b, h, payload)
		}
	}
	for n := 0; n < len(e); n++ {
		if _, _, err := decodeEntry(e[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: accepted", n, len(e))
		}
	}
	t.Logf("%d of %d single-bit flips accepted with the same payload and key (source, created, case of a JSON name)", accepted, 8*len(e))
}
