package parser

import (
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// wireOutput mirrors wire.HookOutput for decoding.
type wireOutput struct {
	Async              bool           `json:"async"`
	AsyncTimeout       int            `json:"asyncTimeout"`
	Continue           *bool          `json:"continue"`
	StopReason         string         `json:"stopReason"`
	SuppressOutput     bool           `json:"suppressOutput"`
	Decision           string         `json:"decision"`
	Reason             string         `json:"reason"`
	SystemMessage      string         `json:"systemMessage"`
	HookSpecificOutput jsontext.Value `json:"hookSpecificOutput"`
}

// DecodeHookOutput decodes, with JSON v2, a hook answer as the CLI reads it (the JSON a command hook prints, or the
// fields of a hook_response line) into a shared.HookOutput for event e: an *shared.AsyncHookOutput
// for {"async":true}, else a *shared.SyncHookOutput whose HookSpecificOutput has e's own type.
// A hookSpecificOutput.hookEventName naming another event is an error (the CLI blocks on it).
func DecodeHookOutput(e shared.HookEvent, raw []byte) (shared.HookOutput, error) {
	var w wireOutput
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("parser: hook output: %w", err)
	}
	if w.Async {
		return &shared.AsyncHookOutput{Async: true, AsyncTimeout: w.AsyncTimeout}, nil
	}
	out := &shared.SyncHookOutput{
		StopReason:     w.StopReason,
		SuppressOutput: w.SuppressOutput,
		Decision:       shared.Decision(w.Decision),
		Reason:         w.Reason,
		SystemMessage:  w.SystemMessage,
	}
	if w.Continue != nil {
		out.Continue = shared.ContinueNo
		if *w.Continue {
			out.Continue = shared.ContinueYes
		}
	}
	if len(w.HookSpecificOutput) == 0 || string(w.HookSpecificOutput) == "null" {
		return out, nil
	}
	var head struct {
		HookEventName shared.HookEvent `json:"hookEventName"`
	}
	if err := json.Unmarshal(w.HookSpecificOutput, &head); err != nil {
		return nil, fmt.Errorf("parser: hookSpecificOutput: %w", err)
	}
	if head.HookEventName != "" && head.HookEventName != e {
		return nil, fmt.Errorf("parser: hookSpecificOutput is for %s, not %s", head.HookEventName, e)
	}
	var spec shared.HookSpecificOutput
	switch e {
	case shared.HookEventPreToolUse:
		spec = &shared.PreToolUseOutput{}
	case shared.HookEventPostToolUse:
		spec = &shared.PostToolUseOutput{}
	case shared.HookEventUserPromptSubmit:
		spec = &shared.UserPromptSubmitOutput{}
	case shared.HookEventSessionStart:
		spec = &shared.SessionStartOutput{}
	case shared.HookEventPermissionRequest:
		spec = &shared.PermissionRequestOutput{}
	case shared.HookEventPermissionDenied:
		spec = &shared.PermissionDeniedOutput{}
	case shared.HookEventPreModelSwitch:
		spec = &shared.ModelSwitchOutput{}
	case shared.HookEventMessageDisplay:
		spec = &shared.MessageDisplayOutput{}
	default:
		var fields map[string]any
		if err := json.Unmarshal(w.HookSpecificOutput, &fields); err != nil {
			return nil, fmt.Errorf("parser: hookSpecificOutput: %w", err)
		}
		delete(fields, "hookEventName")
		if ctx, ok := fields["additionalContext"].(string); ok && len(fields) == 1 {
			out.HookSpecificOutput = &shared.ContextOutput{AdditionalContext: ctx}
		} else if len(fields) > 0 {
			out.HookSpecificOutput = &shared.RawSpecificOutput{Fields: fields}
		}
		return out, nil
	}
	if err := json.Unmarshal(w.HookSpecificOutput, spec); err != nil {
		return nil, fmt.Errorf("parser: hookSpecificOutput for %s: %w", e, err)
	}
	out.HookSpecificOutput = spec
	return out, nil
}
