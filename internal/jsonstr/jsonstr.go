// Package jsonstr appends JSON strings exactly as encoding/json writes them, without allocating for
// the strings that need no escaping.
package jsonstr

import (
	"encoding/json"
	"unicode/utf8"
)

// Append appends s as a JSON string, byte for byte as encoding/json writes it with its default
// HTML escaping (<, >, & escaped; control characters, U+2028 and U+2029 escaped; invalid UTF-8
// replaced). A string with nothing to escape is copied directly; any other goes through
// json.Marshal.
func Append(dst []byte, s string) []byte {
	if !Plain(s) {
		q, err := json.Marshal(s)
		if err != nil { // cannot happen for a string
			return append(dst, `""`...)
		}
		return append(dst, q...)
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// Plain reports whether encoding/json writes every byte of s as itself inside a string.
func Plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
