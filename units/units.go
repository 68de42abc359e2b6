// Package units is the one home for how clmeter writes and reads quantities:
// durations ("12.35 µs", signed), rates with SI prefixes ("845 MB/s",
// "65.3 TFLOP/s"), byte counts in binary units ("80 GiB"), and the size grammar
// shared by every flag and spec file; and how text read from a file or the
// store is shown on a terminal (Escape, text.go).
//
// The size rule, everywhere: K, M, G, T are powers of 1000 and Ki, Mi, Gi, Ti
// powers of 1024; a byte size may add B (KB, MiB). So --size 1M is 1,000,000
// elements and --cache-max-size 512MiB is 512 x 2^20 bytes.
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration writes d with four significant digits in the largest unit that keeps
// it at least 1: "987 ns", "12.35 µs", "1.234 ms", "2.500 s". Negative
// durations keep their sign ("-416.4 µs").
func Duration(d time.Duration) string { return Nanoseconds(float64(d)) }

// Nanoseconds is Duration for a time in (possibly fractional) nanoseconds.
func Nanoseconds(ns float64) string {
	a := math.Abs(ns)
	switch {
	case a == 0:
		return "0 ns"
	case a < 1e3:
		return strconv.FormatFloat(ns, 'f', 0, 64) + " ns"
	case a < 1e6:
		return Sig4(ns/1e3) + " µs"
	case a < 1e9:
		return Sig4(ns/1e6) + " ms"
	}
	return Sig4(ns/1e9) + " s"
}

// Milliseconds writes d in ms with three or four significant digits and no
// unit ("1074", "6.70", "0.512"): for tables whose header names the unit.
func Milliseconds(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch a := math.Abs(v); {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// Sig4 formats v with four significant digits without an exponent.
func Sig4(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// Rate writes a rate given in giga-units per second (the unit without "/s":
// "B", "FLOP", "launch") with three significant digits and an SI prefix:
// "12.3 GB/s", "845 MB/s", "65.3 TFLOP/s". A counted noun is plural:
// "launch" is written "241 klaunches/s". A rate of zero or less is "".
func Rate(giga float64, unit string) string {
	if giga <= 0 || math.IsNaN(giga) || math.IsInf(giga, 0) {
		return ""
	}
	if unit == "launch" {
		unit = "launches"
	}
	v, p := giga*1e9, ""
	for _, x := range []struct {
		p string
		m float64
	}{{"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if v >= x.m {
			v, p = v/x.m, x.p
			break
		}
	}
	var s string
	switch {
	case v >= 100:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	default:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	}
	return s + " " + p + unit + "/s"
}

// Bytes writes a byte count in binary units: "512 B", "64 KiB", "1.5 GiB".
func Bytes(n int64) string {
	const unit = 1024
	if n < unit && n > -unit {
		return fmt.Sprintf("%d B", n)
	}
	names := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}
	v := float64(n) / unit
	i := 0
	for math.Abs(v) >= unit && i < len(names)-1 {
		v /= unit
		i++
	}
	if math.Abs(v) >= 100 || v == math.Trunc(v) {
		return fmt.Sprintf("%.0f %s", v, names[i])
	}
	return fmt.Sprintf("%.1f %s", v, names[i])
}

// Suffixes are the multipliers of the size grammar (see the package comment).
var Suffixes = map[string]int64{
	"": 1, "k": 1000, "K": 1000, "M": 1000 * 1000, "G": 1000 * 1000 * 1000, "T": 1000 * 1000 * 1000 * 1000,
	"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40,
}

// SuffixHelp names the suffixes for error messages.
const SuffixHelp = "K, M, G, T (powers of 1000) or Ki, Mi, Gi, Ti (powers of 1024)"

// ParseByteSize reads a byte size: a number (decimals allowed) with an optional
// suffix from Suffixes and an optional B: "512MiB", "1GiB", "100MB", "1.5G",
// "4096". Negative sizes and unknown units are errors.
func ParseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.TrimSpace(t[i:])
	unit = strings.TrimSuffix(unit, "B")
	unit = strings.TrimSuffix(unit, "b")
	if len(unit) == 2 && unit[1] == 'I' {
		unit = unit[:1] + "i"
	}
	mult, ok := Suffixes[unit]
	if !ok && len(unit) == 1 {
		mult, ok = Suffixes[strings.ToUpper(unit)]
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !ok || v < 0 || math.IsInf(v*float64(mult), 0) || v*float64(mult) > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a byte size: use a number with %s, optionally followed by B (512MiB, 1GiB, 100MB)", s, SuffixHelp)
	}
	return int64(v * float64(mult)), nil
}

// Quantity writes a value given with a unit as people read it: rates in
// G<unit>/s are scaled ("6.527e+04 GFLOP/s" becomes "65.3 TFLOP/s"), times in
// ns, us, µs, ms or s become a Duration-style text, other rates are scaled by
// their SI prefix ("2.41e+05 launches/s" is "241 klaunches/s"; a bare "1/s"
// is "241 k/s"), and other units are written with four significant digits
// ("1.500 x").
func Quantity(v float64, unit string) string {
	switch unit {
	case "ns":
		return Nanoseconds(v)
	case "us", "µs":
		return Nanoseconds(v * 1e3)
	case "ms":
		return Nanoseconds(v * 1e6)
	case "s":
		return Nanoseconds(v * 1e9)
	}
	if base, ok := strings.CutSuffix(unit, "/s"); ok {
		mult := 1.0
		switch {
		case base == "1" || base == "":
			// A count a second, written before the figure named its unit:
			// "241 k/s", not "241 k1/s".
			base, mult = "", 1e-9
		case strings.HasPrefix(base, "G") && len(base) > 1:
			base = base[1:]
		case strings.HasPrefix(base, "M") && len(base) > 1:
			base, mult = base[1:], 1e-3
		case strings.HasPrefix(base, "T") && len(base) > 1:
			base, mult = base[1:], 1e3
		default:
			mult = 1e-9
		}
		if r := Rate(v*mult, base); r != "" {
			return r
		}
		return "0 " + unit
	}
	if unit == "" {
		return Sig4(v)
	}
	return Sig4(v) + " " + unit
}

// Percent writes a fraction as a percentage without an exponent, with two or
// three significant digits: 0.0123 is "1.2%", 1.058 is "106%", 0.00012 is
// "0.01%". A zero is "0%".
func Percent(frac float64) string {
	v := 100 * frac
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case a == 0:
		return "0%"
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 0, 64) + "%"
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 1, 64) + "%"
	case a >= 0.01:
		return strconv.FormatFloat(v, 'f', 2, 64) + "%"
	}
	if v < 0 {
		return "> -0.01%"
	}
	return "< 0.01%"
}

// PValue writes a p-value as a statistician would: "p < 0.001" below one in a
// thousand, else "p = 0.004" or "p = 0.23".
func PValue(p float64) string {
	switch {
	case math.IsNaN(p):
		return "p = ?"
	case p < 0.001:
		return "p < 0.001"
	case p < 0.01:
		return "p = " + strconv.FormatFloat(p, 'f', 3, 64)
	}
	return "p = " + strconv.FormatFloat(p, 'f', 2, 64)
}

// Dims is a work size as the flags take it: "1024,1024".
func Dims(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// Count writes a count with its noun, singular for one: Count(1, "sample") is
// "1 sample", Count(3, "file") is "3 files". The noun must take a plain "s".
func Count(n int, noun string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
