package claudetest_test

// The raw CLI protocol against the Model, without the SDK: what the SDK relies on.

import (
	"bufio"
	"bytes"
	"context"

	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// rawLine is one decoded stdout line of the CLI.
type rawLine struct {
	Type      string         `json:"type"`
	Subtype   string         `json:"subtype"`
	IsError   bool           `json:"is_error"`
	RequestID string         `json:"request_id"`
	Request   jsontext.Value `json:"request"`
	Raw       []byte         `json:"-"`
}

// rawProc is a running CLI with NDJSON on stdin and stdout.
type rawProc struct {
	t      *testing.T
	ctx    context.Context
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan rawLine
	stderr bytes.Buffer
}

// startRawCLI runs the real CLI in a temp project dir with a scratch HOME,
// pointed at srv. Everything is bounded by a 60 s context.
func startRawCLI(t *testing.T, srv *claudetest.Model, project string) *rawProc {
	t.Helper()
	bin := claudetest.RequireCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	p := &rawProc{t: t, ctx: ctx, lines: make(chan rawLine, 64)}
	p.cmd = exec.CommandContext(ctx, bin, "--output-format", "stream-json", "--verbose",
		"--input-format", "stream-json", "--allowedTools", "Bash,Read,Write")
	p.cmd.Dir = project
	p.cmd.Env = claudetest.CLIEnv(t.TempDir(), srv.URL())
	p.cmd.Stderr = &p.stderr
	p.cmd.WaitDelay = 5 * time.Second
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go p.read(stdout)
	return p
}

// read decodes stdout lines until EOF, then closes p.lines.
func (p *rawProc) read(r io.Reader) {
	defer close(p.lines)
	br := bufio.NewReader(r)
	for {
		b, err := br.ReadBytes('\n')
		if b = bytes.TrimSpace(b); len(b) > 0 {
			var l rawLine
			if json.Unmarshal(b, &l) != nil {
				l.Type = "non-json"
			}
			l.Raw = b
			select {
			case p.lines <- l:
			case <-p.ctx.Done():
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// send writes v as one JSON line on stdin.
func (p *rawProc) send(v any) {
	p.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		p.t.Fatalf("write stdin: %v", err)
	}
}

// next returns the next stdout line; it fails the test on EOF or timeout.
func (p *rawProc) next() rawLine {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("CLI stdout closed before a result; stderr:\n%s", p.stderr.String())
		}
		return l
	case <-p.ctx.Done():
		p.t.Fatalf("timeout waiting for the CLI: %v", p.ctx.Err())
	}
	return rawLine{}
}

// finish closes stdin and waits for a clean exit.
func (p *rawProc) finish() {
	p.t.Helper()
	p.stdin.Close()
	for range p.lines {
	}
	if err := p.cmd.Wait(); err != nil {
		p.t.Fatalf("CLI exit: %v; stderr:\n%s", err, p.stderr.String())
	}
}

func rawUserMessage(text string) map[string]any {
	return map[string]any{
		"type":               "user",
		"message":            map[string]any{"role": "user", "content": text},
		"parent_tool_use_id": nil,
		"session_id":         "default",
	}
}

func logRawModel(t *testing.T, srv *claudetest.Model) {
	t.Helper()
	t.Logf("HTTP requests: %q", srv.Paths())
	for _, r := range srv.SideRequests() {
		t.Logf("side query %d: system=%.80q", r.Index, r.System)
	}
}

func TestRawCLIBashToolRuns(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	marker := filepath.Join(project, "ran.txt")
	srv := claudetest.NewModel(
		claudetest.ToolReply("toolu_01", "Bash", map[string]string{
			"command": "touch " + marker + " && echo hi", "description": "probe"}),
		claudetest.TextReply("done"),
	)
	defer srv.Close()

	p := startRawCLI(t, srv, project)
	p.send(rawUserMessage("run echo"))
	var result rawLine
	for result.Type != "result" {
		result = p.next()
	}
	p.finish()
	logRawModel(t, srv)

	if result.Subtype != "success" || result.IsError {
		t.Errorf("result = %s, want success", result.Raw)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the Bash tool did not run: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("got %d main-loop requests, want 2", len(reqs))
	}
	tr, ok := reqs[1].LastToolResult()
	if !ok || tr.ToolUseID != "toolu_01" || !strings.Contains(tr.ContentText(), "hi") {
		t.Errorf("second request tool_result = %+v (text %q), want toolu_01 with \"hi\"", tr, tr.ContentText())
	}
}

func TestRawCLIPreToolUseHookDenies(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	marker := filepath.Join(project, "ran.txt")
	srv := claudetest.NewModel(
		claudetest.ToolReply("toolu_01", "Bash", map[string]string{
			"command": "touch " + marker + " && echo hi", "description": "probe"}),
		claudetest.TextReply("done"),
	)
	defer srv.Close()

	p := startRawCLI(t, srv, project)
	p.send(map[string]any{
		"type": "control_request", "request_id": "init_1",
		"request": map[string]any{"subtype": "initialize", "hooks": map[string]any{
			"PreToolUse": []any{map[string]any{"matcher": "Bash", "hookCallbackIds": []string{"h0"}, "timeout": 30}},
		}},
	})
	p.send(rawUserMessage("run echo"))

	var result rawLine
	initOK, hooked := false, 0
	for result.Type != "result" {
		l := p.next()
		switch l.Type {
		case "result":
			result = l
		case "control_response":
			var r struct {
				Response struct {
					Subtype   string `json:"subtype"`
					RequestID string `json:"request_id"`
				} `json:"response"`
			}
			if err := json.Unmarshal(l.Raw, &r); err != nil || r.Response.RequestID != "init_1" || r.Response.Subtype != "success" {
				t.Fatalf("initialize answer: %s", l.Raw)
			}
			initOK = true
		case "control_request":
			var req struct {
				Subtype    string `json:"subtype"`
				CallbackID string `json:"callback_id"`
				Input      struct {
					HookEventName string `json:"hook_event_name"`
					ToolName      string `json:"tool_name"`
				} `json:"input"`
			}
			if err := json.Unmarshal(l.Request, &req); err != nil {
				t.Fatal(err)
			}
			if req.Subtype != "hook_callback" || req.CallbackID != "h0" || req.Input.HookEventName != "PreToolUse" || req.Input.ToolName != "Bash" {
				t.Fatalf("unexpected control_request: %s", l.Raw)
			}
			hooked++
			p.send(map[string]any{"type": "control_response", "response": map[string]any{
				"subtype": "success", "request_id": l.RequestID,
				"response": map[string]any{"hookSpecificOutput": map[string]any{
					"hookEventName":            "PreToolUse",
					"permissionDecision":       "deny",
					"permissionDecisionReason": "blocked by test",
				}},
			}})
		}
	}
	p.finish()
	logRawModel(t, srv)

	if !initOK || hooked != 1 {
		t.Errorf("initialize answered = %v, hook callbacks = %d, want true, 1", initOK, hooked)
	}
	if result.Subtype != "success" || result.IsError {
		t.Errorf("result = %s, want success", result.Raw)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the denied Bash tool ran (stat err %v)", err)
	}
	reqs := srv.Requests()
	if len(reqs) < 2 || !reqs[1].Contains("blocked by test") {
		t.Fatalf("second main-loop request does not carry the deny reason (%d requests)", len(reqs))
	}
	tr, _ := reqs[1].LastToolResult()
	if tr.ToolUseID != "toolu_01" || !tr.IsError || !strings.Contains(tr.ContentText(), "blocked by test") {
		t.Errorf("tool_result = %+v (text %q), want an is_error result for toolu_01 with the reason", tr, tr.ContentText())
	}
}
