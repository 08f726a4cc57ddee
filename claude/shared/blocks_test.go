package shared_test

import (
	"errors"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The API's server-tool blocks (shapes of the Messages API's web search) decode typed.
func TestWebSearchResults(t *testing.T) {
	var msg shared.APIMessage
	line := `{"role":"assistant","content":[
		{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go json v2"}},
		{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://go.dev","title":"Go","encrypted_content":"abc","page_age":"1 day"}]},
		{"type":"web_search_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}},
		{"type":"text","text":"Go is","citations":[{"type":"web_search_result_location","url":"https://go.dev"}]}]}`
	if err := json.Unmarshal([]byte(line), &msg); err != nil {
		t.Fatal(err)
	}
	b := msg.Content
	if b[0].Type != shared.BlockServerToolUse || b[0].ID != "srvtoolu_1" || b[0].Name != "web_search" || string(b[0].Input) != `{"query":"go json v2"}` {
		t.Errorf("server_tool_use block = %+v", b[0])
	}
	hits, err := b[1].WebSearchResults()
	want := []shared.WebSearchResult{{Type: "web_search_result", URL: "https://go.dev", Title: "Go", EncryptedContent: "abc", PageAge: "1 day"}}
	if diff := cmp.Diff(want, hits); err != nil || diff != "" {
		t.Errorf("WebSearchResults() error %v, diff (-want +got):\n%s", err, diff)
	}
	var we *shared.WebSearchError
	if _, err := b[2].WebSearchResults(); !errors.As(err, &we) || we.ErrorCode != "max_uses_exceeded" {
		t.Errorf("WebSearchResults() of an error block = %v, want a *WebSearchError max_uses_exceeded", err)
	}
	if _, err := b[3].WebSearchResults(); !errors.Is(err, shared.ErrNotWebSearchResult) {
		t.Errorf("WebSearchResults() of a text block = %v, want ErrNotWebSearchResult", err)
	}
	if len(b[3].Citations) == 0 {
		t.Error("the text block's citations were not kept")
	}
}
