package v2_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// transcripts returns the contents of the .jsonl files the CLI wrote under the env's home.
func transcripts(t *testing.T, env *realEnv) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(env.home, ".claude", "projects"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// WithoutSessionPersistence: the session runs, and no transcript is written (one is without it).
func TestRealCLI_NoSessionPersistence(t *testing.T) {
	t.Parallel()
	for _, persist := range []bool{true, false} {
		t.Run(fmt.Sprintf("persist=%v", persist), func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok")
			var opts []v2.Option
			if !persist {
				opts = append(opts, v2.WithoutSessionPersistence())
			}
			s := env.session(t, opts...)
			if res := run(t, s, "PERSIST-PROMPT"); res.Result != "ok" {
				t.Errorf("persist %v: result %q", persist, res.Result)
			}
			s.Close()
			got := 0
			for _, tr := range transcripts(t, env) {
				if strings.Contains(tr, "PERSIST-PROMPT") {
					got++
				}
			}
			if (got > 0) != persist {
				t.Errorf("persist %v: %d transcripts hold the prompt", persist, got)
			}
		})
	}
}

// WithDebugFile: the CLI's debug log is written to the file.
func TestRealCLI_DebugFile(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "ok")
	path := filepath.Join(t.TempDir(), "debug.log")
	s := env.session(t, v2.WithDebugFile(path))
	run(t, s, "hi")
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("debug file: %v", err)
	}
	if !strings.Contains(string(b), "[DEBUG]") {
		t.Errorf("debug file has no debug lines: %.300q", b)
	}
}

// WithSystemPromptFile: the file's text is the system prompt, and its path is all that is on
// the command line.
func TestRealCLI_SystemPromptFile(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "ok")
	path := filepath.Join(t.TempDir(), "prompt.md")
	writeFile(t, path, "FILE-SYSTEM-PROMPT-8")
	run(t, env.session(t, v2.WithSystemPromptFile(path), v2.WithAppendSystemPrompt("APPENDED-3")), "hi")
	sys := firstRequest(t, env).System
	// The CLI's own prompt is some 7 KB: it is not there.
	if !strings.Contains(sys, "FILE-SYSTEM-PROMPT-8") || !strings.Contains(sys, "APPENDED-3") || len(sys) > 2000 {
		t.Errorf("system prompt %.400q: want the file's text and the appended one, not the CLI's own", sys)
	}
}

// WithThinkingDisplay reaches the request's thinking.display. CLI 2.1.330 sends "omitted" as
// "updates", which is also what it sends without the option.
func TestRealCLI_ThinkingDisplay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode v2.ThinkingDisplay
		want string
	}{
		{v2.ThinkingDisplaySummarized, "summarized"}, {v2.ThinkingDisplayHighlights, "highlights"},
		{v2.ThinkingDisplayOmitted, "updates"}, {"", "updates"},
	} {
		t.Run(fmt.Sprintf("display=%q", tc.mode), func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok")
			opts := []v2.Option{v2.WithThinking(v2.ThinkingAdaptive)}
			if tc.mode != "" {
				opts = append(opts, v2.WithThinkingDisplay(tc.mode))
			}
			run(t, env.session(t, opts...), "hi")
			if th, _ := bodyField(t, firstRequest(t, env), "thinking").(map[string]any); th["display"] != tc.want {
				t.Errorf("WithThinkingDisplay(%q): thinking = %v, want display %q", tc.mode, th, tc.want)
			}
		})
	}
}

// WithPlanModeInstructions replace the plan-mode reminder's workflow.
func TestRealCLI_PlanModeInstructions(t *testing.T) {
	t.Parallel()
	for _, given := range []bool{true, false} {
		t.Run(fmt.Sprintf("given=%v", given), func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok")
			opts := []v2.Option{v2.WithPermissionMode(v2.PermissionModePlan)}
			if given {
				opts = append(opts, v2.WithPlanModeInstructions("PLAN-WORKFLOW-MARK-1"))
			}
			run(t, env.session(t, opts...), "plan it")
			r := firstRequest(t, env)
			if got := r.Contains("PLAN-WORKFLOW-MARK-1"); got != given {
				t.Errorf("instructions given %v: in the request %v", given, got)
			}
			if !r.Contains("Plan mode") && !r.Contains("plan mode") {
				t.Errorf("no plan-mode reminder in the request")
			}
		})
	}
}

// WithToolAliases: the model calls "Shell", the CLI runs Bash, under Bash's permission rules and
// hooks: a PreToolUse hook for Bash denies the aliased call too.
func TestRealCLI_ToolAliases(t *testing.T) {
	t.Parallel()
	denyBash := v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		return shared.Deny("no shell"), nil
	}))
	for _, tc := range []struct {
		name    string
		opts    []v2.Option
		written bool
	}{
		{"alias", []v2.Option{v2.WithToolAliases(map[string]string{"Shell": "Bash"})}, true},
		{"no alias", nil, false},
		{"alias, hook denies Bash", []v2.Option{v2.WithToolAliases(map[string]string{"Shell": "Bash"}), denyBash}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_sh", "Shell", bash("echo x > "+p+"/aliased.txt")), claudetest.TextReply("done")}
			})
			msgs, _ := query(t, env.session(t, append(tc.opts, v2.WithAllowedTools("Bash"))...), "shell")
			if env.exists("aliased.txt") != tc.written {
				t.Errorf("written %v, want %v; tool result %.200q", !tc.written, tc.written, toolResults(msgs)["toolu_sh"].ContentText())
			}
		})
	}
}

// WithTitle is the session's custom title, as sessions.Dir.List reads it from the transcript.
func TestRealCLI_Title(t *testing.T) {
	t.Parallel()
	for _, title := range []string{"SESSION-TITLE-MARK-5", ""} {
		t.Run(fmt.Sprintf("title=%q", title), func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok")
			var opts []v2.Option
			if title != "" {
				opts = append(opts, v2.WithTitle(title))
			}
			s := env.session(t, opts...)
			run(t, s, "hi")
			s.Close()
			infos, err := sessions.Dir(filepath.Join(env.home, ".claude")).List(testCtx(t), env.project)
			if err != nil || len(infos) != 1 {
				t.Fatalf("List: %+v, %v; want one session", infos, err)
			}
			if infos[0].CustomTitle != title {
				t.Errorf("WithTitle(%q): custom title %q", title, infos[0].CustomTitle)
			}
		})
	}
}

// WithSubagentText: the subagent's answer arrives as an assistant message under its Agent call.
func TestRealCLI_SubagentText(t *testing.T) {
	t.Parallel()
	for _, forward := range []bool{true, false} {
		t.Run(fmt.Sprintf("forward=%v", forward), func(t *testing.T) {
			t.Parallel()
			var opts []v2.Option
			if forward {
				opts = append(opts, v2.WithSubagentText())
			}
			_, msgs := agentRun(t, v2.AgentDefinition{}, nil, nil, opts...)
			var got bool
			for _, m := range msgs {
				if a, ok := m.(*shared.AssistantMessage); ok && a.ParentToolUseID != nil && *a.ParentToolUseID == "toolu_ag1" && a.Text() == "subagent done" {
					got = true
				}
			}
			if got != forward {
				t.Errorf("WithSubagentText %v: the subagent's text arrived %v", forward, got)
			}
		})
	}
}

// WithVerbatimPrompts: an @path mention and a slash command in a prompt reach the model as
// written; without it the CLI reads the file into the request and expands the command.
func TestRealCLI_VerbatimPrompts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, prompt, body string
	}{
		{"file mention", "summarize @secret.txt", "SECRET-CONTENT-7"},
		{"slash command", "/greet", "GREET-COMMAND-BODY-2"},
	} {
		for _, verbatim := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, verbatim=%v", tc.name, verbatim), func(t *testing.T) {
				t.Parallel()
				env := textEnv(t, "ok")
				writeFile(t, env.path("secret.txt"), "SECRET-CONTENT-7\n")
				writeFile(t, filepath.Join(env.home, ".claude/commands/greet.md"), "---\ndescription: greets\n---\nGREET-COMMAND-BODY-2\n")
				var opts []v2.Option
				if verbatim {
					opts = append(opts, v2.WithVerbatimPrompts())
				}
				run(t, env.session(t, opts...), tc.prompt)
				r := firstRequest(t, env)
				if got := r.Contains(tc.body); got == verbatim {
					t.Errorf("%s, verbatim %v: the request has %q = %v", tc.name, verbatim, tc.body, got)
				}
				if verbatim && !r.Contains(tc.prompt) {
					t.Errorf("%s, verbatim: the request lacks the prompt as written", tc.name)
				}
			})
		}
	}
}

// WithAllowBypassPermissions: SetPermissionMode(PermissionModeBypassPermissions) is refused
// without it; with it, the switch is made and an unapproved Bash command then runs.
func TestRealCLI_AllowBypassPermissions(t *testing.T) {
	t.Parallel()
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow=%v", allow), func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				return []claudetest.Reply{claudetest.ToolReply("toolu_b1", "Bash", bash("echo x > "+p+"/bypassed.txt")), claudetest.TextReply("done")}
			})
			// The CLI refuses bypassing to root unless IS_SANDBOX=1 (the tests may run as root).
			opts := []v2.Option{v2.WithEnv("IS_SANDBOX=1")}
			if allow {
				opts = append(opts, v2.WithAllowBypassPermissions())
			}
			s := env.session(t, opts...)
			err := s.SetPermissionMode(testCtx(t), v2.PermissionModeBypassPermissions)
			if (err == nil) != allow {
				t.Errorf("allow %v: SetPermissionMode: %v", allow, err)
			}
			run(t, s, "go")
			if env.exists("bypassed.txt") != allow {
				t.Errorf("allow %v: the unapproved command ran %v", allow, !allow)
			}
		})
	}
}

// WithExcludeDynamicSections: the auto-memory section, with its per-user path, leaves the CLI's
// system prompt for the first user message (CLI 2.1.330 sends the working directory in a message
// either way).
func TestRealCLI_ExcludeDynamicSections(t *testing.T) {
	t.Parallel()
	const memory = "persistent file-based memory at"
	for _, exclude := range []bool{false, true} {
		t.Run(fmt.Sprintf("exclude=%v", exclude), func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok")
			opts := []v2.Option{v2.WithClaudeCodeSystemPrompt()}
			if exclude {
				opts = append(opts, v2.WithExcludeDynamicSections())
			}
			run(t, env.session(t, opts...), "hi")
			r := firstRequest(t, env)
			inSystem := strings.Contains(r.System, memory)
			inMessages := false
			for _, m := range r.Messages {
				for _, b := range m.Content {
					inMessages = inMessages || strings.Contains(b.Text, memory)
				}
			}
			if inSystem == exclude || inMessages != exclude {
				t.Errorf("exclude %v: the memory section in the system prompt %v, in the messages %v", exclude, inSystem, inMessages)
			}
		})
	}
}

// WithResumeDropsTurn: resuming at A2 while declaring the drop of turn P3 is accepted, and the
// conversation goes on without it; resuming at A1 declaring the same drop is refused, as it
// would drop turn P2 too.
func TestRealCLI_ResumeDropsTurn(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "A1", "A2", "A3", "A4", "A5")
	s1 := env.session(t)
	id := s1.SessionID()
	var live []shared.Message
	for _, p := range []string{"P1", "P2", "P3"} {
		msgs, _ := query(t, s1, p)
		live = append(live, msgs...)
	}
	s1.Close()
	atA1, atA2 := assistantUUID(t, live, "A1"), assistantUUID(t, live, "A2")
	var p3 string
	for m, err := range sessions.Dir(filepath.Join(env.home, ".claude")).Messages(env.project, id) {
		if err != nil {
			t.Fatal(err)
		}
		if u, ok := m.(*shared.UserMessage); ok && strings.Contains(string(u.Message.Content), "P3") {
			p3 = u.UUID
		}
	}
	if p3 == "" {
		t.Fatal("no prompt P3 in the transcript")
	}

	if _, err := env.create(t, v2.WithResume(id), v2.WithResumeAt(atA1), v2.WithResumeDropsTurn(p3), v2.WithForkSession()); err == nil {
		t.Error("a resume that drops turn P2 too was not refused")
	} else {
		t.Logf("refused: %v", err)
	}
	// The same resume without the declaration is made.
	if _, err := env.create(t, v2.WithResume(id), v2.WithResumeAt(atA1), v2.WithForkSession()); err != nil {
		t.Errorf("resume at A1 without WithResumeDropsTurn: %v", err)
	}
	s := env.session(t, v2.WithResume(id), v2.WithResumeAt(atA2), v2.WithResumeDropsTurn(p3), v2.WithForkSession())
	query(t, s, "P4")
	s.Close()
	last, _ := env.api.LastRequest()
	if diff := cmp.Diff([]string{"user: P1", "assistant: A1", "user: P2", "assistant: A2", "user: P4"}, conversationTexts(last)); diff != "" {
		t.Errorf("the resumed turn's request (-want +got):\n%s", diff)
	}
}
