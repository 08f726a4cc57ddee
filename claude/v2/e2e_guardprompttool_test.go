package v2_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// promptToolIn is the input the CLI gives a permission prompt tool.
type promptToolIn struct {
	ToolName  string         `json:"tool_name"`
	Input     map[string]any `json:"input"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
}

// approveServer is an in-process MCP server "auth" whose tool "approve" answers every permission
// prompt with an allow whose updatedPermissions switch the mode to mode (setMode), counting asks.
func approveServer(asked *atomic.Int32, mode v2.PermissionMode) v2.MCPServer {
	srv := mcp.NewServer(&mcp.Implementation{Name: "auth", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "approve", Description: "answers permission prompts"}, func(_ context.Context, _ *mcp.CallToolRequest, in promptToolIn) (*mcp.CallToolResult, any, error) {
		asked.Add(1)
		text, _ := json.Marshal(map[string]any{"behavior": "allow", "updatedInput": in.Input,
			"updatedPermissions": []any{map[string]any{"type": "setMode", "mode": string(mode), "destination": "session"}}})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil, nil
	})
	return mcptools.Server(srv)
}

// twoWrites is a fake model that writes a.txt, then b.txt, then ends.
func twoWrites(p string) []claudetest.Reply {
	return []claudetest.Reply{
		claudetest.ToolReply("toolu_w1", "Write", map[string]any{"file_path": filepath.Join(p, "a.txt"), "content": "a"}),
		claudetest.ToolReply("toolu_w2", "Write", map[string]any{"file_path": filepath.Join(p, "b.txt"), "content": "b"}),
		claudetest.TextReply("done"),
	}
}

// A permission prompt tool of an in-process server (WithPermissionPromptTool) whose answer
// switches the mode (updatedPermissions' setMode acceptEdits) would switch itself off for the next
// edits: the SDK sees the tool's result and makes it a deny naming the fix, as it does the
// WithCanUseTool callback's answer, so the tool is asked for both Writes and neither runs. With
// WithAllowUnenforcedHooks the real CLI applies the switch: the tool was asked for a.txt only,
// and b.txt was written unasked (this pins the CLI's behaviour). Before the fix the answer went
// through and b.txt was written unasked. The tool is a guard as the callback is: a session mode
// that skips it is refused at CreateSession.
func TestRealCLI_PromptToolSwitchingModeIsDenied(t *testing.T) {
	t.Parallel()
	tool := v2.WithPermissionPromptTool("mcp__auth__approve")
	for _, loosened := range []bool{false, true} {
		var asked atomic.Int32
		env := newRealEnv(t, twoWrites)
		opts := []v2.Option{v2.WithMCPServer("auth", approveServer(&asked, v2.PermissionModeAcceptEdits)), tool}
		if loosened {
			opts = append(opts, v2.WithAllowUnenforcedHooks())
		}
		run(t, env.session(t, opts...), "write a.txt and b.txt")
		got := [3]any{asked.Load(), env.exists("a.txt"), env.exists("b.txt")}
		if want := [3]any{int32(2), false, false}; loosened {
			if want = [3]any{int32(1), true, true}; got != want {
				t.Errorf("loosened: asked, a.txt, b.txt = %v, want %v (the CLI applies the tool's setMode)", got, want)
			}
		} else if got != want {
			t.Errorf("asked, a.txt, b.txt = %v, want %v (the switching answer denied each time)", got, want)
		}
		if loosened {
			continue
		}
		last, _ := env.api.LastRequest()
		if tr, ok := last.LastToolResult(); !ok || !containsAll(tr.ContentText(), "WithPermissionPromptTool", "setMode", "acceptEdits", "WithAllowUnenforcedHooks") {
			t.Errorf("the model was not told why the write was denied: %q", tr.ContentText())
		}
		_, err := env.create(t, tool, v2.WithPermissionMode(v2.PermissionModeAcceptEdits))
		if !errors.Is(err, v2.ErrGuardCannotFire) || !strings.Contains(err.Error(), "v2: WithPermissionMode/WithPermissionPromptTool: ") {
			t.Errorf("CreateSession with the prompt tool under acceptEdits = %v, want ErrGuardCannotFire naming both options", err)
		}
	}
}
