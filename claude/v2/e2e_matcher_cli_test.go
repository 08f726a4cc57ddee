package v2_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// subagentMarker starts the prompt the fake model gives the subagent: a request whose first
// message holds it is the subagent talking to the fake API.
const subagentMarker = "SUBAGENT-MARKER"

// A PreToolUse hook registered for "Task", the legacy name of the CLI's Agent tool, guards the
// Agent tool: CLI 2.1.330 sends tool_name "Agent" for it, and the SDK's matcher knows the alias.
// The hook denies the call and the subagent never runs: the fake API never gets its request and
// the file it would write is absent. The control ("Bash") shows the subagent does run when the
// hook does not match.
func TestRealCLI_MatcherTaskAliasGuardsAgent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		matcher string
		denied  bool
	}{
		{"Task", true},
		{"Agent", true},
		{"Bash", false},
	} {
		t.Run(tc.matcher, func(t *testing.T) {
			t.Parallel()
			env := newRealEnvHandler(t, func(p string, r claudetest.Request) claudetest.Reply {
				all := ""
				for _, m := range r.Messages {
					all += textOf(m)
				}
				if strings.Contains(textOf(r.Messages[0]), subagentMarker) {
					if strings.Contains(all, "tool_result:toolu_s1") {
						return claudetest.TextReply("sub done")
					}
					return claudetest.ToolReply("toolu_s1", "Write", map[string]any{
						"file_path": filepath.Join(p, "sub.txt"), "content": "the subagent ran"})
				}
				if strings.Contains(all, "tool_result:toolu_a1") {
					return claudetest.TextReply("done")
				}
				return claudetest.ToolReply("toolu_a1", "Agent", agentInput(subagentMarker+" write sub.txt"))
			})
			var pre recorder[*shared.PreToolUseHookInput]
			var rts records[shared.RoundTrip]
			s := env.session(t, v2.WithPermissionMode(v2.PermissionModeAcceptEdits), v2.WithRoundTripTrace(rts.add),
				v2.WithHook(shared.HookEventPreToolUse, tc.matcher, pre.handler(func(in *shared.PreToolUseHookInput) shared.HookOutput {
					return shared.Deny("no subagents here")
				})))
			msgs, res := query(t, s, "go")
			if res.Result != "done" {
				t.Fatalf("result %q", res.Result)
			}
			s.Close() // every round trip has been traced
			var saw []string
			for _, in := range pre.all() {
				saw = append(saw, in.ToolName+" "+in.ToolUseID)
			}
			subRequests := 0
			for _, r := range env.api.Requests() {
				if strings.Contains(textOf(r.Messages[0]), subagentMarker) {
					subRequests++
				}
			}
			// The CLI asks for the Agent call when the registered list names "Task" (it knows the
			// alias too), never for the subagent's Write.
			got := struct {
				RoundTrips  int
				HookSaw     []string
				SubRequests bool
				SubFile     bool
				Denied      bool
			}{len(rts.all()), saw, subRequests > 0, env.exists("sub.txt"),
				strings.Contains(toolResults(msgs)["toolu_a1"].ContentText(), "no subagents here")}
			want := got
			want.Denied, want.SubRequests, want.SubFile = tc.denied, !tc.denied, !tc.denied
			want.RoundTrips, want.HookSaw = 0, nil
			if tc.denied {
				want.RoundTrips, want.HookSaw = 1, []string{"Agent toolu_a1"}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("matcher %q (-want +got):\n%s", tc.matcher, d)
			}
			// The CLI lists the tool as "Task" in system/init, and offers the model "Agent".
			if tools := initTools(msgs); !slices.Contains(tools, "Task") || slices.Contains(tools, "Agent") {
				t.Errorf("system/init tools %q: want Task, not Agent", tools)
			}
			if r, ok := env.api.LastRequest(); ok && !slices.Contains(r.Tools, "Agent") {
				t.Errorf("tools offered to the model %q: want Agent", r.Tools)
			}
		})
	}
}

// agentInput is an input of the Agent tool of CLI 2.1.330: description and prompt are required;
// subagent_type picks the agent (general-purpose is built in). Without run_in_background false the
// CLI runs the subagent in the background ("Async agent launched successfully") and the turn ends
// before the subagent does.
func agentInput(prompt string) map[string]any {
	return map[string]any{"description": "probe", "prompt": prompt, "subagent_type": "general-purpose",
		"run_in_background": false}
}

// initTools returns the tools of the stream's first system/init message.
func initTools(msgs []shared.Message) []string {
	for _, m := range msgs {
		if s, ok := m.(*shared.SystemMessage); ok && s.Subtype == "init" {
			return s.Tools
		}
	}
	return nil
}

// The Agent tool the CLI offers the model: its input schema's required fields and properties.
func TestRealCLI_MatcherAgentToolSchema(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("one")} })
	s := env.session(t)
	run(t, s, "go")
	r, ok := env.api.LastRequest()
	if !ok {
		t.Fatal("no model request")
	}
	var body struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Required   []string                  `json:"required"`
				Properties map[string]map[string]any `json:"properties"`
			} `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	for _, tool := range body.Tools {
		if tool.Name != "Agent" {
			continue
		}
		props := make([]string, 0, len(tool.InputSchema.Properties))
		for k := range tool.InputSchema.Properties {
			props = append(props, k)
		}
		slices.Sort(props)
		t.Logf("Agent: required %q, properties %q", tool.InputSchema.Required, props)
		in := agentInput("x")
		for _, k := range tool.InputSchema.Required {
			if _, ok := in[k]; !ok {
				t.Errorf("agentInput lacks the required %q", k)
			}
		}
		for k := range in {
			if !slices.Contains(props, k) {
				t.Errorf("agentInput has %q, not a property of the Agent tool", k)
			}
		}
		return
	}
	t.Fatalf("no Agent tool offered: %q", r.Tools)
}

// A regular expression of finitely many names ("^(Write|Edit)$") is registered with the CLI as
// the list of those names, so the CLI makes no hook round trip for the tools it cannot match: a
// model that calls Bash 5 times and Write once costs 1 PreToolUse round trip, not 6. A regular
// expression of infinitely many names ("W.*") is registered as "" (everything): the CLI then asks
// for every call and the SDK filters locally. The handler sees Write only, either way.
func TestRealCLI_MatcherFiniteRegexRoundTrips(t *testing.T) {
	t.Parallel()
	const bashCalls = 5
	for _, tc := range []struct {
		name       string
		matcher    string
		registered string // the matcher the CLI is given
		roundTrips int
	}{
		{"finite", "^(Write|Edit)$", "Write|Edit", 1},
		{"infinite", "W.*", "", bashCalls + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, func(p string) []claudetest.Reply {
				var uses []claudetest.ToolUse
				for i := range bashCalls {
					uses = append(uses, claudetest.ToolUse{ID: fmt.Sprintf("toolu_b%d", i), Name: "Bash",
						Input: bash(fmt.Sprintf("touch %s/b%d.txt", p, i))})
				}
				uses = append(uses, claudetest.ToolUse{ID: "toolu_w", Name: "Write",
					Input: map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}})
				return []claudetest.Reply{claudetest.ToolsReply(uses...), claudetest.TextReply("done")}
			})
			var pre recorder[*shared.PreToolUseHookInput]
			var rts records[shared.RoundTrip]
			hooks := shared.Hooks{shared.HookEventPreToolUse: {{Matcher: tc.matcher, Handler: pre.handler(nil)}}}
			reg, err := v2.HookRegistrationFor(hooks)
			if err != nil {
				t.Fatal(err)
			}
			var init map[string][]struct {
				Matcher string `json:"matcher"`
			}
			if err := json.Unmarshal([]byte(reg), &init); err != nil {
				t.Fatal(err)
			}
			registered := "(none)"
			if m := init["PreToolUse"]; len(m) == 1 {
				registered = m[0].Matcher
			}
			if registered != tc.registered {
				t.Errorf("initialize registers %s, want the matcher %q", reg, tc.registered)
			}
			s := env.session(t, v2.WithAllowedTools("Bash", "Write"), v2.WithHooks(hooks), v2.WithRoundTripTrace(rts.add))
			if r := run(t, s, "go"); r.Result != "done" {
				t.Fatalf("result %q", r.Result)
			}
			// Close waits for every answer to be written: every round trip has been traced.
			s.Close()
			trips := 0
			for _, rt := range rts.all() {
				if rt.Subtype == "hook_callback" && rt.Event == shared.HookEventPreToolUse {
					trips++
				}
			}
			var saw []string
			for _, in := range pre.all() {
				saw = append(saw, in.ToolName)
			}
			ran := 0
			for i := range bashCalls {
				if env.exists(fmt.Sprintf("b%d.txt", i)) {
					ran++
				}
			}
			t.Logf("matcher %q registered as %q: %d PreToolUse round trips for %d tool calls", tc.matcher, registered, trips, bashCalls+1)
			type result struct {
				RoundTrips int
				HandlerSaw []string
				BashRan    int
				WriteRan   bool
			}
			want := result{tc.roundTrips, []string{"Write"}, bashCalls, true}
			if d := cmp.Diff(want, result{trips, saw, ran, env.exists("w.txt")}); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// A tool event's matcher naming a tool the CLI does not have is reported: with
// WithAllowUnenforcedHooks (without it such a PreToolUse hook is refused) a warning per name in
// Info().Warnings, and the hook still fires for the names the CLI has (the CLI is given the
// list as written, and ignores the unknown entry); with WithStrictHooks CreateSession fails with an
// error wrapping shared.ErrUnknownTool, before the CLI starts.
func TestRealCLI_MatcherUnknownToolName(t *testing.T) {
	t.Parallel()
	hooksOf := func(r *recorder[*shared.PreToolUseHookInput]) shared.Hooks {
		return shared.Hooks{shared.HookEventPreToolUse: {
			{Matcher: "Wirte|Bash", Handler: r.handler(nil)},
			{Matcher: "MultiEdit", Handler: r.handler(nil)},
		}}
	}
	hooksFor := func(r *recorder[*shared.PreToolUseHookInput]) v2.Option { return v2.WithHooks(hooksOf(r)) }
	// The CLI is given the union list, unknown names included.
	if reg, err := v2.HookRegistrationFor(hooksOf(nil)); err != nil || !strings.Contains(reg, `"matcher":"Wirte|Bash|MultiEdit"`) {
		t.Errorf("initialize registers %s (%v), want the matcher \"Wirte|Bash|MultiEdit\"", reg, err)
	}
	t.Run("default", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_b", Name: "Bash", Input: bash("touch " + p + "/b.txt")},
				claudetest.ToolUse{ID: "toolu_w", Name: "Write", Input: map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}},
			), claudetest.TextReply("done")}
		})
		var pre recorder[*shared.PreToolUseHookInput]
		var rts records[shared.RoundTrip]
		// A PreToolUse hook naming no tool is refused unless accepted (TestRealCLI_DenyHookNamingNoToolIsRefused).
		s := env.session(t, v2.WithAllowedTools("Bash", "Write"), hooksFor(&pre), v2.WithRoundTripTrace(rts.add), v2.WithAllowUnenforcedHooks())
		var unknown []string
		for _, w := range s.Info().Warnings {
			for _, n := range []string{"MultiEdit", "Wirte"} {
				if strings.Contains(w, fmt.Sprintf("%q", n)) {
					unknown = append(unknown, n)
				}
			}
		}
		if d := cmp.Diff([]string{"MultiEdit", "Wirte"}, unknown); d != "" {
			t.Errorf("names warned about (-want +got):\n%s\nwarnings: %q", d, s.Info().Warnings)
		}
		if r := run(t, s, "go"); r.Result != "done" {
			t.Fatalf("result %q", r.Result)
		}
		s.Close()
		var saw []string
		for _, in := range pre.all() {
			saw = append(saw, in.ToolName)
		}
		// The CLI asks for Bash only: it matches "Wirte|Bash|MultiEdit" exactly, name by name.
		trips := 0
		for _, rt := range rts.all() {
			if rt.Event == shared.HookEventPreToolUse {
				trips++
			}
		}
		if d := cmp.Diff([]string{"Bash"}, saw); d != "" || trips != 1 || !env.exists("b.txt") || !env.exists("w.txt") {
			t.Errorf("hook saw (-want +got):\n%s\nround trips %d (want 1), Bash ran %v, Write ran %v", d, trips, env.exists("b.txt"), env.exists("w.txt"))
		}
	})
	t.Run("strict", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("one")} })
		var pre recorder[*shared.PreToolUseHookInput]
		_, err := env.create(t, hooksFor(&pre), v2.WithStrictHooks())
		var re *shared.RegistrationError
		if !errors.Is(err, shared.ErrUnknownTool) || !errors.As(err, &re) || re.Event != shared.HookEventPreToolUse || re.Index != 0 {
			t.Fatalf("CreateSession with WithStrictHooks: %v, want a PreToolUse[0] registration error wrapping shared.ErrUnknownTool", err)
		}
		if n := len(env.api.Requests()); n != 0 {
			t.Errorf("the model got %d requests: the CLI ran", n)
		}
		// Known names and the legacy "Task" pass the strict check.
		s := env.session(t, v2.WithStrictHooks(), v2.WithHook(shared.HookEventPreToolUse, "Task|Bash", pre.handler(nil)))
		if w := s.Info().Warnings; len(w) != 0 {
			t.Errorf("warnings %q", w)
		}
	})
}
