package cache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/userfile"
	"github.com/clmeter/clmeter/runtime"
)

// FormatVersion is the version of the cache entry format. It is part of
// every key, so entries of another version are never looked up. Version 3
// hashes the key fields and the proof's kernels directly (keyHash), where 2
// hashed their JSON; version 4 seals proven entries (seal.go).
const FormatVersion = 4

// KeyFields are everything a cached binary depends on. The cache key is the
// SHA-256 of them, each length-prefixed (keyHash); an entry's header carries
// them readably, as JSON.
type KeyFields struct {
	Format int `json:"format"`
	// SourceSHA256 is the SHA-256 of the program text.
	SourceSHA256 string `json:"source_sha256"`
	// Includes are the files the source #includes, found and read, each as
	// "name sha256" (recursively; a missing include does not contribute).
	Includes []string `json:"includes"`
	Options  string   `json:"options"`

	Platform        string `json:"platform"`
	PlatformVendor  string `json:"platform_vendor"`
	PlatformVersion string `json:"platform_version"`
	Device          string `json:"device"`
	DeviceVendor    string `json:"device_vendor"`
	DeviceVersion   string `json:"device_version"`
	DriverVersion   string `json:"driver_version"`
	AddressBits     int    `json:"address_bits"`
	// Env are the code-generation environment variables of the device's driver
	// (see CodegenEnv), "NAME=value", sorted.
	Env []string `json:"env"`
}

// Key returns the hex SHA-256 that names the entry.
func (k KeyFields) Key() string {
	var h keyHash
	h.int(k.Format)
	h.strs(k.SourceSHA256)
	h.list(k.Includes)
	h.strs(k.Options, k.Platform, k.PlatformVendor, k.PlatformVersion, k.Device,
		k.DeviceVendor, k.DeviceVersion, k.DriverVersion)
	h.int(k.AddressBits)
	h.list(k.Env)
	return h.sum()
}

// keyHash builds the bytes a key or proof hashes: every field length-prefixed,
// so that no two field lists give the same bytes. It needs no reflection:
// JSON's first use in a fresh process cost a hit 50-150 µs.
type keyHash struct{ b []byte }

func (h *keyHash) int(v int) { h.b = binary.AppendVarint(h.b, int64(v)) }

func (h *keyHash) strs(ss ...string) {
	for _, s := range ss {
		h.b = binary.AppendUvarint(h.b, uint64(len(s)))
		h.b = append(h.b, s...)
	}
}

func (h *keyHash) list(ss []string) {
	h.b = binary.AppendUvarint(h.b, uint64(len(ss)))
	h.strs(ss...)
}

func (h *keyHash) sum() string {
	sum := sha256.Sum256(h.b)
	return hex.EncodeToString(sum[:])
}

// KeyFor computes the key fields of a program for a device. It fails, with
// one line of kind fail.Usage, when a file the source includes is a special
// file (a device, a FIFO, a socket) or is larger than MaxIncludeBytes: the
// key reads every include whole.
func KeyFor(d *runtime.Device, src runtime.Source, options string) (KeyFields, error) {
	sum := sha256.Sum256([]byte(src.Text))
	incs, err := includeHashes(src, options)
	if err != nil {
		return KeyFields{}, err
	}
	for i := range incs {
		incs[i] = keyText(incs[i])
	}
	env := CodegenEnv(d.Platform.Name, d.Platform.Vendor, os.Environ())
	for i := range env {
		env[i] = keyText(env[i])
	}
	return KeyFields{
		Format:          FormatVersion,
		SourceSHA256:    hex.EncodeToString(sum[:]),
		Includes:        incs,
		Options:         keyText(options),
		Platform:        keyText(d.Platform.Name),
		PlatformVendor:  keyText(d.Platform.Vendor),
		PlatformVersion: keyText(d.Platform.Version),
		Device:          keyText(d.Info.Name),
		DeviceVendor:    keyText(d.Info.Vendor),
		DeviceVersion:   keyText(d.Info.Version),
		DriverVersion:   keyText(d.Info.DriverVersion),
		AddressBits:     d.Info.AddressBits,
		Env:             env,
	}, nil
}

// keyText makes a key field valid UTF-8 without losing what tells two values
// apart: JSON would turn every invalid byte into U+FFFD, so that -DX=\xff and
// -DX=\xfe got one key. Invalid text is written as "\x00hex:" and its bytes in hex.
func keyText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return "\x00hex:" + hex.EncodeToString([]byte(s))
}

// Driver families, told apart by platform name and vendor.
const (
	driverPoCL    = "pocl"
	driverNVIDIA  = "nvidia"
	driverIntel   = "intel"
	driverAMD     = "amd"
	driverMesa    = "mesa"
	driverUnknown = ""
)

// DriverFamily names the driver of a platform: "pocl", "nvidia", "intel", "amd",
// "mesa", or "" when clmeter does not know it.
func DriverFamily(platformName, platformVendor string) string {
	s := strings.ToLower(platformName + " " + platformVendor)
	switch {
	case strings.Contains(s, "portable computing language") || strings.Contains(s, "pocl"):
		return driverPoCL
	case strings.Contains(s, "nvidia"):
		return driverNVIDIA
	case strings.Contains(s, "intel"):
		return driverIntel
	case strings.Contains(s, "advanced micro devices") || strings.Contains(s, "amd"):
		return driverAMD
	case strings.Contains(s, "rusticl") || strings.Contains(s, "clover") || strings.Contains(s, "mesa"):
		return driverMesa
	}
	return driverUnknown
}

// codegenEnv lists, per driver family, the environment variables that change the
// code a driver generates; a name ending in "*" is a prefix. NVIDIA: none (the
// driver version is in the key). Unknown drivers: none.
var codegenEnv = map[string][]string{
	driverPoCL: {"POCL_DEVICES", "POCL_CPU_*", "POCL_WORK_GROUP_METHOD", "POCL_WORK_GROUP_SPECIALIZATION",
		"POCL_EXTRA_BUILD_FLAGS", "POCL_VECTORIZER_*", "POCL_MAX_WORK_GROUP_SIZE", "POCL_FORCE_*",
		"POCL_LLVM_*"},
	driverIntel: {"IGC_*", "NEOReadDebugKeys"},
	driverAMD:   {"AMD_OCL_BUILD_OPTIONS", "AMD_OCL_BUILD_OPTIONS_APPEND", "AMD_OCL_LINK_OPTIONS", "AMD_OCL_LINK_OPTIONS_APPEND"},
	driverMesa:  {"RUSTICL_FEATURES", "RUSTICL_CL_VERSION", "RUSTICL_DEVICE_TYPE", "NIR_*"},
}

// CodegenEnv returns the entries of env ("NAME=value") that change code generation
// for the platform's driver, sorted.
func CodegenEnv(platformName, platformVendor string, env []string) []string {
	pats := codegenEnv[DriverFamily(platformName, platformVendor)]
	out := []string{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		for _, p := range pats {
			if name == p || (strings.HasSuffix(p, "*") && strings.HasPrefix(name, strings.TrimSuffix(p, "*"))) {
				out = append(out, kv)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

var includeRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)`)

// includeDirs returns the -I folders of the build options, in order.
func includeDirs(options string) []string {
	var dirs []string
	f := strings.Fields(options)
	for i := 0; i < len(f); i++ {
		switch {
		case f[i] == "-I" && i+1 < len(f):
			dirs = append(dirs, strings.Trim(f[i+1], `"'`))
			i++
		case strings.HasPrefix(f[i], "-I"):
			dirs = append(dirs, strings.Trim(f[i][2:], `"'`))
		}
	}
	return dirs
}

// MaxIncludeBytes is the most a file a kernel source includes may hold: the
// limit of a kernel source (spec.MaxSourceBytes, docs/COMMANDS.md "Limits").
const MaxIncludeBytes = 16 * userfile.MiB

// includeLimit is the limit of one included file.
func includeLimit() userfile.Limit {
	return userfile.Limit{What: "file a kernel source includes", Bytes: MaxIncludeBytes,
		Hint: "an include is read whole for the binary cache's key; --no-cache builds without reading it"}
}

// includeHashes finds every file the source includes, recursively, through the
// including file's folder (quoted includes), the -I folders and src.Dir, and
// returns "name sha256" for each in the order first met. A file that is not
// there (or a folder) is passed over as the compiler does; a special file or
// one past MaxIncludeBytes fails (package userfile).
func includeHashes(src runtime.Source, options string) ([]string, error) {
	dirs := includeDirs(options)
	if src.Dir != "" {
		dirs = append(dirs, src.Dir)
	}
	out := []string{}
	seen := map[string]bool{}
	var walk func(text, dir string, depth int) error
	walk = func(text, dir string, depth int) error {
		// Most programs include nothing: the regular expression costs a hit
		// 10-15 µs where this test costs nanoseconds.
		if depth > 32 || !strings.Contains(text, "include") {
			return nil
		}
		for _, m := range includeRE.FindAllStringSubmatch(text, -1) {
			name, quoted := m[1], m[1] != ""
			if !quoted {
				name = m[2]
			}
			search := dirs
			if quoted && dir != "" {
				search = append([]string{dir}, dirs...)
			}
			if filepath.IsAbs(name) {
				search = []string{""}
			}
			for _, d := range search {
				p := filepath.Join(d, name)
				if st, err := os.Stat(p); err != nil || st.IsDir() {
					continue
				}
				abs, _ := filepath.Abs(p)
				if seen[abs] {
					break
				}
				b, err := userfile.Read(p, includeLimit())
				if fail.KindOf(err) == fail.Usage {
					return fmt.Errorf("#include %q: %w", name, err)
				}
				if err != nil {
					continue
				}
				seen[abs] = true
				sum := sha256.Sum256(b)
				out = append(out, name+" "+hex.EncodeToString(sum[:]))
				if err := walk(string(b), filepath.Dir(p), depth+1); err != nil {
					return err
				}
				break
			}
		}
		return nil
	}
	if err := walk(src.Text, src.Dir, 0); err != nil {
		return nil, err
	}
	return out, nil
}

// maxEntryBytes is the most an entry file may hold: a program binary of the
// largest programs is a few MiB. A larger file, or one that is not a regular
// file, in the cache folder is no entry (errNotEntry) and is rebuilt.
const maxEntryBytes = 256 * userfile.MiB

// errNotEntry is the read error of a file in an entry's place that is not a
// regular file or is larger than maxEntryBytes.
var errNotEntry = errors.New("not a regular file within the entry limit")
