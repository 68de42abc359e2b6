package results

import (
	"bytes"
	"encoding/json"
)

// utf8BOM is the byte order mark some editors put at the start of a UTF-8
// file; JSON has none, and Decode skips it.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// keyFrame is one open JSON object or array of duplicateKey's walk: where
// its keys start in the shared list, and the set of them once the object
// has many (a linear search is cheaper below that).
type keyFrame struct {
	object    bool
	expectKey bool
	start     int
	set       map[string]bool
}

// manyKeys is the number of keys from which an object's keys go in a map.
const manyKeys = 16

// duplicateKey returns the first key that appears twice in one object of
// data, which must be valid JSON (other input returns false), and the offset
// just past it; ok is false when every object names each key once. It walks
// the bytes once, keeping the keys of the open objects only.
func duplicateKey(data []byte) (key string, offset int, ok bool) {
	stack := []keyFrame{{}} // the top level: no object
	var keys [][]byte
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '{', '[':
			stack = append(stack, keyFrame{object: c == '{', expectKey: c == '{', start: len(keys)})
		case '}', ']':
			if len(stack) == 1 {
				return "", 0, false
			}
			top := stack[len(stack)-1]
			keys = keys[:top.start]
			stack = stack[:len(stack)-1]
		case ',':
			if top := &stack[len(stack)-1]; top.object {
				top.expectKey = true
			}
		case '"':
			end := stringEnd(data, i)
			if top := &stack[len(stack)-1]; top.object && top.expectKey {
				top.expectKey = false
				k := keyText(data[i : end+1])
				if top.seen(keys, k) {
					return string(k), end + 1, true
				}
				keys = append(keys, k)
				top.add(keys, k)
			}
			i = end
		}
	}
	return "", 0, false
}

// seen reports whether the frame's object already has key k.
func (f *keyFrame) seen(keys [][]byte, k []byte) bool {
	if f.set != nil {
		return f.set[string(k)]
	}
	for _, old := range keys[f.start:] {
		if bytes.Equal(old, k) {
			return true
		}
	}
	return false
}

// add notes k (already appended to keys) in the frame's set once the object
// has manyKeys keys.
func (f *keyFrame) add(keys [][]byte, k []byte) {
	switch n := len(keys) - f.start; {
	case f.set != nil:
		f.set[string(k)] = true
	case n >= manyKeys:
		f.set = make(map[string]bool, 2*n)
		for _, old := range keys[f.start:] {
			f.set[string(old)] = true
		}
	}
}

// stringEnd returns the index of the quote that closes the JSON string
// opening at data[i].
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(data) - 1
}

// keyText is the text of a quoted JSON key, a slice of quoted unless it
// holds escapes, which are decoded, so that "a" and "\u0061" are the same
// key.
func keyText(quoted []byte) []byte {
	if len(quoted) < 2 || quoted[len(quoted)-1] != '"' {
		return quoted // cut short: not valid JSON
	}
	if bytes.IndexByte(quoted, '\\') < 0 {
		return quoted[1 : len(quoted)-1]
	}
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return quoted
	}
	return []byte(s)
}
