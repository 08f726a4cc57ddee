package v2_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithQuestionPreviewFormat(html) changes how the AskUserQuestion tool's option previews are
// described to the model (the TS SDK's toolConfig.askUserQuestion.previewFormat): the
// AskUserQuestion schema (once ToolSearch loaded it) asks for HTML with it and not without. CLI
// 2.1.332 offers AskUserQuestion only to a session with a permission callback (someone to ask).
func TestRealCLI_QuestionPreviewFormat(t *testing.T) {
	t.Parallel()
	schemaOf := func(t *testing.T, opts ...v2.Option) string {
		// AskUserQuestion is deferred behind ToolSearch: the model loads it first.
		env := newRealEnv(t, func(string) []claudetest.Reply {
			return []claudetest.Reply{
				claudetest.ToolReply("toolu_ts", "ToolSearch", map[string]any{"query": "select:AskUserQuestion", "max_results": 1}),
				claudetest.TextReply("ok"),
			}
		})
		allow := v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
			return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
		})
		run(t, env.session(t, append(opts, allow)...), "hi")
		reqs := env.api.Requests()
		if len(reqs) < 2 {
			t.Fatalf("%d model requests, want 2", len(reqs))
		}
		req := reqs[1]
		var body struct {
			Tools []struct {
				Name        string         `json:"name"`
				Description string         `json:"description"`
				InputSchema map[string]any `json:"input_schema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(req.Body, &body, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		for _, tool := range body.Tools {
			if tool.Name == "AskUserQuestion" {
				b, _ := json.Marshal(tool.InputSchema)
				return tool.Description + string(b)
			}
		}
		t.Fatalf("no AskUserQuestion tool in the request after ToolSearch (tools %v)", req.Tools)
		return ""
	}
	with, without := schemaOf(t, v2.WithQuestionPreviewFormat(v2.QuestionPreviewHTML)), schemaOf(t)
	if !strings.Contains(with, "HTML") || strings.Contains(without, "HTML") {
		t.Errorf("AskUserQuestion mentions HTML: with the option %v, without %v", strings.Contains(with, "HTML"), strings.Contains(without, "HTML"))
	}
}
