package store

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/clmeter/clmeter/results"
)

// CheckText refuses text that one back end keeps and the other refuses:
// PostgreSQL's text holds no NUL byte and only valid UTF-8, so neither store
// takes them, and a run learns it before it measures. what names the text
// in the message.
func CheckText(what, s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("%s %q holds a NUL byte, which a store cannot keep: remove it", what, s)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s %q is not valid UTF-8, which a store cannot keep: write it in UTF-8", what, s)
	}
	return nil
}

// checkFileText refuses a result file whose text fields CheckText refuses:
// the names, kinds, parameters, errors and devices of its benchmarks, and
// its tool and host.
func checkFileText(f *results.File, source string) error {
	for _, t := range []struct{ what, s string }{{"the file name", source}, {"the tool", f.Tool.Name},
		{"the tool version", f.Tool.Version}, {"the host name", f.Host.Hostname}, {"the host CPU", f.Host.CPU},
		{"the host OS", f.Host.OS}, {"the host architecture", f.Host.Arch}} {
		if err := CheckText(t.what, t.s); err != nil {
			return err
		}
	}
	for i, b := range f.Benchmarks {
		d := b.Device
		for _, t := range []struct{ what, s string }{{"name", b.Name}, {"kind", b.Kind}, {"parameters", results.ParamString(&b)},
			{"error", b.Error}, {"device name", d.Name}, {"device vendor", d.Vendor}, {"platform", d.Platform},
			{"platform version", d.PlatformVersion}, {"device version", d.Version}, {"driver version", d.DriverVersion},
			{"device type", d.Type}, {"device index", d.Index}} {
			if err := CheckText(t.what, t.s); err != nil {
				return fmt.Errorf("%s: benchmark %d: %w", source, i+1, err)
			}
		}
	}
	return nil
}
