package v2_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// mcpServerEnv, when set, makes the test binary a stdio MCP server with one tool, "approve", a
// permission prompt tool (WithPermissionPromptTool): it denies a Bash command that contains
// "forbidden" and allows anything else as asked.
const mcpServerEnv = "V2_TEST_MCP_SERVER"

// permMCPServer serves MCP's JSON-RPC lines on stdin and stdout until stdin ends.
func permMCPServer() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	send := func(v any) {
		b, _ := json.Marshal(v)
		os.Stdout.Write(append(b, '\n'))
	}
	for in.Scan() {
		var req struct {
			ID     jsontext.Value `json:"id"`
			Method string         `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Arguments       struct {
					ToolName string         `json:"tool_name"`
					Input    map[string]any `json:"input"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": req.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "perm", "version": "1.0.0"}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{"name": "approve", "description": "answers permission prompts",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{
					"tool_name": map[string]any{"type": "string"}, "input": map[string]any{"type": "object"}, "tool_use_id": map[string]any{"type": "string"}}}}}}
		case "tools/call":
			a := req.Params.Arguments
			cmd, _ := a.Input["command"].(string)
			answer := map[string]any{"behavior": "allow", "updatedInput": a.Input}
			if a.ToolName == "Bash" && strings.Contains(cmd, "forbidden") {
				answer = map[string]any{"behavior": "deny", "message": "DENIED-BY-MCP-TOOL"}
			}
			text, _ := json.Marshal(answer)
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": string(text)}}}
		default:
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
	return 0
}

// WithPermissionPromptTool: an MCP tool answers the permission prompts: it denies one Bash command
// (which does not run, and the model is told why) and allows another (which runs). MCPStatus
// reports the server.
func TestRealCLI_PermissionPromptTool(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_p1", "Bash", bash("echo forbidden > "+p+"/denied.txt")), claudetest.TextReply("one"),
			claudetest.ToolReply("toolu_p2", "Bash", bash("echo fine > "+p+"/allowed.txt")), claudetest.TextReply("two"),
		}
	})
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"perm": map[string]any{
		"type": "stdio", "command": os.Args[0], "env": map[string]string{mcpServerEnv: "1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	s := env.session(t, v2.WithPermissionPromptTool("mcp__perm__approve"), v2.WithExtraArgs("--mcp-config="+string(cfg)))
	msgs, _ := query(t, s, "try the forbidden one")
	if env.exists("denied.txt") {
		t.Error("the command the MCP tool denied ran")
	}
	if tr := toolResults(msgs)["toolu_p1"]; !tr.IsError || !strings.Contains(tr.ContentText(), "DENIED-BY-MCP-TOOL") {
		t.Errorf("tool result of the denied command = %+v", tr)
	}
	// The server answered a prompt: MCPStatus sees it connected, with its tool.
	st, err := s.MCPStatus(testCtx(t))
	if err != nil || len(st) != 1 || st[0].Name != "perm" || st[0].Status != "connected" || len(st[0].Tools) != 1 || st[0].Tools[0].Name != "approve" {
		t.Errorf("MCPStatus = %+v, %v; want perm connected with its tool approve", st, err)
	}
	run(t, s, "now the fine one")
	if !env.exists("allowed.txt") {
		t.Error("the command the MCP tool allowed did not run")
	}
}
