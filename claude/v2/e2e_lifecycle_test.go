package v2_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

func synthesized(b *shared.BaseHookInput) bool {
	return string(b.Extra["sdk_synthesized"]) == "true"
}

// SessionStart(startup) is produced by the SDK before the CLI starts and its additionalContext
// reaches the system prompt; UserPromptSubmit fires once per prompt; SessionEnd fires once, at
// Close, however often Close is called. Every input carries the session id the CLI reports.
func TestRealCLI_LifecycleHooks(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.TextReply("one"), claudetest.TextReply("two")}
	})
	var start recorder[*shared.SessionStartHookInput]
	var end recorder[*shared.SessionEndHookInput]
	var ups recorder[*shared.UserPromptSubmitHookInput]
	s := env.session(t, v2.WithHooks(shared.Hooks{
		shared.HookEventSessionStart: {{Handler: start.handler(func(*shared.SessionStartHookInput) shared.HookOutput {
			return &shared.SyncHookOutput{HookSpecificOutput: &shared.SessionStartOutput{AdditionalContext: "SS-CTX-1357"}}
		})}},
		shared.HookEventSessionEnd:       {{Handler: end.handler(nil)}},
		shared.HookEventUserPromptSubmit: {{Handler: ups.handler(nil)}},
	}))
	id := s.SessionID()
	if id == "" {
		t.Fatal("SessionID is empty after CreateSession")
	}
	st := start.all()
	if len(st) != 1 || st[0].Source != "startup" || !synthesized(&st[0].BaseHookInput) || st[0].SessionID != id || st[0].Cwd != env.project {
		t.Fatalf("SessionStart inputs: %+v", st)
	}

	var cliIDs []string
	for i, prompt := range []string{"first prompt", "second prompt"} {
		msgs, res := query(t, s, prompt)
		cliIDs = append(append(cliIDs, systemInits(msgs)...), res.SessionID)
		if n := ups.len(); n != i+1 {
			t.Errorf("after prompt %d: UserPromptSubmit ran %d times", i+1, n)
		}
	}
	if len(cliIDs) != 4 {
		t.Errorf("ids reported by the CLI: %q (want 2 system/init and 2 results)", cliIDs)
	}
	for _, c := range cliIDs {
		if c != id {
			t.Errorf("the CLI reports session %s, the SDK gave hooks %s", c, id)
		}
	}
	for _, u := range ups.all() {
		if u.SessionID != id || synthesized(&u.BaseHookInput) {
			t.Errorf("UserPromptSubmit input: session %s, extra %v", u.SessionID, u.Extra)
		}
	}
	reqs := env.api.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[0].System, "SS-CTX-1357") {
		t.Errorf("SessionStart additionalContext is not in the system prompt (%d requests)", len(reqs))
	}
	if start.len() != 1 || end.len() != 0 {
		t.Errorf("before Close: SessionStart %d, SessionEnd %d", start.len(), end.len())
	}

	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	en := end.all()
	if len(en) != 1 || !synthesized(&en[0].BaseHookInput) || en[0].SessionID != id || en[0].Reason != "other" {
		t.Errorf("SessionEnd inputs: %+v", en)
	}
}

// A background subagent makes the CLI run a turn by itself after the prompt's result: its result
// reaches the user, and the next prompt still gets its own result.
func TestRealCLI_SecondResultFromBackgroundTask(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"Query", "Run"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
				if len(r.Messages) > 0 && textOf(r.Messages[0]) != "" && strings.Contains(textOf(r.Messages[0]), "SUBAGENT-PROMPT") {
					<-release // the subagent finishes after the prompt's turn
					return claudetest.TextReply("subagent says hi")
				}
				last := textOf(r.Messages[len(r.Messages)-1])
				switch {
				case strings.Contains(last, "<task-notification>"):
					return claudetest.TextReply("second")
				case strings.Contains(last, "NEXT-PROMPT"):
					return claudetest.TextReply("third")
				case strings.Contains(last, "tool_result:toolu_01"):
					return claudetest.TextReply("first")
				}
				return claudetest.ToolReply("toolu_01", "Agent", map[string]any{
					"description": "probe", "prompt": "SUBAGENT-PROMPT work", "subagent_type": "general-purpose"})
			})
			bgStop := make(chan struct{})
			s := env.session(t, v2.WithHook(shared.HookEventStop, "", shared.OnStop(func(_ context.Context, in *shared.StopHookInput) (shared.HookOutput, error) {
				if in.LastAssistantMessage == "second" {
					close(bgStop)
				}
				return nil, nil
			})))
			if r := run(t, s, "go"); r.Result != "first" || v2.StartedByCLI(r) {
				t.Fatalf("first result %q (started by CLI %v)", r.Result, v2.StartedByCLI(r))
			}
			close(release)
			select { // the background turn is ending: its result is next on the stream
			case <-bgStop:
			case <-testCtx(t).Done():
				t.Fatal("the background turn never came")
			}
			if mode == "Run" {
				r := run(t, s, "NEXT-PROMPT")
				if r.Result != "third" || v2.StartedByCLI(r) {
					t.Errorf("Run returned %q (started by CLI %v), want its own result third", r.Result, v2.StartedByCLI(r))
				}
				return
			}
			msgs, r := query(t, s, "NEXT-PROMPT")
			var results []string
			for _, m := range msgs {
				if rm, ok := m.(*shared.ResultMessage); ok {
					results = append(results, rm.Result)
					if (rm.Result == "second") != v2.StartedByCLI(rm) {
						t.Errorf("result %q: StartedByCLI = %v", rm.Result, v2.StartedByCLI(rm))
					}
					if rm.Result == "second" && (rm.Origin == nil || rm.Origin.Kind != "task-notification") {
						t.Errorf("result %q: Origin = %+v, want kind task-notification", rm.Result, rm.Origin)
					}
				}
			}
			if strings.Join(results, ",") != "second,third" || r.Result != "third" {
				t.Errorf("Query yielded results %q, want second (the background turn's) then third", results)
			}
		})
	}
}

// textOf flattens a request message: its text blocks, and its tool results as
// "tool_result:<id> <text>".
func textOf(m claudetest.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		switch c.Type {
		case "text":
			b.WriteString(c.Text)
		case "tool_result":
			b.WriteString("tool_result:" + c.ToolUseID + " " + c.ContentText())
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The SessionStart and SessionEnd inputs the SDK makes itself carry transcript_path,
// permission_mode and (SessionStart) the model as the CLI's own inputs do (issue 12 item 5): the
// same transcript path as the CLI's UserPromptSubmit input, computed before the CLI runs for
// SessionStart and read from system/init for SessionEnd, where the transcript exists and can be
// archived.
func TestRealCLI_SynthesizedInputsCarryTheCLIsFields(t *testing.T) {
	t.Parallel()
	// The CLI keeps transcripts under $CLAUDE_CONFIG_DIR when set, else $HOME/.claude.
	for _, tc := range []struct {
		name string
		env  func(t *testing.T) []string
	}{
		{"HOME", func(*testing.T) []string { return nil }},
		{"CLAUDE_CONFIG_DIR", func(t *testing.T) []string { return []string{"CLAUDE_CONFIG_DIR=" + t.TempDir()} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synthesizedInputs(t, v2.WithEnv(tc.env(t)...))
		})
	}
}

func synthesizedInputs(t *testing.T, extra v2.Option) {
	env := newRealEnv(t, func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("one")} })
	var start recorder[*shared.SessionStartHookInput]
	var end recorder[*shared.SessionEndHookInput]
	var ups recorder[*shared.UserPromptSubmitHookInput]
	transcriptAtEnd := make(chan error, 1)
	s := env.session(t, extra, v2.WithModel("claude-sonnet-4-5"), v2.WithPermissionMode(v2.PermissionModeAcceptEdits),
		v2.WithHooks(shared.Hooks{
			shared.HookEventSessionStart: {{Handler: start.handler(nil)}},
			shared.HookEventSessionEnd: {{Handler: end.handler(func(in *shared.SessionEndHookInput) shared.HookOutput {
				_, err := os.Stat(in.TranscriptPath)
				transcriptAtEnd <- err
				return nil
			})}},
			shared.HookEventUserPromptSubmit: {{Handler: ups.handler(nil)}},
		}))
	msgs, _ := query(t, s, "hi")
	var initModel string
	for _, m := range msgs {
		if sm, ok := m.(*shared.SystemMessage); ok && sm.Subtype == "init" {
			initModel = sm.Model
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	u, st, en := ups.all(), start.all(), end.all()
	if len(u) != 1 || len(st) != 1 || len(en) != 1 {
		t.Fatalf("UserPromptSubmit %d, SessionStart %d, SessionEnd %d inputs", len(u), len(st), len(en))
	}
	cli := u[0].BaseHookInput
	if cli.TranscriptPath == "" || cli.PermissionMode != string(v2.PermissionModeAcceptEdits) || initModel != "claude-sonnet-4-5" {
		t.Fatalf("the CLI's own input: transcript %q, mode %q; system/init model %q", cli.TranscriptPath, cli.PermissionMode, initModel)
	}
	type fields struct{ Transcript, Mode, Model string }
	want := fields{cli.TranscriptPath, cli.PermissionMode, initModel}
	if diff := cmp.Diff(want, fields{st[0].TranscriptPath, st[0].PermissionMode, st[0].Model}); diff != "" {
		t.Errorf("SessionStart (-the CLI's +SDK's):\n%s", diff)
	}
	want.Model = ""
	if diff := cmp.Diff(want, fields{en[0].TranscriptPath, en[0].PermissionMode, ""}); diff != "" {
		t.Errorf("SessionEnd (-the CLI's +SDK's):\n%s", diff)
	}
	if err := <-transcriptAtEnd; err != nil {
		t.Errorf("the transcript at SessionEnd: %v", err)
	}
}
