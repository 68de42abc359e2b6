package results

import "strings"

// Prefixes of a device key, one per source of identity.
const (
	keyUUID     = "uuid:"
	keyPCI      = "pci:"
	keyFallback = "fallback:"
)

// DeviceKey builds the stable key of a device from what it reports, and
// says whether it is the fallback:
//
//   - "uuid:UUID" when the device has a UUID. A UUID is unique across
//     machines, so the host is not part of the key: a GPU keeps its key, and
//     its history, when it moves to another node or the node is renamed (a
//     container's host name changes with every container).
//   - "pci:HOST/PCI" when it has a PCI address but no UUID: an address is
//     unique only within one machine.
//   - "fallback:HOST/PLATFORM/NAME/INDEX" when it has neither (a CPU device,
//     most drivers without the extensions): two identical devices of one host
//     still differ by their index, but a device listed under another index is
//     another key. fallback is then true.
//
// None depends on the index when a UUID or PCI address is known, so
// CUDA_VISIBLE_DEVICES and the like do not move a GPU to another key.
func DeviceKey(d DeviceInfo) (key string, fallback bool) {
	switch {
	case d.UUID != "":
		return keyUUID + strings.ToLower(d.UUID), false
	case d.PCI != "":
		return keyPCI + keyPart(d.Host) + "/" + strings.ToLower(d.PCI), false
	}
	return keyFallback + strings.Join([]string{keyPart(d.Host), keyPart(d.Platform), keyPart(d.Name), keyPart(d.Index)}, "/"), true
}

// keyPart escapes the separator (and the escape) in one part of a key.
func keyPart(s string) string {
	return strings.NewReplacer("%", "%25", "/", "%2F").Replace(strings.TrimSpace(s))
}

// SeriesKey is the key that store, history, compare and the dashboard keep
// the device's series apart by: Key, or for a record without one (a file
// older than version 4, a record built by hand) the key DeviceKey builds
// from what the record holds, a fallback key for a legacy record.
func (d DeviceInfo) SeriesKey() string {
	if d.Key != "" {
		return d.Key
	}
	k, _ := DeviceKey(d)
	return k
}

// IsFallbackKey reports whether key is a fallback key (platform, name and
// index rather than a physical identity).
func IsFallbackKey(key string) bool { return strings.HasPrefix(key, keyFallback) }

// ShortKey names a device among others of its name, for people, from its
// key: the UUID's first 8 digits, else host and PCI address, else host and
// index ("ci-1 0:1").
func ShortKey(key string) string {
	unescape := func(p string) string { return strings.NewReplacer("%2F", "/", "%25", "%").Replace(p) }
	switch {
	case strings.HasPrefix(key, keyUUID):
		u := strings.TrimPrefix(key, keyUUID)
		return "uuid " + u[:min(8, len(u))]
	case strings.HasPrefix(key, keyPCI):
		host, addr, _ := strings.Cut(strings.TrimPrefix(key, keyPCI), "/")
		return strings.TrimSpace(unescape(host) + " " + addr)
	case strings.HasPrefix(key, keyFallback):
		parts := strings.Split(strings.TrimPrefix(key, keyFallback), "/")
		return strings.TrimSpace(unescape(parts[0]) + " " + unescape(parts[len(parts)-1]))
	}
	return key
}
