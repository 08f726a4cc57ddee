package jsonstr

import (
	"encoding/json"
	"testing"
)

// TestAppendIsMarshal: Append writes what json.Marshal writes, for plain and odd strings, and
// keeps what dst held.
func TestAppendIsMarshal(t *testing.T) {
	for _, s := range []string{"", "req_1_abc", `q"b\`, "<>&", "fish & chips", "tab\t\x01", "\x7f",
		"héllo", "\u2028\u2029", "bad \xff", "🎉", "PreToolUse"} {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := Append([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("Append(%q) = %s, want x%s", s, got, want)
		}
	}
}

// FuzzAppend checks Append against json.Marshal on any string.
func FuzzAppend(f *testing.F) {
	f.Add("req_1")
	f.Add("<\xff\u2028>")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := Append(nil, s); string(got) != string(want) {
			t.Errorf("Append(%q) = %s, want %s", s, got, want)
		}
	})
}

// TestAppendPlainDoesNotAllocate: a string with nothing to escape costs no allocation.
func TestAppendPlainDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { Append(buf[:0], "req_12_plain") }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}
