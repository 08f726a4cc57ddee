package v2

import (
	"crypto/rand"
	"fmt"
)

// SessionIDError is returned by CreateSession when WithResume or WithSessionID is given something
// that is not a session id: the CLI names sessions by UUID (8-4-4-4-12 hexadecimal digits, either
// case), and the SDK passes nothing else where the CLI expects one, so that no value can be read as
// something other than an id (CLI 2.1.330's --resume also takes a session's name or a search term).
type SessionIDError struct {
	// Option is the option that carried the value: "WithResume" or "WithSessionID".
	Option string
	// ID is the value given.
	ID string
}

// Error describes the rejected value.
func (e *SessionIDError) Error() string {
	return fmt.Sprintf("v2: %s(%q): not a session id (a UUID)", e.Option, e.ID)
}

// isUUID reports whether s is a UUID as the CLI checks session ids: 8-4-4-4-12 hexadecimal digits
// of either case.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range []byte(s) {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// newUUID returns a random version-4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
