package temporalagent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// effectsTool is the crash tests' in-process tool (effectsServer), as the model names it.
const effectsTool = "mcp__effects__apply"

type effectIn struct {
	Letter string `json:"letter" jsonschema:"the letter to log"`
}

// effectsServer is a worker's in-process server "effects": its tool apply appends its letter to
// ran.log in the project once per idempotency key (Activities.IdempotencyKey; applied.log keeps
// the keys applied), as a payment API would with its idempotency key, and logs every call, with
// its key, to calls.log. For B it then waits 3 s, so that a kill lands mid-call, after the side
// effect. acts is the worker's activities, set once made.
func effectsServer(project string, acts **temporalagent.Activities) *mcp.Server {
	var mu sync.Mutex // one worker's calls; workers of one test do not overlap
	srv := mcp.NewServer(&mcp.Implementation{Name: "effects", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "apply", Description: "log a letter"}, func(ctx context.Context, req *mcp.CallToolRequest, in effectIn) (*mcp.CallToolResult, any, error) {
		key, ok := (*acts).IdempotencyKey(mcptools.ToolUseID(req))
		if !ok {
			return nil, nil, errors.New("apply: no idempotency key for this call")
		}
		mu.Lock()
		applied, err := applyOnce(project, key, in.Letter)
		mu.Unlock()
		if err != nil {
			return nil, nil, err
		}
		if applied && in.Letter == "B" {
			select {
			case <-time.After(3 * time.Second):
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		}
		if !applied {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Letter + " was applied already"}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Letter + " applied"}}}, nil, nil
	})
	return srv
}

// applyOnce logs the call, and appends letter to ran.log unless applied.log has key.
func applyOnce(project, key, letter string) (applied bool, err error) {
	if err := appendLine(filepath.Join(project, "calls.log"), letter+" "+key); err != nil {
		return false, err
	}
	b, err := os.ReadFile(filepath.Join(project, "applied.log"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	if slices.Contains(strings.Split(string(b), "\n"), key) {
		return false, nil
	}
	if err := appendLine(filepath.Join(project, "applied.log"), key); err != nil {
		return false, err
	}
	return true, appendLine(filepath.Join(project, "ran.log"), letter)
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(f, line); err != nil {
		f.Close()
		return err
	}
	return f.Sync()
}

// checkKeys checks, for a crash test of the in-process tool, that the call in flight was asked
// for twice (by the dead worker's CLI and by the retry's, under another tool_use id) with one
// idempotency key, so that its effect (checkSideEffects) was applied once; and that every other
// call had a key of its own.
func checkKeys(t *testing.T, cp crashPoint, path string) {
	t.Helper()
	b, _ := os.ReadFile(path)
	keys := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if letter, key, ok := strings.Cut(line, " "); ok {
			keys[letter] = append(keys[letter], key)
		}
	}
	seen := map[string]string{}
	for letter, ks := range keys {
		want := 1
		if letter == cp.calledTwice {
			want = 2
		}
		if len(ks) != want || len(slices.Compact(slices.Clone(ks))) != 1 {
			t.Errorf("call %s reached the tool with keys %q, want %d call(s) with one key (calls.log: %q)", letter, ks, want, b)
		}
		if other, ok := seen[ks[0]]; ok {
			t.Errorf("calls %s and %s have the same key %q", other, letter, ks[0])
		}
		seen[ks[0]] = letter
	}
	if cp.calledTwice != "" && len(keys[cp.calledTwice]) != 2 {
		t.Errorf("the retry did not ask for call %s again (calls.log: %q): the test did not exercise its key", cp.calledTwice, b)
	}
}
