package parser_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// A result's modelUsage, api_error_status and origin are typed; a shape a newer CLI changed
// leaves that field empty and the result is still decoded.
func TestParseResultExtras(t *testing.T) {
	status := 529
	for _, tc := range []struct {
		name, line string
		usage      map[string]shared.ModelUsage
		status     *int
		origin     *shared.MessageOrigin
	}{
		{"typed", `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s",` +
			`"modelUsage":{"claude-x":{"inputTokens":10,"outputTokens":3,"cacheReadInputTokens":1,"cacheCreationInputTokens":2,"webSearchRequests":0,"costUSD":0.5,"contextWindow":200000,"maxOutputTokens":32000,"costBasis":"list","future":1}},` +
			`"api_error_status":529,"origin":{"kind":"task-notification","runId":"r1"}}`,
			map[string]shared.ModelUsage{"claude-x": {InputTokens: 10, OutputTokens: 3, CacheReadInputTokens: 1, CacheCreationInputTokens: 2, CostUSD: 0.5, ContextWindow: 200000, MaxOutputTokens: 32000, CostBasis: "list"}},
			&status, &shared.MessageOrigin{Kind: "task-notification", RunID: "r1"}},
		{"null status", `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s","api_error_status":null}`, nil, nil, nil},
		{"changed shapes", `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s",` +
			`"modelUsage":{"claude-x":{"inputTokens":"many"}},"api_error_status":"529","origin":"human"}`, nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parser.Parse([]byte(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			r, ok := m.(*shared.ResultMessage)
			if !ok || r.Result != "ok" {
				t.Fatalf("Parse = %T %+v", m, m)
			}
			if diff := cmp.Diff(tc.usage, r.ModelUsage); diff != "" {
				t.Errorf("ModelUsage (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.status, r.APIErrorStatus); diff != "" {
				t.Errorf("APIErrorStatus (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.origin, r.Origin); diff != "" {
				t.Errorf("Origin (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := parser.Parse([]byte(`{"type":"result","modelUsage":{"x":{]}}`)); err == nil {
		t.Error("a result that is not JSON was decoded")
	}
}
