package v2_test

import (
	"context"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// find returns the messages of type T among msgs.
func find[T shared.Message](msgs []shared.Message) []T {
	var out []T
	for _, m := range msgs {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// receiveUntil collects s's messages, turn after turn, until one of type T arrives (a background
// task's notification may come after the turn that started it ended). testCtx bounds it.
func receiveUntil[T shared.Message](t *testing.T, s *v2.Session, msgs []shared.Message) []shared.Message {
	t.Helper()
	ctx := testCtx(t)
	for len(find[T](msgs)) == 0 {
		n := len(msgs)
		for m, err := range s.Receive(ctx) {
			if err != nil {
				t.Fatalf("Receive: %v", err)
			}
			msgs = append(msgs, m)
			if _, ok := m.(T); ok {
				break
			}
		}
		if len(msgs) == n {
			t.Fatalf("Receive ended without a %T", *new(T))
		}
	}
	return msgs
}

// The message kinds the real CLI can be made to write offline arrive typed, with their fields.
// (The kinds it cannot be made to write offline are decoded from recorded or schema-shaped lines
// in the parser's TestKindLines.)
func TestRealCLI_MessageKinds(t *testing.T) {
	t.Parallel()
	t.Run("api_retry", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ErrorReply(529, "Overloaded"), claudetest.TextReply("ok")}
		})
		msgs, _ := query(t, env.session(t), "hello")
		r := find[*shared.APIRetryMessage](msgs)
		if len(r) != 1 || r[0].ErrorStatus == nil || *r[0].ErrorStatus != 529 || r[0].Attempt != 1 || r[0].MaxRetries < 1 || r[0].Subtype != "api_retry" {
			t.Fatalf("APIRetryMessages = %+v, want one for the 529, attempt 1", r)
		}
	})
	t.Run("background task", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{
				claudetest.ToolReply("toolu_bg1", "Bash", map[string]any{"command": "echo hi", "description": "quick one", "run_in_background": true}),
				claudetest.TextReply("started"), claudetest.TextReply("noted"), claudetest.TextReply("noted"),
			}
		})
		s := env.session(t, v2.WithAllowedTools("Bash"))
		msgs, _ := query(t, s, "run it in the background")
		msgs = receiveUntil[*shared.TaskNotificationMessage](t, s, msgs)
		st := find[*shared.TaskStartedMessage](msgs)
		if len(st) != 1 || st[0].TaskID == "" || st[0].ToolUseID != "toolu_bg1" || st[0].Description != "quick one" {
			t.Fatalf("TaskStartedMessages = %+v, want one for toolu_bg1", st)
		}
		id := st[0].TaskID
		changed := find[*shared.BackgroundTasksChangedMessage](msgs)
		if len(changed) == 0 || !slices.ContainsFunc(changed[0].Tasks, func(b shared.BackgroundTask) bool { return b.TaskID == id }) {
			t.Errorf("BackgroundTasksChangedMessages = %+v, want the first to list task %s", changed, id)
		}
		n := find[*shared.TaskNotificationMessage](msgs)
		if n[0].TaskID != id || n[0].Status != "completed" || n[0].OutputFile == "" {
			t.Errorf("TaskNotificationMessage = %+v, want task %s completed with its output file", n[0], id)
		}
		up := find[*shared.TaskUpdatedMessage](msgs)
		if !slices.ContainsFunc(up, func(u *shared.TaskUpdatedMessage) bool { return u.TaskID == id && u.Patch.Status == "completed" }) {
			t.Errorf("TaskUpdatedMessages = %+v, want task %s patched to completed", up, id)
		}
	})
	t.Run("compact and clear", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.TextReply("ok"), claudetest.TextReply("the summary"), claudetest.TextReply("ok")}
		})
		s := env.session(t)
		query(t, s, "hello")
		msgs, _ := query(t, s, "/compact")
		if len(find[*shared.CompactBoundaryMessage](msgs)) == 0 { // the turn's result may come first
			msgs = receiveUntil[*shared.CompactBoundaryMessage](t, s, msgs)
		}
		cb := find[*shared.CompactBoundaryMessage](msgs)
		if cb[0].CompactMetadata.Trigger != "manual" || cb[0].CompactMetadata.PreTokens <= 0 {
			t.Errorf("CompactBoundaryMessage.CompactMetadata = %+v, want trigger manual and the tokens before", cb[0].CompactMetadata)
		}
		if !slices.ContainsFunc(find[*shared.StatusMessage](msgs), func(m *shared.StatusMessage) bool { return m.Status == "compacting" }) {
			t.Errorf("no StatusMessage with status compacting among %d messages", len(msgs))
		}
		msgs, _ = query(t, s, "/clear")
		cr := find[*shared.ConversationResetMessage](msgs)
		if len(cr) != 1 || cr[0].Trigger != "clear" || cr[0].NewConversationID == "" {
			t.Fatalf("ConversationResetMessages = %+v, want one with trigger clear", cr)
		}
	})
	t.Run("permission_denied and init", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolReply("toolu_d1", "Bash", bash("ls")), claudetest.TextReply("ok")}
		})
		srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
		deny := func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return shared.Ask("please ask"), nil
		}
		s := env.session(t, v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(deny)), v2.WithMCPServer("db", mcptools.Server(srv)))
		msgs, _ := query(t, s, "clean up")
		pd := find[*shared.PermissionDeniedMessage](msgs)
		if len(pd) != 1 || pd[0].ToolName != "Bash" || pd[0].ToolUseID != "toolu_d1" || pd[0].DecisionReasonType != "hook" {
			t.Errorf("PermissionDeniedMessages = %s, want one for toolu_d1 by a hook asking where no one can answer", pdLines(pd))
		}
		var init *shared.SystemMessage
		for _, m := range find[*shared.SystemMessage](msgs) {
			if m.Subtype == "init" {
				init = m
			}
		}
		if init == nil {
			t.Fatal("no system/init")
		}
		if !slices.Contains(init.MCPServers, shared.InitMCPServer{Name: "db", Status: "connected", Source: "sdk"}) {
			t.Errorf("init.MCPServers = %+v, want db connected", init.MCPServers)
		}
		if !slices.Contains(init.Agents, "general-purpose") || !slices.Contains(init.SlashCommands, "compact") ||
			init.ClaudeCodeVersion == "" || init.APIKeySource == "" || init.OutputStyle == "" {
			t.Errorf("init: agents %v, slash commands %v, version %q, API key source %q, output style %q",
				init.Agents, init.SlashCommands, init.ClaudeCodeVersion, init.APIKeySource, init.OutputStyle)
		}
	})
}

func pdLines(pd []*shared.PermissionDeniedMessage) []string {
	var out []string
	for _, m := range pd {
		out = append(out, string(m.Raw))
	}
	return out
}
