package v2_test

import (
	"encoding/base64"
	"errors"
	"os"
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

// person is the structured output of the tests.
type person struct {
	Name string `json:"name"`
	Age  int    `json:"age"`
}

// structuredToolSchema returns the input schema of the StructuredOutput tool the CLI offered the
// model in r, or nil.
func structuredToolSchema(t *testing.T, r claudetest.Request) map[string]any {
	t.Helper()
	var body struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body, json.RejectUnknownMembers(false)); err != nil {
		t.Fatalf("request body: %v", err)
	}
	for _, tool := range body.Tools {
		if tool.Name == "StructuredOutput" {
			return tool.InputSchema
		}
	}
	return nil
}

// Structured output: the schema derived from a Go type reaches the model as the StructuredOutput
// tool, the CLI enforces it, and RunAs decodes what the model gave.
func TestRealCLI_StructuredOutput(t *testing.T) {
	t.Parallel()
	t.Run("decoded", func(t *testing.T) {
		t.Parallel()
		env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
			if r.Index == 0 {
				return claudetest.ToolReply("toolu_so1", "StructuredOutput", map[string]any{"name": "Ada", "age": 36})
			}
			return claudetest.TextReply("done")
		})
		s := env.session(t, v2.WithOutputSchemaFor[person]())
		got, res, err := v2.RunAs[person](testCtx(t), s, "who?")
		if err != nil {
			t.Fatalf("RunAs: %v (result %+v)", err, res)
		}
		if diff := cmp.Diff(person{Name: "Ada", Age: 36}, got); diff != "" {
			t.Errorf("decoded output (-want +got):\n%s", diff)
		}
		schema := structuredToolSchema(t, firstRequest(t, env))
		if schema == nil {
			t.Fatal("the model was not offered the StructuredOutput tool")
		}
		props, _ := schema["properties"].(map[string]any)
		if _, ok := props["age"]; !ok || !slices.Contains(schema["required"].([]any), any("name")) {
			t.Errorf("StructuredOutput schema = %v", schema)
		}
	})
	t.Run("enforced", func(t *testing.T) {
		t.Parallel()
		env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
			return claudetest.ToolReply("toolu_bad", "StructuredOutput", map[string]any{"nom": "Ada"})
		})
		s := env.session(t, v2.WithOutputSchemaFor[person](), v2.WithEnv("MAX_STRUCTURED_OUTPUT_RETRIES=2"))
		_, res, err := v2.RunAs[person](testCtx(t), s, "who?")
		if !errors.Is(err, v2.ErrMaxStructuredOutputRetries) {
			t.Fatalf("RunAs error = %v, want ErrMaxStructuredOutputRetries", err)
		}
		var re *v2.ResultError
		if !errors.As(err, &re) || re.Result != res || res.Subtype != v2.ResultErrorMaxStructuredOutputRetries {
			t.Errorf("error %#v, result %+v", err, res)
		}
		last, _ := env.api.LastRequest()
		tr, ok := last.LastToolResult()
		if !ok || !tr.IsError || !strings.Contains(tr.ContentText(), "required property 'name'") {
			t.Errorf("the model was not told its output misses the schema: %+v", tr)
		}
	})
}

// Budgets and turn limits stop the session with typed errors.
func TestRealCLI_Limits(t *testing.T) {
	t.Parallel()
	t.Run("max budget", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			r := claudetest.ToolReply("toolu_b1", "Bash", bash("echo x > "+p+"/budget.txt"))
			r.InputTokens = 200_000 // some $0.80 at the default model's price
			return []claudetest.Reply{r, claudetest.TextReply("done")}
		})
		s := env.session(t, v2.WithMaxBudgetUSD(0.5), v2.WithAllowedTools("Bash"))
		res, err := s.Run(testCtx(t), "spend")
		if !errors.Is(err, v2.ErrMaxBudget) {
			t.Fatalf("Run error = %v, want ErrMaxBudget", err)
		}
		if res.TotalCostUSD <= 0.5 {
			t.Errorf("total cost %v, want beyond the budget", res.TotalCostUSD)
		}
		if n := len(env.api.Requests()); n != 1 {
			t.Errorf("%d model requests; the budget should have stopped the session after the first", n)
		}
	})
	t.Run("no budget", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			r := claudetest.ToolReply("toolu_b1", "Bash", bash("echo x > "+p+"/budget.txt"))
			r.InputTokens = 200_000
			return []claudetest.Reply{r, claudetest.TextReply("done")}
		})
		if _, err := env.session(t, v2.WithAllowedTools("Bash")).Run(testCtx(t), "spend"); err != nil {
			t.Fatalf("Run: %v", err)
		}
		if n := len(env.api.Requests()); n != 2 {
			t.Errorf("%d model requests, want 2", n)
		}
	})
	t.Run("max turns", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []claudetest.Reply {
			return []claudetest.Reply{claudetest.ToolReply("toolu_t1", "Bash", bash("true")), claudetest.TextReply("done")}
		})
		_, err := env.session(t, v2.WithMaxTurns(1), v2.WithAllowedTools("Bash")).Run(testCtx(t), "go")
		if !errors.Is(err, v2.ErrMaxTurns) {
			t.Fatalf("Run error = %v, want ErrMaxTurns", err)
		}
	})
}

// bodyField decodes one top-level member of a request body.
func bodyField(t *testing.T, r claudetest.Request, name string) any {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request body: %v", err)
	}
	return body[name]
}

// Model controls reach the model's request: the fallback model after an overload, effort,
// thinking, betas.
func TestRealCLI_ModelControls(t *testing.T) {
	t.Parallel()
	t.Run("fallback model", func(t *testing.T) {
		t.Parallel()
		env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
			if r.Model == "claude-sonnet-4-5" {
				return claudetest.ErrorReply(529, "Overloaded")
			}
			return claudetest.TextReply("from " + r.Model)
		})
		s := env.session(t, v2.WithModel("claude-sonnet-4-5"), v2.WithFallbackModels("claude-haiku-4-5"))
		res, err := s.Run(testCtx(t), "hi")
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if res.Result != "from claude-haiku-4-5" {
			t.Errorf("result %q, want the fallback's answer", res.Result)
		}
		var models []string
		for _, r := range env.api.Requests() {
			models = append(models, r.Model)
		}
		if len(models) < 2 || models[0] != "claude-sonnet-4-5" || models[len(models)-1] != "claude-haiku-4-5" {
			t.Errorf("models requested: %q", models)
		}
	})
	t.Run("effort", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithEffort(v2.EffortHigh)), "hi")
		oc, _ := bodyField(t, firstRequest(t, env), "output_config").(map[string]any)
		if oc["effort"] != "high" {
			t.Errorf("output_config = %v", oc)
		}
	})
	t.Run("max thinking tokens", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithModel("claude-sonnet-4-5"), v2.WithMaxThinkingTokens(3000)), "hi")
		th := bodyField(t, firstRequest(t, env), "thinking")
		if m, _ := th.(map[string]any); m["budget_tokens"] != float64(3000) {
			t.Errorf("thinking = %v", th)
		}
	})
	t.Run("thinking disabled", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithModel("claude-sonnet-4-5"), v2.WithThinking(v2.ThinkingDisabled)), "hi")
		th := bodyField(t, firstRequest(t, env), "thinking")
		if m, _ := th.(map[string]any); m["type"] != "disabled" {
			t.Errorf("thinking = %v", th)
		}
	})
	t.Run("thinking adaptive", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		// Adaptive is also the CLI's default for a model that has it (its default model); a model
		// without it (claude-sonnet-4-5) gets a fixed budget instead.
		run(t, env.session(t, v2.WithThinking(v2.ThinkingAdaptive)), "hi")
		th := bodyField(t, firstRequest(t, env), "thinking")
		if m, _ := th.(map[string]any); m["type"] != "adaptive" {
			t.Errorf("thinking = %v", th)
		}
	})
	t.Run("betas", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithBetas("context-1m-2025-08-07")), "hi")
		if h := strings.Join(firstRequest(t, env).Header.Values("anthropic-beta"), ","); !strings.Contains(h, "context-1m-2025-08-07") {
			t.Errorf("anthropic-beta = %q", h)
		}
	})
	t.Run("task budget", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithTaskBudget(50000)), "hi")
		oc, _ := bodyField(t, firstRequest(t, env), "output_config").(map[string]any)
		if tb, _ := oc["task_budget"].(map[string]any); tb["total"] != float64(50000) {
			t.Errorf("output_config = %v", oc)
		}
	})
}

// What the agent can see and do: the base tool set, subagents, setting sources.
func TestRealCLI_AgentScope(t *testing.T) {
	t.Parallel()
	t.Run("tools", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithTools("Read", "Bash")), "hi")
		tools := firstRequest(t, env).Tools
		if !containsString(tools, "Read") || !containsString(tools, "Bash") || containsString(tools, "Write") || containsString(tools, "Edit") {
			t.Errorf("tools offered: %q", tools)
		}
	})
	t.Run("no tools", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		run(t, env.session(t, v2.WithTools()), "NO-TOOLS-PROMPT")
		// A request without tools is a side request to the fake API: the prompt's request is one.
		var seen int
		for _, r := range append(env.api.Requests(), env.api.SideRequests()...) {
			if r.Contains("NO-TOOLS-PROMPT") {
				seen++
				if len(r.Tools) > 0 {
					t.Errorf("tools offered: %q", r.Tools)
				}
			}
		}
		if seen == 0 {
			t.Error("the prompt never reached the model")
		}
	})
	t.Run("agents", func(t *testing.T) {
		t.Parallel()
		const agentPrompt = "AGENT-PROMPT-REVIEWER-7"
		env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply {
			if strings.Contains(r.System, agentPrompt) {
				return claudetest.TextReply("reviewed by the subagent")
			}
			if _, ok := r.LastToolResult(); ok {
				return claudetest.TextReply("done")
			}
			return claudetest.ToolReply("toolu_ag1", "Agent", map[string]any{
				"description": "review", "prompt": "review the code", "subagent_type": "reviewer", "run_in_background": false,
			})
		})
		s := env.session(t, v2.WithAgents(map[string]v2.AgentDefinition{
			"reviewer": {Description: "Reviews code", Prompt: agentPrompt, Tools: []string{"Read"}, Model: "claude-haiku-4-5"},
		}))
		si, err := s.ServerInfo()
		if err != nil {
			t.Fatal(err)
		}
		var listed bool
		for _, a := range si.Agents {
			listed = listed || a.Name == "reviewer" && a.Description == "Reviews code"
		}
		if !listed {
			t.Errorf("ServerInfo().Agents = %+v, want reviewer", si.Agents)
		}
		msgs, _ := query(t, s, "review please")
		var sub []claudetest.Request
		for _, r := range env.api.Requests() {
			if strings.Contains(r.System, agentPrompt) {
				sub = append(sub, r)
			}
		}
		if len(sub) == 0 {
			t.Fatal("the subagent never ran")
		}
		if sub[0].Model != "claude-haiku-4-5" || !slices.Equal(sub[0].Tools, []string{"Read"}) {
			t.Errorf("subagent request: model %q, tools %q", sub[0].Model, sub[0].Tools)
		}
		if tr, ok := toolResults(msgs)["toolu_ag1"]; !ok || !strings.Contains(tr.ContentText(), "reviewed by the subagent") {
			t.Errorf("Agent tool result = %+v", tr)
		}
	})
	t.Run("setting sources", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			name      string
			opts      []v2.Option
			wantWrite bool
		}{
			{"default leaves the project's settings out", nil, true},
			{"user only", []v2.Option{v2.WithSettingSources(v2.SettingSourceUser)}, true},
			{"project", []v2.Option{v2.WithSettingSources(v2.SettingSourceProject)}, false},
		} {
			env := textEnv(t, "ok")
			writeFile(t, env.path(".claude/settings.json"), `{"permissions":{"deny":["Write"]}}`)
			run(t, env.session(t, tc.opts...), "hi")
			if got := containsString(firstRequest(t, env).Tools, "Write"); got != tc.wantWrite {
				t.Errorf("%s: Write offered = %v, want %v", tc.name, got, tc.wantWrite)
			}
		}
	})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pngPixel is a 1x1 PNG.
var pngPixel = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

// Prompts with content: an image, a document and text reach the model's request as blocks, and a
// stream of prompts is answered prompt by prompt.
func TestRealCLI_ContentPrompts(t *testing.T) {
	t.Parallel()
	t.Run("blocks", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "seen")
		s := env.session(t)
		var res *shared.ResultMessage
		for m, err := range s.QueryContent(testCtx(t), v2.TextBlock("TEXT-BLOCK-1"), v2.ImageBlock("image/png", pngPixel), v2.TextDocumentBlock("DOC-BODY-2", "notes")) {
			if err != nil {
				t.Fatal(err)
			}
			if r, ok := m.(*shared.ResultMessage); ok {
				res = r
			}
		}
		if res == nil || res.Result != "seen" {
			t.Fatalf("result %+v", res)
		}
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content []struct {
					Type   string `json:"type"`
					Text   string `json:"text"`
					Source struct {
						Type      string `json:"type"`
						MediaType string `json:"media_type"`
						Data      string `json:"data"`
					} `json:"source"`
				} `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(firstRequest(t, env).Body, &body); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range body.Messages {
			for _, c := range m.Content {
				switch c.Type {
				case "image":
					got = append(got, "image "+c.Source.MediaType+" "+c.Source.Data)
				case "document":
					got = append(got, "document "+c.Source.Data)
				case "text":
					if strings.Contains(c.Text, "TEXT-BLOCK-1") {
						got = append(got, "text "+c.Text)
					}
				}
			}
		}
		want := []string{"text TEXT-BLOCK-1", "image image/png " + base64.StdEncoding.EncodeToString(pngPixel), "document DOC-BODY-2"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("blocks the model got (-want +got):\n%s", diff)
		}
	})
	t.Run("stream", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "first", "second")
		s := env.session(t)
		prompts := func(yield func([]shared.ContentBlock) bool) {
			_ = yield([]shared.ContentBlock{v2.TextBlock("PROMPT-A")}) && yield([]shared.ContentBlock{v2.TextBlock("PROMPT-B")})
		}
		if err := s.SendStream(testCtx(t), prompts); err != nil {
			t.Fatal(err)
		}
		var results []string
		for len(results) < 2 {
			for m, err := range s.Receive(testCtx(t)) {
				if err != nil {
					t.Fatal(err)
				}
				if r, ok := m.(*shared.ResultMessage); ok {
					results = append(results, r.Result)
				}
			}
		}
		if len(env.requestsContaining("PROMPT-B")) == 0 {
			t.Error("the second prompt never reached the model")
		}
		if results[len(results)-1] != "second" {
			t.Errorf("results %q", results)
		}
	})
	t.Run("invalid block", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "unused")
		s := env.session(t)
		if err := s.SendContent(testCtx(t), v2.ImageBlock("image/tiff", pngPixel)); err == nil {
			t.Error("an image/tiff block was accepted")
		}
	})
}

// Typed control calls: each answer decodes, and SetMaxThinkingTokens changes the next request.
func TestRealCLI_ControlCalls(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "one", "two", "three")
	s := env.session(t, v2.WithModel("claude-sonnet-4-5"))
	ctx := testCtx(t)
	si, err := s.ServerInfo()
	if err != nil {
		t.Fatal(err)
	}
	if len(si.Commands) == 0 || len(si.Models) == 0 || len(si.AvailableOutputStyles) == 0 || si.Account.APIKeySource == "" {
		t.Errorf("ServerInfo = %+v", si)
	}
	run(t, s, "hi")
	u, err := s.ContextUsage(ctx, v2.ContextUsageOptions{})
	if err != nil {
		t.Fatalf("ContextUsage: %v", err)
	}
	if u.TotalTokens <= 0 || u.MaxTokens <= 0 || len(u.Categories) == 0 || u.Model == "" {
		t.Errorf("ContextUsage = %+v", u)
	}
	mcp, err := s.MCPStatus(ctx)
	if err != nil || len(mcp) != 0 {
		t.Errorf("MCPStatus = %+v, %v; want no servers", mcp, err)
	}
	if err := s.StopTask(ctx, "no-such-task"); err != nil { // CLI 2.1.330 accepts any id
		t.Errorf("StopTask(unknown) = %v", err)
	}
	if err := s.SetMaxThinkingTokens(ctx, 4096, ""); err != nil {
		t.Fatalf("SetMaxThinkingTokens: %v", err)
	}
	run(t, s, "again")
	last, _ := env.api.LastRequest()
	if th, _ := bodyField(t, last, "thinking").(map[string]any); th["budget_tokens"] != float64(4096) {
		t.Errorf("thinking after SetMaxThinkingTokens(4096) = %v", th)
	}
	if err := s.SetMaxThinkingTokens(ctx, 0, ""); err != nil {
		t.Fatalf("SetMaxThinkingTokens(0): %v", err)
	}
	run(t, s, "once more")
	last, _ = env.api.LastRequest()
	if th, _ := bodyField(t, last, "thinking").(map[string]any); th != nil && th["type"] != "disabled" {
		t.Errorf("thinking after SetMaxThinkingTokens(0) = %v", th)
	}
}

// WithPluginDirs loads a plugin: its command is in ServerInfo.
func TestRealCLI_PluginDirs(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "ok")
	dir := filepath.Join(t.TempDir(), "probe-plugin")
	writeFile(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), `{"name":"probe-plugin","version":"1.0.0","description":"test plugin"}`)
	writeFile(t, filepath.Join(dir, "commands", "hello.md"), "---\ndescription: PLUGIN-COMMAND-DESCRIPTION\n---\nSay hello\n")
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want bool
	}{{"without", nil, false}, {"with", []v2.Option{v2.WithPluginDirs(dir)}, true}} {
		si, err := env.session(t, tc.opts...).ServerInfo()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		found := false
		for _, c := range si.Commands {
			names = append(names, c.Name)
			found = found || strings.Contains(c.Description, "PLUGIN-COMMAND-DESCRIPTION")
		}
		if found != tc.want {
			t.Errorf("%s: plugin command listed = %v, want %v; commands %q", tc.name, found, tc.want, names)
		}
	}
}

// The system prompt: empty by default as in the official SDKs, the CLI's own on request, and
// appended text with either.
func TestRealCLI_SystemPromptDefault(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		opts          []v2.Option
		cli, appended bool
	}{
		{"default: empty", nil, false, false},
		{"claude code", []v2.Option{v2.WithClaudeCodeSystemPrompt()}, true, false},
		{"append implies claude code", []v2.Option{v2.WithAppendSystemPrompt("APPENDED-9")}, true, true},
		{"own prompt, appended", []v2.Option{v2.WithSystemPrompt("OWN-PROMPT-8"), v2.WithAppendSystemPrompt("APPENDED-9")}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "ok")
			run(t, env.session(t, tc.opts...), "hi")
			sys := firstRequest(t, env).System
			// The CLI's own prompt is some 7 KB; without it the CLI sends a line or two of its own.
			if got := len(sys) > 2000; got != tc.cli {
				t.Errorf("the CLI's prompt in the system prompt = %v, want %v; system (%d bytes) %.300q", got, tc.cli, len(sys), sys)
			}
			if got := strings.Contains(sys, "APPENDED-9"); got != tc.appended {
				t.Errorf("appended text in the system prompt = %v, want %v", got, tc.appended)
			}
		})
	}
}

// WithMainAgent runs the main agent as one of WithAgents's: its prompt, model and tools are the main
// request's.
func TestRealCLI_MainAgent(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "ok")
	run(t, env.session(t,
		v2.WithAgents(map[string]v2.AgentDefinition{"lead": {Description: "Leads", Prompt: "MAIN-AGENT-PROMPT-5", Tools: []string{"Read", "Grep"}, Model: "claude-haiku-4-5"}}),
		v2.WithMainAgent("lead")), "hi")
	r := firstRequest(t, env)
	if !strings.Contains(r.System, "MAIN-AGENT-PROMPT-5") || r.Model != "claude-haiku-4-5" || containsString(r.Tools, "Bash") {
		t.Errorf("main request: model %q, tools %q, system %.300q", r.Model, r.Tools, r.System)
	}
}
