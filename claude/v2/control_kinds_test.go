package v2_test

import (
	"bufio"
	"os"
	"reflect"
	"strings"
	"testing"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// controlCalls says, for each control request subtype of the TypeScript SDK 0.3.332
// (SDKControlRequestInner), the Session method that sends it, or, prefixed "-", why there is none
// (a request the CLI sends the SDK is answered by the transport; some the SDK sends are internal
// to the TypeScript SDK's hosts).
var controlCalls = map[string]string{
	"apply_flag_settings":     "ApplyFlagSettings",
	"background_tasks":        "BackgroundTasks",
	"can_use_tool":            "- CLI to SDK: answered by WithCanUseTool",
	"cancel_async_message":    "- for queued async messages, which this SDK does not send",
	"elicitation":             "- CLI to SDK: answered by WithElicitation (declined without it)",
	"file_suggestions":        "- a UI's @-mention completion",
	"get_binary_version":      "- Info().CLIVersion has it from initialize",
	"get_context_usage":       "ContextUsage",
	"get_hooks_listing":       "- a UI's /hooks dialog",
	"get_session_cost":        "- Usage has the session's cost",
	"get_settings":            "Settings",
	"get_task_output":         "TaskOutput",
	"get_usage":               "Usage",
	"hook_callback":           "- CLI to SDK: answered by the hooks (WithHook, WithHooks)",
	"initialize":              "Reinitialize",
	"interrupt":               "Interrupt",
	"list_models":             "- ServerInfo().Models has them from initialize",
	"list_permission_rules":   "- a UI's /permissions dialog",
	"mcp_call":                "- calls an MCP tool outside the model's turn (a host's)",
	"mcp_message":             "- CLI to SDK: answered by the in-process MCP servers (WithMCPServer)",
	"mcp_read_resource":       "ReadMCPResource",
	"mcp_reconnect":           "ReconnectMCPServer",
	"mcp_set_servers":         "SetMCPServers",
	"mcp_status":              "MCPStatus",
	"mcp_toggle":              "ToggleMCPServer",
	"read_file":               "ReadFile",
	"register_repo_root":      "- a remote host's",
	"reload_output_styles":    "ReloadOutputStyles",
	"reload_plugins":          "ReloadPlugins",
	"reload_skills":           "ReloadSkills",
	"rename_session":          "RenameSession",
	"request_user_dialog":     "- CLI to SDK: answered by WithUserDialog (the kinds it declares)",
	"rewind_files":            "RewindFiles",
	"seed_read_state":         "SeedReadState",
	"set_color":               "- a UI's prompt colour",
	"set_has_subscribers":     "- a remote host's",
	"set_max_thinking_tokens": "SetMaxThinkingTokens",
	"set_model":               "SetModel",
	"set_permission_mode":     "SetPermissionMode",
	"stop_task":               "StopTask",
	"update_settings":         "UpdateSettings",
}

// TestEveryControlRequestTyped walks the control requests of the TypeScript SDK's schema
// (../parser/testdata/sdk-kinds.txt, from sdk.d.ts) and fails for one that has no Session method
// and no written reason, or whose method does not exist.
func TestEveryControlRequestTyped(t *testing.T) {
	f, err := os.Open("../parser/testdata/sdk-kinds.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st := reflect.TypeFor[*v2.Session]()
	n, typed := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 || fs[0] != "control" {
			continue
		}
		n++
		m, ok := controlCalls[fs[1]]
		switch {
		case !ok:
			t.Errorf("control request %s (%s) has no Session method and no reason in controlCalls", fs[1], fs[2])
		case strings.HasPrefix(m, "- "):
		default:
			if _, ok := st.MethodByName(m); !ok {
				t.Errorf("control request %s: Session.%s does not exist", fs[1], m)
			}
			typed++
		}
	}
	if n == 0 {
		t.Fatal("no control lines")
	}
	t.Logf("%d control requests: %d sent by a typed Session method", n, typed)
}
