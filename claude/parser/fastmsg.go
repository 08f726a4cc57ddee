package parser

import (
	"encoding/json"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The stream's messages (system, assistant, user, result, stream_event) are decoded for every line
// the CLI writes, a few per tool call, hooks or not. Parse validated each line with gjson, and
// encoding/json validated it again and decoded it by reflection. The decoders below read and
// validate the line in one pass (scan, in scan.go) and fill the same structs; Parse calls them first,
// and a line they refuse is validated and decoded as before. They refuse invalid JSON, and every
// case they are not sure to decode exactly as encoding/json does:
//
//   - a key with an escape or a non-ASCII byte, a key that equals a field's name only
//     case-insensitively (encoding/json would fill the field), a field's key twice (encoding/json
//     merges or overwrites);
//   - a string value with a \u escape or invalid UTF-8 (the other escapes unescape alike);
//   - a value of a type the field does not take (encoding/json fails, or leaves the field alone),
//     a number that does not fit the field;
//   - nesting deeper than encoding/json takes (it refuses more than 10000 levels).
//
// What they make is what encoding/json makes, with one difference no reader can see in the
// values: a json.RawMessage field (Input, Content, Usage, ToolUseResult, ...) is the value's bytes
// inside the line (which Raw already holds, and which is never reused), with its capacity ending
// with it, instead of a copy; decodeControlRequest's Request and the fast hook inputs' Extra do the
// same. Strings are copies (or constants), never views of the line. FuzzFastMessages checks that
// the fast and the general decoders agree wherever the fast one decodes, and that what it takes is
// valid JSON.

var (
	assistantFields   = newFieldTable("message", "parent_tool_use_id", "session_id", "uuid")
	apiMessageFields  = newFieldTable("id", "role", "model", "content", "stop_reason", "usage")
	contentFields     = newFieldTable("type", "text", "thinking", "id", "name", "input", "tool_use_id", "content", "is_error")
	userFields        = newFieldTable("message", "parent_tool_use_id", "session_id", "uuid", "tool_use_result", "isReplay")
	userMessageFields = newFieldTable("role", "content")
	resultFields      = newFieldTable("subtype", "is_error", "result", "stop_reason", "terminal_reason", "num_turns",
		"duration_ms", "duration_api_ms", "total_cost_usd", "session_id", "uuid", "usage", "permission_denials",
		"deferred_tool_use", "errors")
	systemFields = newFieldTable("subtype", "session_id", "uuid", "cwd", "model", "permissionMode", "tools",
		"content", "level", "tag", "hook_id", "hook_name", "hook_event", "outcome", "exit_code", "stdout", "stderr")
	streamEventFields = newFieldTable("event", "session_id", "parent_tool_use_id", "uuid")
)

// fastAssistant decodes an assistant line as json.Unmarshal into a *shared.AssistantMessage would.
func fastAssistant(line []byte) (*shared.AssistantMessage, bool) {
	var s scan
	s.init(line)
	m := &shared.AssistantMessage{Raw: line}
	ok := s.object(assistantFields, func(i int) bool {
		switch i {
		case 0:
			return s.apiMessage(&m.Message)
		case 1:
			return s.setStrPtr(&m.ParentToolUseID)
		case 2:
			return s.setStr(&m.SessionID)
		default:
			return s.setStr(&m.UUID)
		}
	})
	return m, ok && s.end()
}

func (s *scan) apiMessage(m *shared.APIMessage) bool {
	if s.null() {
		return true
	}
	return s.object(apiMessageFields, func(i int) bool {
		switch i {
		case 0:
			return s.setStr(&m.ID)
		case 1:
			return s.setStr(&m.Role)
		case 2:
			return s.setStr(&m.Model)
		case 3:
			return s.blocks(&m.Content)
		case 4:
			return s.setStr(&m.StopReason)
		default:
			return s.setRaw(&m.Usage)
		}
	})
}

// blocks decodes an array of content blocks; a null leaves dst nil, [] makes it empty, not nil.
func (s *scan) blocks(dst *[]shared.ContentBlock) bool {
	if s.null() {
		return true
	}
	out := []shared.ContentBlock{}
	ok := s.array(func() bool {
		// A null element makes a zero block, anything but an object fails: let encoding/json say.
		out = append(out, shared.ContentBlock{})
		b := &out[len(out)-1]
		return s.object(contentFields, func(i int) bool {
			switch i {
			case 0:
				return s.setStr(&b.Type)
			case 1:
				return s.setStr(&b.Text)
			case 2:
				return s.setStr(&b.Thinking)
			case 3:
				return s.setStr(&b.ID)
			case 4:
				return s.setStr(&b.Name)
			case 5:
				return s.setRaw(&b.Input)
			case 6:
				return s.setStr(&b.ToolUseID)
			case 7:
				return s.setRaw(&b.Content)
			default:
				return s.setBool(&b.IsError)
			}
		})
	})
	*dst = out
	return ok
}

// fastUser decodes a user line as generalUser (encoding/json) does, Blocks included.
func fastUser(line []byte) (*shared.UserMessage, bool) {
	var s scan
	s.init(line)
	m := &shared.UserMessage{Raw: line}
	ok := s.object(userFields, func(i int) bool {
		switch i {
		case 0:
			if s.null() {
				return true
			}
			return s.object(userMessageFields, func(i int) bool {
				if i == 0 {
					return s.setStr(&m.Message.Role)
				}
				if s.peek() != '[' {
					return s.setRaw(&m.Message.Content)
				}
				// The blocks, decoded in the same pass; Content is their bytes.
				start := s.i
				if !s.blocks(&m.Blocks) {
					return false
				}
				m.Message.Content = json.RawMessage(s.b[start:s.i:s.i])
				return true
			})
		case 1:
			return s.setStrPtr(&m.ParentToolUseID)
		case 2:
			return s.setStr(&m.SessionID)
		case 3:
			return s.setStr(&m.UUID)
		case 4:
			return s.setRaw(&m.ToolUseResult)
		default:
			return s.setBool(&m.IsReplay)
		}
	})
	return m, ok && s.end()
}

// fastResult decodes a result line as json.Unmarshal into a *shared.ResultMessage would.
func fastResult(line []byte) (*shared.ResultMessage, bool) {
	var s scan
	s.init(line)
	m := &shared.ResultMessage{Raw: line}
	ok := s.object(resultFields, func(i int) bool {
		switch i {
		case 0:
			return s.setStr(&m.Subtype)
		case 1:
			return s.setBool(&m.IsError)
		case 2:
			return s.setStr(&m.Result)
		case 3:
			return s.setStr(&m.StopReason)
		case 4:
			return s.setStr(&m.TerminalReason)
		case 5:
			return setInt(&s, &m.NumTurns)
		case 6:
			return setInt(&s, &m.DurationMS)
		case 7:
			return setInt(&s, &m.DurationAPIMS)
		case 8:
			return s.setFloat(&m.TotalCostUSD)
		case 9:
			return s.setStr(&m.SessionID)
		case 10:
			return s.setStr(&m.UUID)
		case 11:
			return s.setRaw(&m.Usage)
		case 12:
			return s.setRaw(&m.PermissionDenials)
		case 13:
			return s.setRaw(&m.DeferredToolUse)
		default:
			return s.setStrings(&m.Errors)
		}
	})
	return m, ok && s.end()
}

// fastSystem decodes a system line as json.Unmarshal into a *shared.SystemMessage would.
func fastSystem(line []byte) (*shared.SystemMessage, bool) {
	var s scan
	s.init(line)
	m := &shared.SystemMessage{Raw: line}
	ok := s.object(systemFields, func(i int) bool {
		switch i {
		case 0:
			return s.setStr(&m.Subtype)
		case 1:
			return s.setStr(&m.SessionID)
		case 2:
			return s.setStr(&m.UUID)
		case 3:
			return s.setStr(&m.Cwd)
		case 4:
			return s.setStr(&m.Model)
		case 5:
			return s.setStr(&m.PermissionMode)
		case 6:
			return s.setStrings(&m.Tools)
		case 7:
			return s.setStr(&m.Content)
		case 8:
			return s.setStr(&m.Level)
		case 9:
			return s.setStr(&m.Tag)
		case 10:
			return s.setStr(&m.HookID)
		case 11:
			return s.setStr(&m.HookName)
		case 12:
			return s.setStr(&m.HookEvent)
		case 13:
			return s.setStr(&m.Outcome)
		case 14:
			if s.null() {
				m.ExitCode = nil
				return true
			}
			n := new(int)
			m.ExitCode = n
			return setInt(&s, n)
		case 15:
			return s.setStr(&m.Stdout)
		default:
			return s.setStr(&m.Stderr)
		}
	})
	return m, ok && s.end()
}

// fastStreamEvent decodes a stream_event line as json.Unmarshal into a *shared.StreamEvent would.
func fastStreamEvent(line []byte) (*shared.StreamEvent, bool) {
	var s scan
	s.init(line)
	m := &shared.StreamEvent{Raw: line}
	ok := s.object(streamEventFields, func(i int) bool {
		switch i {
		case 0:
			return s.setRaw(&m.Event)
		case 1:
			return s.setStr(&m.SessionID)
		case 2:
			return s.setStrPtr(&m.ParentToolUseID)
		default:
			return s.setStr(&m.UUID)
		}
	})
	return m, ok && s.end()
}
