package v2_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// subagentPrompt is the system prompt of the subagent "helper" of agentRun; a request whose
// system prompt holds it is the subagent's.
const subagentPrompt = "SUBAGENT-PROMPT-HELPER-9"

// agentRun runs one prompt in which the main agent calls the subagent "helper", defined by def
// (its Description and Prompt are filled in), once, in the foreground (run_in_background false:
// the CLI waits for the subagent), and then ends its turn. sub answers the
// subagent's requests (nil: a text). setup prepares the project before the session starts. It
// returns the env and the turn's messages.
func agentRun(t *testing.T, def v2.AgentDefinition, sub func(project string, r claudetest.Request) claudetest.Reply, setup func(*realEnv), opts ...v2.Option) (*realEnv, []shared.Message) {
	t.Helper()
	env := newRealEnvHandler(t, agentModel(sub))
	if setup != nil {
		setup(env)
	}
	s := env.session(t, append([]v2.Option{helperAgent(def)}, opts...)...)
	msgs, _ := query(t, s, "get help")
	return env, msgs
}

// agentModel is agentRun's fake model: the main agent calls the subagent "helper" once, in the
// foreground, and ends its turn; sub answers the subagent's requests (nil: a text).
func agentModel(sub func(project string, r claudetest.Request) claudetest.Reply) func(string, claudetest.Request) claudetest.Reply {
	return func(p string, r claudetest.Request) claudetest.Reply {
		if strings.Contains(r.System, subagentPrompt) {
			if sub != nil {
				return sub(p, r)
			}
			return claudetest.TextReply("subagent done")
		}
		if _, ok := r.LastToolResult(); ok {
			return claudetest.TextReply("done")
		}
		return claudetest.ToolReply("toolu_ag1", "Agent", map[string]any{
			"description": "help", "prompt": "HELP-WITH-THIS", "subagent_type": "helper", "run_in_background": false,
		})
	}
}

// helperAgent defines def as the agent "helper" of agentModel (its Description and Prompt are
// filled in).
func helperAgent(def v2.AgentDefinition) v2.Option {
	def.Description, def.Prompt = "Helps", subagentPrompt
	return v2.WithAgents(map[string]v2.AgentDefinition{"helper": def})
}

// subRequests returns the subagent's requests of agentRun.
func subRequests(env *realEnv) []claudetest.Request {
	var sub []claudetest.Request
	for _, r := range env.api.Requests() {
		if strings.Contains(r.System, subagentPrompt) {
			sub = append(sub, r)
		}
	}
	return sub
}

// firstSubRequest returns the subagent's first request, failing the test if it never ran.
func firstSubRequest(t *testing.T, env *realEnv) claudetest.Request {
	t.Helper()
	sub := subRequests(env)
	if len(sub) == 0 {
		t.Fatalf("the subagent never ran; requests: %d", len(env.api.Requests()))
	}
	return sub[0]
}

// AgentDefinition's fields of the official SDKs have their effect on the real CLI's subagent.
func TestRealCLI_AgentFields(t *testing.T) {
	t.Parallel()
	t.Run("effort", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			effort v2.Effort
			want   string
		}{{v2.EffortLow, "low"}, {"", "high"}} {
			t.Run(fmt.Sprintf("Effort=%q", tc.effort), func(t *testing.T) {
				t.Parallel()
				env, _ := agentRun(t, v2.AgentDefinition{Effort: tc.effort}, nil, nil, v2.WithEffort(v2.EffortHigh))
				oc, _ := bodyField(t, firstSubRequest(t, env), "output_config").(map[string]any)
				if oc["effort"] != tc.want {
					t.Errorf("Effort %q: the subagent's output_config = %v, want effort %q", tc.effort, oc, tc.want)
				}
			})
		}
	})
	t.Run("permission mode", func(t *testing.T) {
		t.Parallel()
		// The subagent writes a file; without a permission for it the session (no WithCanUseTool)
		// denies the write, with PermissionModeAcceptEdits it is written.
		for _, tc := range []struct {
			mode    v2.PermissionMode
			written bool
		}{{v2.PermissionModeAcceptEdits, true}, {"", false}} {
			t.Run(fmt.Sprintf("PermissionMode=%q", tc.mode), func(t *testing.T) {
				t.Parallel()
				write := func(p string, r claudetest.Request) claudetest.Reply {
					if _, ok := r.LastToolResult(); ok {
						return claudetest.TextReply("wrote")
					}
					return claudetest.ToolReply("toolu_w1", "Write", map[string]any{"file_path": p + "/by-agent.txt", "content": "x"})
				}
				env, _ := agentRun(t, v2.AgentDefinition{PermissionMode: tc.mode}, write, nil)
				if env.exists("by-agent.txt") != tc.written {
					t.Errorf("PermissionMode %q: file written = %v, want %v", tc.mode, !tc.written, tc.written)
				}
			})
		}
	})
	t.Run("mcp servers", func(t *testing.T) {
		t.Parallel()
		// The subagent calls the tool of the agent's own stdio server (the test binary's
		// "approve", which denies a Bash command holding "forbidden"): it runs with the server
		// and is unknown without it; the main agent is never offered it.
		perm := &v2.MCPStdioServer{Command: os.Args[0], Env: map[string]string{mcpServerEnv: "1"}}
		call := func(_ string, r claudetest.Request) claudetest.Reply {
			if _, ok := r.LastToolResult(); ok {
				return claudetest.TextReply("called")
			}
			return claudetest.ToolReply("toolu_m1", "mcp__perm__approve", map[string]any{"tool_name": "Bash", "input": bash("forbidden")})
		}
		for _, own := range []bool{true, false} {
			t.Run(fmt.Sprintf("own=%v", own), func(t *testing.T) {
				t.Parallel()
				def := v2.AgentDefinition{}
				if own {
					def.MCPServers = []v2.AgentMCPServer{{Name: "perm", Config: perm}}
				}
				env, _ := agentRun(t, def, call, nil, v2.WithAllowedTools("mcp__perm__approve"))
				sub := subRequests(env)
				if len(sub) < 2 {
					t.Fatalf("own server %v: %d subagent requests, want 2", own, len(sub))
				}
				tr, _ := sub[1].LastToolResult()
				if got := strings.Contains(tr.ContentText(), "DENIED-BY-MCP-TOOL"); got != own {
					t.Errorf("own server %v: the tool answered = %v; result %.200q", own, got, tr.ContentText())
				}
				if r := firstRequest(t, env); r.Contains("mcp__perm__approve") {
					t.Errorf("own server %v: the main agent's request names the agent's tool", own)
				}
			})
		}
	})
	t.Run("omit CLAUDE.md", func(t *testing.T) {
		t.Parallel()
		for _, omit := range []bool{false, true} {
			t.Run(fmt.Sprintf("OmitClaudeMD=%v", omit), func(t *testing.T) {
				t.Parallel()
				env, _ := agentRun(t, v2.AgentDefinition{OmitClaudeMD: omit}, nil, func(env *realEnv) {
					writeFile(t, env.path("CLAUDE.md"), "PROJECT-MEMORY-MARK-4\n")
				}, v2.WithTrustedProject())
				if got := firstSubRequest(t, env).Contains("PROJECT-MEMORY-MARK-4"); got == omit {
					t.Errorf("OmitClaudeMD %v: the subagent's request has CLAUDE.md = %v", omit, got)
				}
			})
		}
	})
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		for _, scope := range []v2.SettingSource{v2.SettingSourceProject, ""} {
			t.Run(fmt.Sprintf("Memory=%q", scope), func(t *testing.T) {
				t.Parallel()
				env, _ := agentRun(t, v2.AgentDefinition{Memory: scope}, nil, func(env *realEnv) {
					writeFile(t, env.path(".claude/agent-memory/helper/MEMORY.md"), "AGENT-MEMORY-MARK-6\n")
				})
				r := firstSubRequest(t, env)
				if got := r.Contains("AGENT-MEMORY-MARK-6"); got != (scope != "") {
					t.Errorf("Memory %q: the subagent's request has its MEMORY.md = %v", scope, got)
				}
			})
		}
	})
	t.Run("background", func(t *testing.T) {
		t.Parallel()
		// The main agent asks for the foreground; an agent with Background runs in the
		// background all the same: the Agent tool returns at once, before the subagent's answer.
		for _, bg := range []bool{true, false} {
			t.Run(fmt.Sprintf("Background=%v", bg), func(t *testing.T) {
				t.Parallel()
				_, msgs := agentRun(t, v2.AgentDefinition{Background: bg}, nil, nil)
				text := toolResults(msgs)["toolu_ag1"].ContentText()
				if got := [2]bool{strings.HasPrefix(text, "Async agent launched"), strings.Contains(text, "subagent done")}; got != [2]bool{bg, !bg} {
					t.Errorf("Background %v: the Agent tool's result (launched async, has the subagent's answer = %v): %.200q", bg, got, text)
				}
			})
		}
	})
}

// AgentDefinition.InitialPrompt is the first user turn of the main agent run as that agent.
func TestRealCLI_AgentInitialPrompt(t *testing.T) {
	t.Parallel()
	for _, initial := range []string{"INITIAL-PROMPT-MARK-2", ""} {
		t.Run(fmt.Sprintf("InitialPrompt=%q", initial), func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok", "ok")
			run(t, env.session(t,
				v2.WithAgents(map[string]v2.AgentDefinition{"lead": {Description: "Leads", Prompt: "LEAD-PROMPT", InitialPrompt: initial}}),
				v2.WithMainAgent("lead")), "THE-USER-PROMPT")
			r := firstRequest(t, env)
			if got := r.Contains("INITIAL-PROMPT-MARK-2"); got != (initial != "") {
				t.Errorf("InitialPrompt %q: the first request has it = %v", initial, got)
			}
		})
	}
}
