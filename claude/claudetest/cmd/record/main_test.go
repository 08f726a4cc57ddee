package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// TestMain runs the command itself when the test binary is started with RECORD_TEST_MAIN=1 (by
// TestRecordSavesOnSignal), so that a real signal reaches main.
func TestMain(m *testing.M) {
	if os.Getenv("RECORD_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// upstreamScript is what the Model standing in for the API answers (usage given, so that the
// recorded replies are exactly these).
var upstreamScript = []claudetest.Reply{
	{Text: "Listing.", ToolUses: []claudetest.ToolUse{{ID: "toolu_01", Name: "Bash", Input: map[string]any{"command": "ls"}}}, InputTokens: 10, OutputTokens: 5},
	claudetest.RateLimitReply(0),
	{Text: "Done.", InputTokens: 20, OutputTokens: 3},
}

// want returns the first n replies of upstreamScript as a script file loads them (a tool input is
// a jsontext.Value).
func want(n int) []claudetest.Reply {
	r := append([]claudetest.Reply(nil), upstreamScript[:n]...)
	r[0].ToolUses = []claudetest.ToolUse{{ID: "toolu_01", Name: "Bash", Input: jsontext.Value(`{"command":"ls"}`)}}
	return r
}

// send posts a streamed Messages API request to baseURL, a main-loop one when tools is set, and
// reads the answer to its end.
func send(t *testing.T, baseURL string, tools bool) {
	t.Helper()
	req := map[string]any{"model": "claude-test", "max_tokens": 100, "stream": true,
		"messages": []any{map[string]any{"role": "user", "content": "hi"}}}
	if tools {
		req["tools"] = []any{map[string]any{"name": "Bash", "input_schema": map[string]any{}}}
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(baseURL+"/v1/messages?beta=true", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
}

// baseURL reads the command's first line and returns the URL it exports.
func baseURL(t *testing.T, stdout io.Reader) string {
	t.Helper()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the command's first line %q: %v", line, err)
	}
	u, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "ANTHROPIC_BASE_URL=http://127.0.0.1:")
	if !ok {
		t.Fatalf("first line %q, want ANTHROPIC_BASE_URL=http://127.0.0.1:PORT", line)
	}
	return "http://127.0.0.1:" + u
}

// The command records the main-loop answers that pass through it (side queries do not count) and
// saves them when -n answers have ended, or when it is interrupted (its context ends) first.
func TestRecord(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n         string // the -n flag; "" for none
		answers   int    // main-loop requests sent
		interrupt bool   // end the context after them
	}{
		{name: "-n reached", n: "3", answers: 3},
		{name: "interrupted", answers: 2, interrupt: true},
		{name: "interrupted before -n", n: "3", answers: 1, interrupt: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := claudetest.NewModel(upstreamScript...)
			defer model.Close()
			out := filepath.Join(t.TempDir(), "incident.json")
			args := []string{"-o", out, "-upstream", model.URL()}
			if tc.n != "" {
				args = append(args, "-n", tc.n)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			pr, pw := io.Pipe()
			var stderr bytes.Buffer
			code := make(chan int, 1)
			go func() { code <- run(ctx, args, pw, &stderr) }()

			u := baseURL(t, pr)
			for i := range tc.answers {
				send(t, u, true)
				if i == 0 {
					send(t, u, false) // a side query
				}
			}
			if tc.interrupt {
				cancel()
			}
			if c := <-code; c != 0 {
				t.Fatalf("exit code %d, stderr:\n%s", c, &stderr)
			}
			got, err := claudetest.LoadScript(out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want(tc.answers), got); diff != "" {
				t.Errorf("script (-want +got):\n%s", diff)
			}
			if len(model.SideRequests()) != 1 {
				t.Errorf("the upstream got %d side queries, want 1", len(model.SideRequests()))
			}
		})
	}
}

// Usage errors exit 2 before anything is recorded.
func TestRecordUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no -o", nil, "usage: record -o FILE"},
		{"-o in a missing directory", []string{"-o", filepath.Join(t.TempDir(), "no", "x.json")}, "does not exist"},
		{"negative -n", []string{"-o", "x.json", "-n", "-1"}, "usage: record -o FILE"},
		{"bad upstream", []string{"-o", "x.json", "-upstream", "ftp://example.com"}, "not an http(s) base URL"},
		{"unknown flag", []string{"-x"}, "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if c := run(context.Background(), tc.args, &stdout, &stderr); c != 2 || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q", c, &stdout, &stderr, tc.want)
			}
		})
	}
}
