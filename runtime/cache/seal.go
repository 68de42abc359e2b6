package cache

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
)

// A proven entry is sealed: its first line carries the CRC-32C of its payload,
// the digest of its kernels (kernelsDigest of the header's) and a seal, the
// SHA-256 of the entry's key, its header line's bytes, the driver library it
// was proven on, the payload's length and CRC and the kernels' digest:
//
//	CLMETER-CLBIN <crc32c, 8 hex> <kernels, 64 hex> <seal, 64 hex>
//
// A hit checks the seal and the payload's CRC (sealedPayload) and decodes no
// JSON: in a fresh process the header's decode and the payload's SHA-256 cost
// a hit 130-200 µs on PoCL, against 2 ms for the driver's own load. The seal
// is written only with a proof that holds (see proof.go), so an entry whose
// seal holds for this key and this driver library is one proven here, with the
// header and payload it was proven with. Once loaded, its kernels are checked
// against the digest (the header's kernels, decoded, where the digest differs).
// Anything else (no seal, another driver, a damaged byte) takes the whole
// check of decodeEntry and checkProof, which gives the reason of a rejection.
// 'clmeter cache verify' always takes the whole check, SHA-256 included.
//
// The CRC-32C (Castagnoli, done in hardware on amd64 and arm64) catches every
// burst of damage up to 32 bits and any other with odds of 2^-32; the
// payload's SHA-256 stays in the header and in the proof.

// sealedMagic opens a sealed entry's first line; entryMagic is an unsealed one.
const sealedMagic = "CLMETER-CLBIN "

// sealedLineLen is the length of a sealed first line, its newline included.
const sealedLineLen = len(sealedMagic) + 8 + 1 + 64 + 1 + 64 + 1

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// payloadCRC is the payload's CRC-32C in hex.
func payloadCRC(payload []byte) string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc32.Checksum(payload, crcTable))
	return hex.EncodeToString(b[:])
}

// kernelsDigest is the digest of a program's kernels and their arguments.
func kernelsDigest(kernels []KernelSig) string {
	var h keyHash
	h.strs("clmeter-kernels")
	h.int(len(kernels))
	for _, k := range kernels {
		h.strs(k.Name)
		h.list(k.Args)
	}
	return h.sum()
}

// entrySeal is the seal of an entry of key with header line header, proven
// on driver, over a payload of n bytes with CRC crc, of kernels with digest
// kernels.
func entrySeal(key string, header []byte, driver, crc, kernels string, n int) string {
	var h keyHash
	h.strs("clmeter-seal", key, string(header), driver, crc, kernels)
	h.int(n)
	return h.sum()
}

// sealedLine is the first line of a sealed entry.
func sealedLine(key string, header []byte, driver string, kernels []KernelSig, payload []byte) string {
	crc, kd := payloadCRC(payload), kernelsDigest(kernels)
	return sealedMagic + crc + " " + kd + " " + entrySeal(key, header, driver, crc, kd, len(payload)) + "\n"
}

// sealFields is a sealed first line's fields.
type sealFields struct{ crc, kernels, seal string }

// splitFirstLine splits an entry file after its first line: rest is the
// header line and the payload; sf is zero when the entry is not sealed. ok is
// false when the first line is neither form.
func splitFirstLine(b []byte) (rest []byte, sf sealFields, ok bool) {
	if bytes.HasPrefix(b, []byte(entryMagic)) {
		return b[len(entryMagic):], sf, true
	}
	const k, s = len(sealedMagic) + 8, len(sealedMagic) + 8 + 1 + 64
	if len(b) < sealedLineLen || !bytes.HasPrefix(b, []byte(sealedMagic)) ||
		b[k] != ' ' || b[s] != ' ' || b[sealedLineLen-1] != '\n' {
		return nil, sf, false
	}
	sf = sealFields{crc: string(b[len(sealedMagic):k]), kernels: string(b[k+1 : s]), seal: string(b[s+1 : sealedLineLen-1])}
	return b[sealedLineLen:], sf, true
}

// sealedPayload returns the payload of an entry file (b) whose seal holds for
// key and driver and whose payload matches its CRC, and the digest of the
// kernels it was proven with; ok is false otherwise (the caller then checks
// the entry whole).
func sealedPayload(b []byte, key, driver string) (payload []byte, kernels string, ok bool) {
	rest, sf, ok := splitFirstLine(b)
	if !ok || sf.seal == "" {
		return nil, "", false
	}
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 || nl > maxHeaderBytes {
		return nil, "", false
	}
	header, payload := rest[:nl], rest[nl+1:]
	if payloadCRC(payload) != sf.crc || entrySeal(key, header, driver, sf.crc, sf.kernels, len(payload)) != sf.seal {
		return nil, "", false
	}
	return payload, sf.kernels, true
}
