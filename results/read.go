package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/userfile"
	"github.com/clmeter/clmeter/units"
)

// A SyntaxError is malformed JSON in a result file, with its position.
type SyntaxError struct {
	File string
	// Line and Column are 1-based; Column counts bytes.
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// A VersionError is a file of another schema or another version of it.
type VersionError struct {
	File    string
	Schema  string
	Version int
}

func (e *VersionError) Error() string {
	if e.Schema != SchemaName {
		return fmt.Sprintf("%s: not a clmeter result file (schema %q, want %q)", e.File, e.Schema, SchemaName)
	}
	if MinSchemaVersion == SchemaVersion {
		return fmt.Sprintf("%s: unsupported result schema version %d (this clmeter reads %d)", e.File, e.Version, SchemaVersion)
	}
	return fmt.Sprintf("%s: unsupported result schema version %d (this clmeter reads %d to %d)", e.File, e.Version, MinSchemaVersion, SchemaVersion)
}

// MaxFileBytes is the most a result file may hold: 256 MiB, some forty times
// a full suite's file with its samples (docs/COMMANDS.md, "Limits"). A file
// is read whole and decoded in memory, so larger ones are refused.
const MaxFileBytes = 256 * userfile.MiB

// fileLimit is the limit of a result file for package userfile.
func fileLimit() userfile.Limit {
	return userfile.Limit{What: "result file", Bytes: MaxFileBytes,
		Hint: "clmeter writes far smaller ones: is it a result file?"}
}

// Read reads the result file at path: a regular file of at most MaxFileBytes
// (package userfile refuses anything else with one line).
func Read(path string) (*File, error) {
	data, err := userfile.Read(path, fileLimit())
	if err != nil {
		return nil, err
	}
	return decode(data, path)
}

// Decode reads a result file from r; name is used in errors. It rejects
// another schema or version (*VersionError), malformed JSON (*SyntaxError, with
// line and column), a key given twice in one object (*SyntaxError) and fields
// this version does not know. A UTF-8 byte order mark at the start is skipped.
// It reads at most MaxFileBytes.
func Decode(r io.Reader, name string) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fail.Usagef("%s is larger than the %s limit for a result file", name, userfile.Size(MaxFileBytes))
	}
	return decode(data, name)
}

// decode decodes a result file's contents; name is used in errors.
func decode(data []byte, name string) (*File, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	// The header first, leniently: a file of another version may have fields
	// this one does not know, and deserves the version error rather than those.
	var head struct {
		Schema  string `json:"schema"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, decodeError(name, data, err)
	}
	if head.Schema != SchemaName || head.Version < MinSchemaVersion || head.Version > SchemaVersion {
		return nil, &VersionError{File: name, Schema: head.Schema, Version: head.Version}
	}
	if key, off, dup := duplicateKey(data); dup {
		line, col := position(data, off)
		return nil, &SyntaxError{File: name, Line: line, Column: col,
			Msg: fmt.Sprintf("key %q appears twice in one object: a result file names each key once (which value is meant?)", key)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(name, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := position(data, int(dec.InputOffset())+1)
		return nil, &SyntaxError{File: name, Line: line, Column: col, Msg: "unexpected data after the result object"}
	}
	if err := checkVersionFields(&f, name); err != nil {
		return nil, err
	}
	for i := range f.Benchmarks {
		b := &f.Benchmarks[i]
		if f.Version < 3 {
			b.Identity = legacyIdentity(*b)
		}
		if f.Version < 4 && b.Device.Host == "" {
			b.Device.Host = f.Host.Hostname // the machine the file was measured on
		}
	}
	return &f, nil
}

// checkVersionFields rejects a field of a benchmark that came after the
// file's version.
func checkVersionFields(f *File, name string) error {
	for i, b := range f.Benchmarks {
		fields := map[string]int{}
		if b.Roofline != nil {
			fields["roofline"] = 2
		}
		if b.Resources != nil {
			fields["resources"] = 2
		}
		if b.Clocks != nil {
			fields["clocks"] = 2
		}
		if b.Identity != nil {
			fields["identity"] = 3
		}
		if f := deviceIdentityField(b.Device); f != "" {
			fields[f] = 4
		}
		for _, field := range []string{"roofline", "resources", "clocks", "identity", "device.uuid", "device.pci", "device.key", "device.key_fallback"} {
			if v, ok := fields[field]; ok && f.Version < v {
				return fmt.Errorf("%s: benchmark %d (%s): field %q is not in schema version %d (it came in version %d)", name, i, units.Escape(b.Name), field, f.Version, v)
			}
		}
	}
	return nil
}

// deviceIdentityField names the first of d's version 4 fields that is set,
// "" when none is. The host is left out: the reader sets it in an older
// file (from the file's hostname), which must read again once written.
func deviceIdentityField(d DeviceInfo) string {
	switch {
	case d.UUID != "":
		return "device.uuid"
	case d.PCI != "":
		return "device.pci"
	case d.Key != "":
		return "device.key"
	case d.KeyFallback:
		return "device.key_fallback"
	}
	return ""
}

// decodeError turns an encoding/json error into one that names the file and,
// where the error has an offset, the line and column.
func decodeError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off := int(syn.Offset)
		if off >= len(data) && strings.Contains(syn.Error(), "unexpected end") {
			off = len(data) + 1 // point just past the end, where more was expected
		}
		line, col := position(data, off)
		return &SyntaxError{File: name, Line: line, Column: col, Msg: syn.Error()}
	case errors.As(err, &typ):
		line, col := position(data, int(typ.Offset))
		field := typ.Field
		if field == "" {
			// The top level: the file is not one JSON object.
			return &SyntaxError{File: name, Line: line, Column: col,
				Msg: fmt.Sprintf("a result file is one JSON object ({\"schema\": %q, ...}), not a JSON %s", SchemaName, typ.Value)}
		}
		want := typ.Type.Kind().String()
		if typ.Type.Name() != "" {
			want = typ.Type.Name()
		}
		return &SyntaxError{File: name, Line: line, Column: col,
			Msg: fmt.Sprintf("%s: cannot use JSON %s as %s", field, typ.Value, want)}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		line, col := position(data, len(data)+1)
		return &SyntaxError{File: name, Line: line, Column: col, Msg: "unexpected end of file"}
	}
	return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "json: "))
}

// position returns the 1-based line and column of the byte before offset
// (encoding/json offsets count the bytes read up to and including the bad one).
func position(data []byte, offset int) (line, col int) {
	pos := min(max(offset-1, 0), len(data))
	before := data[:pos]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = pos - bytes.LastIndexByte(before, '\n')
	return line, col
}
