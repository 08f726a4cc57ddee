package claudetest_test

import (
	jsonv1 "encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

var replyCases = []struct {
	name  string
	reply claudetest.Reply
	want  result
}{
	{
		name:  "text",
		reply: claudetest.TextReply("hello"),
		want:  result{StopReason: "end_turn", Blocks: []block{{Type: "text", Text: "hello"}}},
	},
	{
		name:  "one tool",
		reply: claudetest.ToolReply("toolu_01", "Bash", map[string]string{"command": "echo hi"}),
		want: result{StopReason: "tool_use", Blocks: []block{
			{Type: "tool_use", ID: "toolu_01", Name: "Bash", Input: `{"command":"echo hi"}`}}},
	},
	{
		name: "text and two tools, non-ASCII input",
		reply: claudetest.Reply{Text: "let me", ToolUses: []claudetest.ToolUse{
			{ID: "toolu_a", Name: "Read", Input: map[string]string{"file_path": "/tmp/é€😀.txt"}},
			{ID: "toolu_b", Name: "Bash", Input: jsonv1.RawMessage(`{"command":"ls"}`)},
			{ID: "toolu_c", Name: "Bash", Input: jsontext.Value(`{"command":"pwd"}`)},
		}},
		want: result{StopReason: "tool_use", Blocks: []block{
			{Type: "text", Text: "let me"},
			{Type: "tool_use", ID: "toolu_a", Name: "Read", Input: `{"file_path":"/tmp/é€😀.txt"}`},
			{Type: "tool_use", ID: "toolu_b", Name: "Bash", Input: `{"command":"ls"}`},
			{Type: "tool_use", ID: "toolu_c", Name: "Bash", Input: `{"command":"pwd"}`},
		}},
	},
	{
		name:  "nil input",
		reply: claudetest.ToolsReply(claudetest.ToolUse{ID: "toolu_c", Name: "TaskStop"}),
		want: result{StopReason: "tool_use", Blocks: []block{
			{Type: "tool_use", ID: "toolu_c", Name: "TaskStop", Input: `{}`}}},
	},
}

func TestStreamedReply(t *testing.T) {
	for _, tc := range replyCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := claudetest.NewModel(tc.reply)
			defer srv.Close()
			resp := post(t, srv.URL(), "/v1/messages?beta=true", body(true, true))
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			got := assemble(t, parseSSE(t, resp.Body))
			if got.Model != "claude-test" || got.ID == "" {
				t.Errorf("message_start id %q model %q", got.ID, got.Model)
			}
			got.ID, got.Model = "", ""
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("stream (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSONReply(t *testing.T) {
	for _, tc := range replyCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := claudetest.NewModel(tc.reply)
			defer srv.Close()
			resp := post(t, srv.URL(), "/v1/messages", body(false, true))
			var m struct {
				Type       string `json:"type"`
				Role       string `json:"role"`
				StopReason string `json:"stop_reason"`
				Content    []struct {
					Type  string         `json:"type"`
					Text  string         `json:"text"`
					ID    string         `json:"id"`
					Name  string         `json:"name"`
					Input jsontext.Value `json:"input"`
				} `json:"content"`
			}
			if err := json.UnmarshalRead(resp.Body, &m); err != nil {
				t.Fatal(err)
			}
			got := result{StopReason: m.StopReason}
			for _, c := range m.Content {
				got.Blocks = append(got.Blocks, block{Type: c.Type, Text: c.Text, ID: c.ID, Name: c.Name,
					Input: compact(t, string(c.Input))})
			}
			if m.Type != "message" || m.Role != "assistant" {
				t.Errorf("type %q role %q", m.Type, m.Role)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

// firstText returns the text of the first block of a JSON message answer.
func firstText(t *testing.T, resp *http.Response) string {
	t.Helper()
	var m struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.UnmarshalRead(resp.Body, &m); err != nil || len(m.Content) == 0 {
		t.Fatalf("decode answer: %v (%d blocks)", err, len(m.Content))
	}
	return m.Content[0].Text
}

func TestScriptAndSideQueries(t *testing.T) {
	srv := claudetest.NewModel(claudetest.TextReply("one"), claudetest.TextReply("two"))
	defer srv.Close()

	steps := []struct {
		tools bool
		want  string
	}{
		{tools: false, want: claudetest.SideText},
		{tools: true, want: "one"},
		{tools: false, want: claudetest.SideText},
		{tools: true, want: "two"},
		{tools: true, want: "done"},
	}
	for i, s := range steps {
		if got := firstText(t, post(t, srv.URL(), "/v1/messages?beta=true", body(false, s.tools))); got != s.want {
			t.Errorf("step %d: got %q, want %q", i, got, s.want)
		}
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("Requests: %d, want 3", n)
	}
	side := srv.SideRequests()
	if len(side) != 2 || side[1].Index != 1 {
		t.Errorf("SideRequests: %+v", side)
	}
	if srv.Remaining() != 0 {
		t.Errorf("Remaining = %d", srv.Remaining())
	}
	last, ok := srv.LastRequest()
	if !ok || last.Index != 2 || !cmp.Equal(last.Tools, []string{"Bash"}) {
		t.Errorf("LastRequest = %+v, %v", last, ok)
	}
}

func TestErrorReply(t *testing.T) {
	cases := []struct {
		status   int
		wantType string
	}{
		{400, "invalid_request_error"},
		{401, "authentication_error"},
		{429, "rate_limit_error"},
		{500, "api_error"},
		{529, "overloaded_error"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			srv := claudetest.NewModel(claudetest.ErrorReply(tc.status, "fake error"))
			defer srv.Close()
			resp := post(t, srv.URL(), "/v1/messages?beta=true", body(true, true))
			var e struct {
				Type  string `json:"type"`
				Error struct {
					Type    string `json:"type"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.UnmarshalRead(resp.Body, &e); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status || e.Type != "error" || e.Error.Type != tc.wantType || e.Error.Message != "fake error" {
				t.Errorf("got %d %+v", resp.StatusCode, e)
			}
		})
	}
}

func TestOtherRoutes(t *testing.T) {
	srv := claudetest.NewModel()
	defer srv.Close()

	resp := post(t, srv.URL(), "/v1/messages/count_tokens?beta=true", body(false, true))
	var ct struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.UnmarshalRead(resp.Body, &ct); err != nil || resp.StatusCode != 200 || ct.InputTokens <= 0 {
		t.Errorf("count_tokens: %d %+v %v", resp.StatusCode, ct, err)
	}
	if resp := post(t, srv.URL(), "/v1/models", nil); resp.StatusCode != 404 {
		t.Errorf("unknown path: status %d", resp.StatusCode)
	}
	want := []string{"POST /v1/messages/count_tokens?beta=true", "POST /v1/models"}
	if diff := cmp.Diff(want, srv.Paths()); diff != "" {
		t.Errorf("Paths (-want +got):\n%s", diff)
	}
	if len(srv.Requests())+len(srv.SideRequests()) != 0 {
		t.Error("non-message requests were recorded as messages")
	}
}

func TestHandlerSeesToolResult(t *testing.T) {
	srv := claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply {
		if tr, ok := r.LastToolResult(); ok {
			return claudetest.TextReply("tool said " + tr.ContentText())
		}
		return claudetest.ToolReply("toolu_01", "Bash", map[string]string{"command": "echo hi"})
	})
	defer srv.Close()

	first := post(t, srv.URL(), "/v1/messages", body(false, true))
	var m struct {
		Content []struct {
			Type string `json:"type"`
		} `json:"content"`
	}
	if err := json.UnmarshalRead(first.Body, &m); err != nil || len(m.Content) != 1 || m.Content[0].Type != "tool_use" {
		t.Fatalf("first answer: %+v %v", m, err)
	}
	second := post(t, srv.URL(), "/v1/messages", body(false, true,
		map[string]any{"role": "user", "content": "run it"},
		map[string]any{"role": "assistant", "content": []any{map[string]any{
			"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": map[string]any{"command": "echo hi"}}}},
		map[string]any{"role": "user", "content": []any{map[string]any{
			"type": "tool_result", "tool_use_id": "toolu_01",
			"content": []any{map[string]any{"type": "text", "text": "hi"}}}}},
	))
	if got := firstText(t, second); got != "tool said hi" {
		t.Errorf("second answer %q", got)
	}
}

func TestConcurrentScript(t *testing.T) {
	const n = 20
	var replies []claudetest.Reply
	for i := range n {
		replies = append(replies, claudetest.TextReply(fmt.Sprint("r", i)))
	}
	srv := claudetest.NewModel(replies...)
	defer srv.Close()

	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			// No t.Fatal off the test goroutine: errors become entries.
			text := "error"
			resp, err := http.Post(srv.URL()+"/v1/messages", "application/json",
				strings.NewReader(`{"model":"m","tools":[{"name":"Bash"}],"messages":[]}`))
			if err == nil {
				var m struct {
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
				}
				if json.UnmarshalRead(resp.Body, &m) == nil && len(m.Content) == 1 {
					text = m.Content[0].Text
				}
				resp.Body.Close()
			}
			mu.Lock()
			got = append(got, text)
			mu.Unlock()
			_ = srv.Requests()
		})
	}
	wg.Wait()
	var want []string
	for i := range n {
		want = append(want, fmt.Sprint("r", i))
	}
	sort.Strings(got)
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("each reply must be used once (-want +got):\n%s", diff)
	}
}

func TestRepeat(t *testing.T) {
	srv := claudetest.NewModel(append(claudetest.Repeat(2, claudetest.ErrorReply(400, "x")), claudetest.TextReply("ok"))...)
	defer srv.Close()
	for i, want := range []int{400, 400, 200} {
		if resp := post(t, srv.URL(), "/v1/messages", body(false, true)); resp.StatusCode != want {
			t.Errorf("request %d: status %d, want %d", i, resp.StatusCode, want)
		}
	}
}

func TestSideHandlerAnswersSideQueries(t *testing.T) {
	srv := claudetest.NewModel(claudetest.TextReply("main"))
	defer srv.Close()
	srv.SetSideHandler(func(r claudetest.Request) claudetest.Reply { return claudetest.TextReply(`{"ok":false,"reason":"no"}`) })
	if got := firstText(t, post(t, srv.URL(), "/v1/messages", body(false, false))); got != `{"ok":false,"reason":"no"}` {
		t.Errorf("side answer = %q", got)
	}
	if got := firstText(t, post(t, srv.URL(), "/v1/messages", body(false, true))); got != "main" {
		t.Errorf("main answer = %q, want the script's", got)
	}
}
