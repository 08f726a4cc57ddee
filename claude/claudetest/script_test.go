package claudetest_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// A script saved and loaded again gives the same replies, compact tool inputs byte for byte; the file is
// indented JSON with the documented member names.
func TestScriptRoundTrip(t *testing.T) {
	replies := []claudetest.Reply{
		{Text: "Listing.", ToolUses: []claudetest.ToolUse{
			{ID: "toolu_01", Name: "Bash", Input: jsontext.Value(`{"command":"ls -la","description":"list é"}`)},
			{ID: "toolu_02", Name: "TaskStop"},
		}, InputTokens: 1200, OutputTokens: 40, CacheCreationInputTokens: 7, CacheReadInputTokens: 9000},
		claudetest.ErrorReply(529, "Overloaded"),
		claudetest.RateLimitReply(1500 * time.Millisecond),
		claudetest.TextReply("All done."),
	}
	name := filepath.Join(t.TempDir(), "script.json")
	if err := claudetest.SaveScript(name, replies); err != nil {
		t.Fatal(err)
	}
	got, err := claudetest.LoadScript(name)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(replies, got); diff != "" {
		t.Errorf("loaded replies (-saved +loaded):\n%s", diff)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, member := range []string{`"replies": [`, `"tool_uses": [`, `"input": {`, `"status": 529`,
		`"error_message": "Overloaded"`, `"retry_after": "1.5s"`, `"cache_read_input_tokens": 9000`} {
		if !strings.Contains(string(b), member) {
			t.Errorf("script file lacks %s:\n%s", member, b)
		}
	}
}

// The documented example of LoadScript's doc comment, as a file in testdata, loads to these
// replies.
func TestLoadScriptTestdata(t *testing.T) {
	got, err := claudetest.LoadScript("testdata/example_script.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []claudetest.Reply{
		{Text: "Listing.", ToolUses: []claudetest.ToolUse{{ID: "toolu_01", Name: "Bash", Input: jsontext.Value(`{"command":"ls"}`)}},
			InputTokens: 1200, OutputTokens: 40},
		{Status: 529, ErrorMessage: "Overloaded"},
		{Status: 429, ErrorMessage: "Slow down.", RetryAfter: time.Second},
		{Text: "All done."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replies (-want +got):\n%s", diff)
	}
}

// A malformed script file is an error that names the file, not a silently different script.
func TestLoadScriptRejects(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"not JSON", `{"replies": [`, "script"},
		{"unknown member", `{"replies": [{"txt": "hi"}]}`, `txt`},
		{"unknown tool use member", `{"replies": [{"tool_uses": [{"id": "a", "name": "Bash", "inptu": {}}]}]}`, `inptu`},
		{"duplicate key", `{"replies": [{"text": "a", "text": "b"}]}`, `duplicate`},
		{"bad status", `{"replies": [{"status": 200}]}`, "status 200"},
		{"no replies", `{}`, `no "replies"`},
		{"bad duration", `{"replies": [{"status": 429, "retry_after": 5}]}`, "retry_after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "bad.json")
			if err := os.WriteFile(name, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := claudetest.LoadScript(name)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "claudetest: ") {
				t.Errorf("LoadScript(%s) error %v, want one containing %q", tc.text, err, tc.want)
			}
		})
	}
	if _, err := claudetest.LoadScript(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

// ErrorReply(529, ...) and RateLimitReply answer as the API does: status, error type and the
// retry-after headers the CLI reads (retry-after-ms first, then retry-after in seconds).
func TestNamedErrorReplies(t *testing.T) {
	for _, tc := range []struct {
		name                string
		reply               claudetest.Reply
		status              int
		errType             string
		retryAfter, retryMS string
	}{
		{"overloaded", claudetest.ErrorReply(529, "Overloaded"), 529, "overloaded_error", "", ""},
		{"rate limit, no wait", claudetest.RateLimitReply(0), 429, "rate_limit_error", "", ""},
		{"rate limit, 1.5s", claudetest.RateLimitReply(1500 * time.Millisecond), 429, "rate_limit_error", "2", "1500"},
		{"rate limit, 3s", claudetest.RateLimitReply(3 * time.Second), 429, "rate_limit_error", "3", "3000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := claudetest.NewModel(tc.reply)
			defer srv.Close()
			resp := post(t, srv.URL(), "/v1/messages?beta=true", body(true, true))
			var e struct {
				Type  string `json:"type"`
				Error struct {
					Type string `json:"type"`
				} `json:"error"`
			}
			if err := json.UnmarshalRead(resp.Body, &e); err != nil {
				t.Fatal(err)
			}
			type answer struct {
				Status                     int
				Type, ErrType, After, AfMS string
			}
			want := answer{tc.status, "error", tc.errType, tc.retryAfter, tc.retryMS}
			got := answer{resp.StatusCode, e.Type, e.Error.Type, resp.Header.Get("retry-after"), resp.Header.Get("retry-after-ms")}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}
