package claudetest_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// canned is an upstream answer, served gzip-compressed when the request accepts it (as the real API
// does).
type canned struct {
	status int
	header map[string]string
	body   string
}

func (c canned) serve(w http.ResponseWriter, r *http.Request) {
	for k, v := range c.header {
		w.Header().Set(k, v)
	}
	if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.WriteHeader(c.status)
		io.WriteString(w, c.body)
		return
	}
	w.Header().Set("Content-Encoding", "gzip")
	w.WriteHeader(c.status)
	gz := gzip.NewWriter(w)
	io.WriteString(gz, c.body)
	gz.Close()
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The Recorder passes each answer through unchanged and decodes it into a Reply: a stream as the
// real API sends it (a thinking block, which is skipped; text in pieces; tool_use inputs in
// input_json_delta pieces, the first one empty; usage with cache figures in message_start and
// message_delta), an error event inside a stream, an HTTP error with retry-after, a JSON message.
// A stream cut short is not recorded and the error says so.
func TestRecorderDecodes(t *testing.T) {
	sse := map[string]string{"Content-Type": "text/event-stream; charset=utf-8"}
	for _, tc := range []struct {
		name    string
		answer  canned
		want    []claudetest.Reply
		wantErr string
	}{
		{
			name:   "stream as the API sends it",
			answer: canned{200, sse, readFile(t, "testdata/api_stream.sse")},
			want: []claudetest.Reply{{
				Text: "I'll list the files — 😀.",
				ToolUses: []claudetest.ToolUse{
					{ID: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", Name: "Bash", Input: jsontext.Value(`{"command": "ls -la", "description": "List files"}`)},
					{ID: "toolu_01Ab", Name: "TaskList", Input: jsontext.Value(`{}`)},
				},
				InputTokens: 472, OutputTokens: 89, CacheCreationInputTokens: 12, CacheReadInputTokens: 3000,
			}},
		},
		{
			name: "error event in a stream",
			answer: canned{200, sse, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n" +
				"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"},
			want: []claudetest.Reply{claudetest.ErrorReply(529, "Overloaded")},
		},
		{
			name: "HTTP 429 with retry-after",
			answer: canned{429, map[string]string{"Content-Type": "application/json", "retry-after": "2"},
				`{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"},"request_id":"req_011"}`},
			want: []claudetest.Reply{{Status: 429, ErrorMessage: "Number of request tokens has exceeded your per-minute rate limit", RetryAfter: 2 * time.Second}},
		},
		{
			name: "JSON message",
			answer: canned{200, map[string]string{"Content-Type": "application/json"},
				`{"id":"msg_2","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi."},{"type":"tool_use","id":"toolu_9","name":"Read","input":{"file_path":"/a"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":20}}`},
			want: []claudetest.Reply{{Text: "Hi.", ToolUses: []claudetest.ToolUse{{ID: "toolu_9", Name: "Read", Input: jsontext.Value(`{"file_path":"/a"}`)}},
				InputTokens: 10, OutputTokens: 20}},
		},
		{
			name:    "stream cut short",
			answer:  canned{200, sse, strings.Split(readFile(t, "testdata/api_stream.sse"), "event: message_delta")[0]},
			wantErr: "main-loop answer 0 not recorded: the stream ended before message_stop",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := httptest.NewServer(http.HandlerFunc(tc.answer.serve))
			defer up.Close()
			rec, err := claudetest.NewRecorder(up.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer rec.Close()
			resp := post(t, rec.URL(), "/v1/messages?beta=true", body(true, true))
			got, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.answer.status || string(got) != tc.answer.body {
				t.Errorf("the client got %d %q, want the upstream's answer %d %q", resp.StatusCode, got, tc.answer.status, tc.answer.body)
			}
			replies, err := rec.Replies()
			if diff := cmp.Diff(tc.want, replies); diff != "" {
				t.Errorf("recorded replies (-want +got):\n%s", diff)
			}
			if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("Replies error %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// Side queries and other paths pass through unrecorded; the request reaches the upstream with its
// headers (the API key) and body unchanged, and the saved script holds no header. A recorded
// script makes a Model answer like the upstream.
func TestRecorderPassesThrough(t *testing.T) {
	up := claudetest.NewModel(claudetest.ToolReply("toolu_1", "Bash", map[string]string{"command": "ls"}), claudetest.TextReply("listed"))
	defer up.Close()
	rec, err := claudetest.NewRecorder(up.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	send := func(path string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequest(http.MethodPost, rec.URL()+path, bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("x-api-key", "sk-ant-secret-key")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	send("/v1/messages?beta=true", body(true, true))
	send("/v1/messages?beta=true", body(true, false)) // a side query
	send("/v1/messages/count_tokens?beta=true", body(false, true))
	send("/v1/messages?beta=true", body(false, true))

	wantPaths := []string{"POST /v1/messages?beta=true", "POST /v1/messages?beta=true", "POST /v1/messages/count_tokens?beta=true", "POST /v1/messages?beta=true"}
	if diff := cmp.Diff(wantPaths, up.Paths()); diff != "" {
		t.Errorf("upstream paths (-want +got):\n%s", diff)
	}
	for _, r := range append(up.Requests(), up.SideRequests()...) {
		if r.Header.Get("x-api-key") != "sk-ant-secret-key" {
			t.Errorf("request %d reached the upstream with x-api-key %q", r.Index, r.Header.Get("x-api-key"))
		}
	}
	if n := len(up.SideRequests()); n != 1 {
		t.Errorf("upstream side queries: %d, want 1", n)
	}

	name := filepath.Join(t.TempDir(), "rec.json")
	if err := rec.Save(name); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(readFile(t, name), "sk-ant") {
		t.Errorf("the script holds the API key:\n%s", readFile(t, name))
	}
	replies, err := claudetest.LoadScript(name)
	if err != nil {
		t.Fatal(err)
	}
	type shape struct {
		Text  string
		Tools []string
	}
	var got []shape
	for _, r := range replies {
		s := shape{Text: r.Text}
		for _, tu := range r.ToolUses {
			s.Tools = append(s.Tools, tu.ID+" "+tu.Name+" "+string(tu.Input.(jsontext.Value)))
		}
		got = append(got, s)
	}
	want := []shape{{Tools: []string{`toolu_1 Bash {"command":"ls"}`}}, {Text: "listed"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("recorded main-loop replies (-want +got):\n%s", diff)
	}
}

// NewRecorder rejects an upstream that is not an http(s) base URL.
func TestNewRecorderUpstream(t *testing.T) {
	for _, u := range []string{"api.anthropic.com", "ftp://x", "http://", ":"} {
		if rec, err := claudetest.NewRecorder(u); err == nil {
			rec.Close()
			t.Errorf("NewRecorder(%q) accepted", u)
		}
	}
	rec, err := claudetest.NewRecorder("")
	if err != nil {
		t.Fatalf("NewRecorder(\"\"): %v", err)
	}
	rec.Close()
}

// Wait returns once n main-loop answers have ended; side queries do not count, and a ctx that ends
// first is Wait's error.
func TestRecorderWait(t *testing.T) {
	up := claudetest.NewModel(claudetest.TextReply("one"), claudetest.TextReply("two"))
	defer up.Close()
	rec, err := claudetest.NewRecorder(up.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	send := func(tools bool) {
		resp := post(t, rec.URL(), "/v1/messages?beta=true", body(true, tools))
		io.Copy(io.Discard, resp.Body) // the answer has ended when its stream has
	}
	ended := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx
	}()
	send(true)
	send(false) // a side query
	if err := rec.Wait(context.Background(), 1); err != nil {
		t.Errorf("Wait(1) after one answer: %v", err)
	}
	if err := rec.Wait(ended, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait(2) after one answer and a side query = %v, want context.Canceled", err)
	}
	done := make(chan error, 1)
	go func() { done <- rec.Wait(context.Background(), 2) }()
	send(true)
	if err := <-done; err != nil {
		t.Errorf("Wait(2) after two answers: %v", err)
	}
	replies, err := rec.Replies()
	if diff := cmp.Diff([]claudetest.Reply{{Text: "one"}, {Text: "two"}}, replies, cmpopts.IgnoreFields(claudetest.Reply{}, "InputTokens", "OutputTokens")); diff != "" || err != nil {
		t.Errorf("Replies (-want +got):\n%s (err %v)", diff, err)
	}
}
