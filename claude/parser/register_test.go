package parser

import (
	"errors"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// customMessage is a message type a user of Register could add.
type customMessage struct {
	kind string
	line []byte
}

func (m *customMessage) Type() string { return m.kind }

// saveRegistry restores the registry when the test ends. The tests that change the registry do
// not run in parallel.
func saveRegistry(t *testing.T) {
	t.Helper()
	saved := reg.Load()
	t.Cleanup(func() {
		mu.Lock()
		reg.Store(saved)
		mu.Unlock()
	})
}

func TestRegister(t *testing.T) {
	saveRegistry(t)
	decoder := func(kind string) Decoder {
		return func(line []byte) (shared.Message, error) { return &customMessage{kind: kind, line: line}, nil }
	}
	Register("tool_progress", "", decoder("tool_progress/custom"))
	Register("system", "session_title_changed", decoder("system/title"))
	Register("control_request", "mcp_message", decoder("control_request/mcp"))
	Register("result", "", decoder("result/custom"))
	failing := errors.New("custom failure")
	Register("boom", "", func([]byte) (shared.Message, error) { return nil, failing })

	tests := []struct {
		name     string
		line     string
		wantType string // customMessage kind, or the Go type of a built-in message
	}{
		{"new type", `{"type":"tool_progress","tool_name":"PreToolUse","heartbeat":true}`, "tool_progress/custom"},
		{"type/subtype pair", `{"type":"system","subtype":"session_title_changed","title":"My Title"}`, "system/title"},
		{"other subtypes keep the type's decoder", `{"type":"system","subtype":"init"}`, "*shared.SystemMessage"},
		{"control_request subtype is the request's", `{"type":"control_request","request_id":"r","request":{"subtype":"mcp_message","server_name":"s"}}`, "control_request/mcp"},
		{"other control requests keep the built-in", `{"type":"control_request","request_id":"r","request":{"subtype":"interrupt"}}`, "*shared.ControlRequest"},
		{"a built-in type replaced", `{"type":"result","subtype":"success"}`, "result/custom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse([]byte(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			switch v := m.(type) {
			case *customMessage:
				got = v.kind
				if string(v.line) != tc.line {
					t.Errorf("decoder got %s, want the line", v.line)
				}
			default:
				got = typeName(m)
			}
			if got != tc.wantType {
				t.Errorf("Parse gave %s, want %s", got, tc.wantType)
			}
		})
	}

	// A type that contains '/' is not a type/subtype pair.
	if m, err := Parse([]byte(`{"type":"system/session_title_changed"}`)); err != nil || typeName(m) != "*shared.RawMessage" {
		t.Errorf("type \"system/session_title_changed\": %T, %v; want *shared.RawMessage", m, err)
	}

	// A decoder's error comes back as a *DecodeError wrapping it.
	_, err := Parse([]byte(`{"type":"boom","subtype":"x"}`))
	var de *DecodeError
	if !errors.As(err, &de) || !errors.Is(err, failing) || de.Type != "boom" || de.Subtype != "x" {
		t.Errorf("Parse(boom) = %v, want a *DecodeError{boom, x} wrapping the decoder's error", err)
	}

	// Registering nil removes a registration: the type's decoder applies again, or the line is raw.
	Register("system", "session_title_changed", nil)
	Register("tool_progress", "", nil)
	if m, err := Parse([]byte(`{"type":"system","subtype":"session_title_changed"}`)); err != nil || typeName(m) != "*shared.SystemMessage" {
		t.Errorf("after removing system/session_title_changed: %T, %v; want *shared.SystemMessage", m, err)
	}
	if m, err := Parse([]byte(`{"type":"tool_progress"}`)); err != nil || typeName(m) != "*shared.RawMessage" {
		t.Errorf("after removing tool_progress: %T, %v; want *shared.RawMessage", m, err)
	}
}

// A decoder that returns neither a message nor an error makes a *DecodeError, not a nil message.
func TestRegisterNilMessage(t *testing.T) {
	saveRegistry(t)
	Register("empty", "", func([]byte) (shared.Message, error) { return nil, nil })
	m, err := Parse([]byte(`{"type":"empty"}`))
	var de *DecodeError
	if !errors.As(err, &de) || m != nil {
		t.Errorf("Parse = %v, %v; want a *DecodeError", m, err)
	}
}

func typeName(m shared.Message) string {
	switch m.(type) {
	case *shared.SystemMessage:
		return "*shared.SystemMessage"
	case *shared.ControlRequest:
		return "*shared.ControlRequest"
	case *shared.RawMessage:
		return "*shared.RawMessage"
	case nil:
		return "<nil>"
	}
	return "other"
}
