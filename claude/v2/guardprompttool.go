package v2

import (
	"context"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// A permission prompt tool (WithPermissionPromptTool) answers the CLI's prompts with a tool
// result whose text is a permission answer, and CLI 2.1.332 applies its updatedPermissions'
// setMode as it applies WithCanUseTool's: an answer switching to acceptEdits made the next Write
// run without asking the tool (TestRealCLI_PromptToolSwitchingModeIsDenied). The tool is itself a
// guard (promptGuards). When it is a tool of an in-process server the SDK sees its result, and
// checks it by the rule of the callback's answers (switchSkipsGuards); an external server's
// answers the SDK does not see (the mode the CLI reports afterwards still counts for RegisterScoped).

// promptToolCheck is an MCP handler that passes each mcp_message to next, and replaces a result
// of the permission prompt tool whose setMode would switch a guard off by a deny naming the fix.
type promptToolCheck struct {
	next subprocess.MCPHandler
	o    *config
}

// checkPromptTool wraps h with promptToolCheck when the session has a permission prompt tool and
// WithAllowUnenforcedHooks is off.
func (o *config) checkPromptTool(h subprocess.MCPHandler) subprocess.MCPHandler {
	if h == nil || o.allowUnenforced || !strings.HasPrefix(o.promptTool, "mcp__") {
		return h
	}
	return promptToolCheck{next: h, o: o}
}

// HandleMCP is subprocess.MCPHandler's.
func (c promptToolCheck) HandleMCP(ctx context.Context, server string, message jsontext.Value) (jsontext.Value, error) {
	out, err := c.next.HandleMCP(ctx, server, message)
	if err != nil || !strings.HasPrefix(c.o.promptTool, "mcp__"+server+"__") {
		return out, err // another server's messages are not decoded
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(message, &req) != nil || req.Method != "tools/call" || "mcp__"+server+"__"+req.Params.Name != c.o.promptTool {
		return out, nil
	}
	return c.checkAnswer(out), nil
}

// checkAnswer returns the JSON-RPC answer out of the prompt tool, or, when a text of its result
// is a permission answer whose setMode would switch a guard off, that answer made a deny.
func (c promptToolCheck) checkAnswer(out jsontext.Value) jsontext.Value {
	var resp struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      jsontext.Value `json:"id"`
		Result  struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal(out, &resp) != nil {
		return out // an error answer, or one the CLI cannot read as an allow either
	}
	for _, b := range resp.Result.Content {
		var answer struct {
			UpdatedPermissions []shared.PermissionUpdate `json:"updatedPermissions"`
		}
		if b.Type != "text" || json.Unmarshal([]byte(b.Text), &answer) != nil {
			continue
		}
		err := switchSkipsGuards(c.o.allGuards, answer.UpdatedPermissions, "WithPermissionPromptTool")
		if err == nil {
			continue
		}
		c.o.logger.Warn("v2: the permission prompt tool's answer would switch a guard off; the tool call is denied", "tool", c.o.promptTool, "error", err)
		deny, _ := json.Marshal(map[string]string{"behavior": string(shared.PermissionDeny), "message": err.Error()})
		rewritten, merr := json.Marshal(map[string]any{"jsonrpc": resp.JSONRPC, "id": resp.ID,
			"result": map[string]any{"content": []any{map[string]string{"type": "text", "text": string(deny)}}}})
		if merr != nil {
			return out
		}
		return rewritten
	}
	return out
}
