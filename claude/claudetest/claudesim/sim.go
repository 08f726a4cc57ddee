package claudesim

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Main runs the simulator in this process and returns its exit code: it reads the CLI's flags
// from os.Args, speaks stream-json on os.Stdin and os.Stdout until stdin ends, and asks the
// Messages API at $ANTHROPIC_BASE_URL (default https://api.anthropic.com) what to do. A command's
// main is os.Exit(claudesim.Main()); tests use Init and Path instead.
func Main() int {
	sim := &simulator{
		out:     jsontext.NewEncoder(os.Stdout),
		pending: map[string]chan jsontext.Value{},
		hooks:   map[string][]simMatcher{},
		session: "sim-" + simID(),
	}
	for i, a := range os.Args {
		// The SDK passes values as --flag=value; the separate form is read too.
		name, value, joined := strings.Cut(a, "=")
		if !joined && i+1 < len(os.Args) {
			value = os.Args[i+1]
		}
		switch name {
		case "--version", "-v":
			fmt.Println("2.1.330 (Claude Code simulator)")
			return 0
		case "--session-id":
			if value != "" {
				sim.session = value
			}
		case "--model":
			sim.model = value
		case "--system-prompt", "--append-system-prompt":
			sim.system += value + "\n"
		}
	}
	sim.cwd, _ = os.Getwd()
	prompts := make(chan string, 16)
	var turns sync.WaitGroup
	turns.Add(1)
	go func() { // the turn worker: one prompt at a time, like the CLI.
		defer turns.Done()
		for p := range prompts {
			sim.turn(p)
		}
	}()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if code := sim.handle(line, prompts); code >= 0 {
				return code
			}
		}
		if err != nil {
			break
		}
	}
	close(prompts)
	turns.Wait()
	return 0
}

type simMatcher struct {
	Matcher string   `json:"matcher"`
	IDs     []string `json:"hookCallbackIds"`
	Timeout float64  `json:"timeout"`
}

type simulator struct {
	omu     sync.Mutex
	out     *jsontext.Encoder
	mu      sync.Mutex
	pending map[string]chan jsontext.Value
	hooks   map[string][]simMatcher
	session string
	model   string
	system  string
	cwd     string
	history []map[string]any
}

func (s *simulator) send(v any) {
	s.omu.Lock()
	defer s.omu.Unlock()
	_ = json.MarshalEncode(s.out, v)
}

// handle processes one stdin line; it returns an exit code >= 0 to stop (a malformed line is
// fatal, as in the real CLI), else -1.
func (s *simulator) handle(line []byte, prompts chan<- string) int {
	var m struct {
		Type     string         `json:"type"`
		ID       string         `json:"request_id"`
		Request  jsontext.Value `json:"request"`
		Response struct {
			ID       string         `json:"request_id"`
			Subtype  string         `json:"subtype"`
			Response jsontext.Value `json:"response"`
		} `json:"response"`
		Message struct {
			Content jsontext.Value `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		fmt.Fprintf(os.Stderr, "Error parsing streaming input line: %v\n", err)
		return 1
	}
	switch m.Type {
	case "control_request":
		var req struct {
			Subtype string                  `json:"subtype"`
			Hooks   map[string][]simMatcher `json:"hooks"`
		}
		_ = json.Unmarshal(m.Request, &req)
		resp := map[string]any{}
		switch req.Subtype {
		case "initialize":
			s.mu.Lock()
			s.hooks = req.Hooks
			s.mu.Unlock()
			resp = map[string]any{"claude_code_version": "2.1.330", "hooks_applied": true, "hook_on_failure_supported": true, "simulator": true}
		case "get_hooks_listing":
			// No settings hooks: the simulator runs only the SDK's callbacks, which the CLI does
			// not list.
			resp = map[string]any{"hooks": []any{}, "policy": map[string]any{}}
		case "interrupt", "set_permission_mode", "set_model":
		default:
			s.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "error", "request_id": m.ID, "error": "Unsupported control request subtype: " + req.Subtype}})
			return -1
		}
		s.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success", "request_id": m.ID, "response": resp}})
	case "control_response":
		s.mu.Lock()
		ch := s.pending[m.Response.ID]
		delete(s.pending, m.Response.ID)
		s.mu.Unlock()
		if ch != nil {
			if m.Response.Subtype != "success" {
				ch <- nil
			} else {
				ch <- m.Response.Response
			}
		}
	case "user":
		var text string
		if json.Unmarshal(m.Message.Content, &text) != nil {
			text = string(m.Message.Content)
		}
		prompts <- text
	}
	return -1
}

// hook fires event with input if a matcher matches value; it returns the merged answers.
func (s *simulator) hook(event, value string, input map[string]any, toolUseID string) []map[string]any {
	s.mu.Lock()
	ms := s.hooks[event]
	s.mu.Unlock()
	input["session_id"], input["cwd"], input["hook_event_name"] = s.session, s.cwd, event
	input["transcript_path"], input["permission_mode"] = "", "default"
	var answers []map[string]any
	for _, m := range ms {
		if !cliMatch(m.Matcher, value) {
			continue
		}
		for _, id := range m.IDs {
			rid := simID()
			ch := make(chan jsontext.Value, 1)
			s.mu.Lock()
			s.pending[rid] = ch
			s.mu.Unlock()
			s.send(map[string]any{"type": "control_request", "request_id": rid, "request": map[string]any{
				"subtype": "hook_callback", "callback_id": id, "input": input, "tool_use_id": toolUseID}})
			timeout := time.Duration(m.Timeout * float64(time.Second))
			if timeout <= 0 {
				timeout = 600 * time.Second
			}
			var ans map[string]any
			select {
			case raw := <-ch:
				if json.Unmarshal(raw, &ans) != nil {
					ans = nil
					if event == "PreToolUse" || event == "UserPromptSubmit" {
						// Fail-closed: an error answer or one that does not decode blocks.
						ans = map[string]any{"decision": "block", "reason": event + " hook failed: the SDK answered with an error"}
					}
				}
			case <-time.After(timeout):
				s.send(map[string]any{"type": "control_cancel_request", "request_id": rid})
				ans = map[string]any{"decision": "block", "reason": event + " hook did not respond before its timeout"}
			}
			if ans != nil {
				answers = append(answers, ans)
			}
		}
	}
	return answers
}

// cliMatch is the CLI's matcher rule: plain names are an exact list, anything else an unanchored
// regular expression.
func cliMatch(m, v string) bool {
	if m == "" || m == "*" {
		return true
	}
	if regexp.MustCompile(`^[A-Za-z0-9_|, -]+$`).MatchString(m) {
		for _, n := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if strings.TrimSpace(n) == v {
				return true
			}
		}
		return false
	}
	re, err := regexp.Compile(m)
	return err == nil && re.MatchString(v)
}

// verdict reads a PreToolUse answer: deny reason (or ""), and a rewritten input.
func verdict(answers []map[string]any) (deny string, denied bool, updated map[string]any) {
	for _, a := range answers {
		if a["decision"] == "block" {
			r, _ := a["reason"].(string)
			return r, true, nil
		}
		if hs, ok := a["hookSpecificOutput"].(map[string]any); ok {
			if hs["permissionDecision"] == "deny" {
				r, _ := hs["permissionDecisionReason"].(string)
				return r, true, nil
			}
			if u, ok := hs["updatedInput"].(map[string]any); ok {
				updated = u
			}
		}
	}
	return "", false, updated
}

func (s *simulator) turn(prompt string) {
	if d, denied, _ := verdict(s.hook("UserPromptSubmit", "", map[string]any{"prompt": prompt}, simID())); denied {
		s.result("UserPromptSubmit operation blocked by hook:\n"+d, 0, false)
		return
	}
	s.send(map[string]any{"type": "system", "subtype": "init", "session_id": s.session, "cwd": s.cwd, "tools": []string{"Bash", "Read", "Write", "Edit"}, "model": s.model})
	s.history = append(s.history, map[string]any{"role": "user", "content": prompt})
	stopForced := false
	for turns := 1; turns <= 50; turns++ {
		raw, content, err := s.ask()
		if err != nil {
			s.result("API Error: "+err.Error(), turns, true)
			return
		}
		s.history = append(s.history, map[string]any{"role": "assistant", "content": raw})
		var results []map[string]any
		text := ""
		for i, b := range content {
			// The block as the model sent it, so that a tool input keeps its members' order.
			s.send(map[string]any{"type": "assistant", "session_id": s.session, "parent_tool_use_id": nil,
				"message": map[string]any{"role": "assistant", "content": []any{raw[i]}}})
			if b["type"] == "text" {
				text, _ = b["text"].(string)
			}
		}
		for _, b := range content {
			if b["type"] == "tool_use" {
				results = append(results, s.runTool(b))
			}
		}
		if len(results) > 0 {
			s.history = append(s.history, map[string]any{"role": "user", "content": results})
			continue
		}
		if d, denied, _ := verdict(s.hook("Stop", "", map[string]any{"stop_hook_active": stopForced, "last_assistant_message": text}, simID())); denied && !stopForced {
			stopForced = true
			s.history = append(s.history, map[string]any{"role": "user", "content": "Stop hook feedback:\n" + d})
			continue
		}
		s.result(text, turns, false)
		return
	}
	s.result("max turns", 50, true)
}

func (s *simulator) result(text string, turns int, isErr bool) {
	s.send(map[string]any{"type": "result", "subtype": "success", "is_error": isErr, "result": text, "num_turns": turns, "session_id": s.session, "terminal_reason": "completed"})
}

func (s *simulator) runTool(b map[string]any) map[string]any {
	id, _ := b["id"].(string)
	name, _ := b["name"].(string)
	input, _ := b["input"].(map[string]any)
	tr := map[string]any{"type": "tool_result", "tool_use_id": id}
	emit := func() map[string]any {
		s.send(map[string]any{"type": "user", "session_id": s.session, "parent_tool_use_id": nil,
			"message": map[string]any{"role": "user", "content": []any{tr}}})
		return tr
	}
	reason, denied, updated := verdict(s.hook("PreToolUse", name, map[string]any{"tool_name": name, "tool_input": input, "tool_use_id": id}, id))
	if denied {
		tr["content"], tr["is_error"] = fmt.Sprintf("PreToolUse:%s hook error: %s", name, reason), true
		return emit()
	}
	if updated != nil {
		input = updated
	}
	start := time.Now()
	out, err := s.execTool(name, input)
	dur := time.Since(start).Milliseconds()
	if err != nil {
		s.hook("PostToolUseFailure", name, map[string]any{"tool_name": name, "tool_input": input, "tool_use_id": id, "error": err.Error(), "duration_ms": dur}, id)
		tr["content"], tr["is_error"] = err.Error(), true
		return emit()
	}
	s.hook("PostToolUse", name, map[string]any{"tool_name": name, "tool_input": input, "tool_use_id": id, "tool_response": map[string]any{"stdout": out}, "duration_ms": dur}, id)
	tr["content"] = out
	return emit()
}

func (s *simulator) execTool(name string, in map[string]any) (string, error) {
	str := func(k string) string { v, _ := in[k].(string); return v }
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.cwd, p)
		}
		return p
	}
	switch name {
	case "Bash":
		out, err := exec.Command("sh", "-c", str("command")).CombinedOutput()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				//lint:ignore ST1005 the CLI's own words, which the model reads
				return "", fmt.Errorf("Exit code %d\n%s", ee.ExitCode(), out)
			}
			return "", err
		}
		return strings.TrimRight(string(out), "\n"), nil
	case "Read":
		b, err := os.ReadFile(abs(str("file_path")))
		return string(b), err
	case "Write":
		p := abs(str("file_path"))
		if err := os.WriteFile(p, []byte(str("content")), 0o644); err != nil {
			return "", err
		}
		return "File created successfully at: " + p, nil
	case "Edit":
		p := abs(str("file_path"))
		b, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		n := strings.Replace(string(b), str("old_string"), str("new_string"), 1)
		return "The file " + p + " has been updated.", os.WriteFile(p, []byte(n), 0o644)
	}
	//lint:ignore ST1005 the CLI's own words, which the model reads
	return "", fmt.Errorf("No such tool available: %s", name)
}

// ask sends the conversation to the Messages API and returns the answer's content blocks, as sent
// and decoded.
func (s *simulator) ask() ([]jsontext.Value, []map[string]any, error) {
	tools := []map[string]any{}
	for _, n := range []string{"Bash", "Read", "Write", "Edit"} {
		tools = append(tools, map[string]any{"name": n, "description": n, "input_schema": map[string]any{"type": "object"}})
	}
	model := s.model
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	body, _ := json.Marshal(map[string]any{"model": model, "max_tokens": 4096, "system": s.system, "messages": s.history, "tools": tools})
	base := strings.TrimRight(os.Getenv("ANTHROPIC_BASE_URL"), "/")
	if base == "" {
		base = "https://api.anthropic.com"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/messages", bytes.NewReader(body))
	req.Header.Set("content-type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	req.Header.Set("x-api-key", os.Getenv("ANTHROPIC_API_KEY"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("%d %s", resp.StatusCode, raw)
	}
	var m struct {
		Content []jsontext.Value `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, err
	}
	blocks := make([]map[string]any, len(m.Content))
	for i, b := range m.Content {
		if err := json.Unmarshal(b, &blocks[i]); err != nil {
			return nil, nil, err
		}
	}
	return m.Content, blocks, nil
}

func simID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%x", b)
}
