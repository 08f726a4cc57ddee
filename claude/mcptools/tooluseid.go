package mcptools

import "github.com/modelcontextprotocol/go-sdk/mcp"

// toolUseIDKey is the _meta key under which the CLI names, in each tools/call request, the
// model's tool_use block the call answers (docs/HOOKS.md, "In-process tools").
const toolUseIDKey = "claudecode/toolUseId"

// ToolUseID returns the id of the model's tool_use block that req answers ("toolu_..."): the id
// hooks see as ToolUseID and the transcript keeps, so that a tool can tie its work to the call
// (an audit record, an idempotency key: contrib/temporal's Activities.IdempotencyKey). It is ""
// when the request does not carry one (a client other than the CLI).
func ToolUseID(req *mcp.CallToolRequest) string {
	if req == nil || req.Params == nil {
		return ""
	}
	id, _ := req.Params.Meta[toolUseIDKey].(string)
	return id
}
