// Package guards holds three hooks an agent team might write, and guards_test.go shows how to
// test them offline with package claudetest: the real Claude Code CLI runs real tools in a scratch
// project, a scripted model decides what the agent asks for, and no API key is needed. Copy the
// test file's pattern: script the tool calls, run one prompt, assert on the files, the hook
// decisions (env.Hooks), the tool calls (env.ToolCalls) and what the model was sent
// (env.Model.Requests). Each test fails when its hook is left out.
//
//	go test -C examples ./testing-guards
package guards

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/examples/hooks-validation/pathguard"
)

// ProjectGuard is a PreToolUse handler for the file-writing tools (register it with
// shared.FileWriteToolsMatcher): it denies a write whose path is not inside root, and has no
// opinion otherwise. A path it cannot judge is outside (fail closed).
func ProjectGuard(root string) shared.HookHandler {
	return shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		paths, err := shared.WrittenPaths(in.ToolName, in.ToolInput)
		if err != nil {
			return shared.Deny("cannot tell where this writes: " + err.Error()), nil
		}
		for _, p := range paths {
			if ok, err := pathguard.Inside(root, in.Cwd, p); err != nil || !ok {
				return shared.Deny("writes stay in the project: " + p + " is outside"), nil
			}
		}
		return nil, nil
	})
}

// ShellPermissions is a PermissionRequest handler for Bash: it approves `ls` (with or without
// flags) and has no opinion on anything else, so that the CLI asks the way it would without the
// hook: the session's permission callback, or, with none (an unattended agent), nobody, which
// denies.
func ShellPermissions() shared.HookHandler {
	return shared.OnPermissionRequest(func(_ context.Context, in *shared.PermissionRequestHookInput) (shared.HookOutput, error) {
		f := strings.Fields(in.ToolInput.String("command"))
		if len(f) > 0 && f[0] == "ls" && !strings.ContainsAny(in.ToolInput.String("command"), ";&|<>`$()") {
			return shared.Allow(), nil
		}
		return nil, nil
	})
}

// AuditRecord is one line of the audit log.
type AuditRecord struct {
	ToolUseID string `json:"tool_use_id"`
	Tool      string `json:"tool"`
	Input     any    `json:"input"`
}

// AuditLog returns a PostToolUse handler that writes one JSON line per tool call that ran to w.
// Lines are written whole, one at a time. A write error fails the hook (logged by the SDK; a
// PostToolUse failure does not stop the agent).
func AuditLog(w io.Writer) shared.HookHandler {
	var mu sync.Mutex
	return shared.OnPostToolUse(func(_ context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
		b, err := json.Marshal(AuditRecord{ToolUseID: in.ToolUseID, Tool: in.ToolName, Input: in.ToolInput})
		if err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		_, err = w.Write(append(b, '\n'))
		return nil, err
	})
}
