package claudetest_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

func TestRequestDecoding(t *testing.T) {
	srv := claudetest.NewModel()
	defer srv.Close()
	b := body(true, true,
		map[string]any{"role": "user", "content": "say \"quoted\" <b>"},
		map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "text", "text": "ok"},
			map[string]any{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": map[string]any{"command": "x"}},
		}},
		map[string]any{"role": "user", "content": []any{map[string]any{
			"type": "tool_result", "tool_use_id": "toolu_1", "content": "denied: nope", "is_error": true}}},
	)
	b["system"] = []any{map[string]any{"type": "text", "text": "sys one"}, map[string]any{"type": "text", "text": "sys two"}}
	post(t, srv.URL(), "/v1/messages?beta=true", b).Body.Close()

	r, ok := srv.LastRequest()
	if !ok {
		t.Fatal("no request recorded")
	}
	if r.System != "sys one\nsys two" || r.Model != "claude-test" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("decoded %+v", r)
	}
	if got := []string{r.Messages[0].Role, r.Messages[1].Role, r.Messages[2].Role}; !cmp.Equal(got, []string{"user", "assistant", "user"}) {
		t.Errorf("roles %q", got)
	}
	tr, ok := r.LastToolResult()
	if !ok || tr.ToolUseID != "toolu_1" || !tr.IsError || tr.ContentText() != "denied: nope" || len(r.ToolResults()) != 1 {
		t.Errorf("tool result %+v", tr)
	}
	for _, s := range []string{`say "quoted" <b>`, "sys two", "denied: nope", `"tool_use_id"`} {
		if !r.Contains(s) {
			t.Errorf("Contains(%q) = false", s)
		}
	}
	if r.Contains("absent") {
		t.Error("Contains(absent) = true")
	}
}
