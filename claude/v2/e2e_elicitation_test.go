package v2_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// elicitServerEnv, when set, makes the test binary a stdio MCP server "asker" (go-sdk, stdio
// transport) whose one tool, ask, asks the user for a name (MCP elicitation, form mode) and
// returns what came back: "got:<name>" or "action:<action>", or "error:<err>".
const elicitServerEnv = "V2_TEST_ELICIT_SERVER"

func elicitMCPServer() int {
	if err := newAskServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// newAskServer returns the MCP server "asker" of elicitServerEnv.
func newAskServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, nil)
	// The tool asks the way MCP 2026-07-28 wants (the CLI 2.1.332 negotiates it): it returns an
	// input request, the client asks the user and calls again with the answer (SEP-2322); for an
	// older client the go-sdk elicits and calls again itself.
	srv.AddTool(&mcp.Tool{Name: "ask", Description: "asks the user", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"question": map[string]any{"type": "string"}}}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Question string `json:"question"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &in, json.RejectUnknownMembers(false))
			r, ok := req.Params.InputResponses["name"]
			if !ok {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"name": &mcp.ElicitParams{
					Message: in.Question,
					RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{
						"name": map[string]any{"type": "string", "description": "your name"},
					}, "required": []string{"name"}},
				}}}, nil
			}
			text := fmt.Sprintf("unexpected:%T", r)
			if res, ok := r.(*mcp.ElicitResult); ok {
				text = "action:" + res.Action
				if res.Action == "accept" {
					text = fmt.Sprintf("got:%v", res.Content["name"])
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
	return srv
}

// An MCP server (stdio, run by the CLI) asks the user for input while its tool runs: the CLI sends
// the SDK an elicitation request; WithElicitation's answer reaches the server (its tool result
// carries the name), and without the callback, or with one that does not answer in time or
// panics, the server gets a decline.
func TestRealCLI_Elicitation(t *testing.T) {
	t.Parallel()
	accept := func(got *[]v2.ElicitationRequest) v2.ElicitationFunc {
		return func(ctx context.Context, r *v2.ElicitationRequest) (v2.ElicitationResult, error) {
			*got = append(*got, *r)
			return v2.ElicitationResult{Action: v2.ElicitationAccept, Content: map[string]any{"name": "Ada"}}, nil
		}
	}
	timedOut := make(chan error, 1)
	cases := []struct {
		name string
		opts func(got *[]v2.ElicitationRequest) []v2.Option
		want string
	}{
		{"accept", func(got *[]v2.ElicitationRequest) []v2.Option {
			return []v2.Option{v2.WithElicitation(accept(got))}
		}, "got:Ada"},
		{"default_declines", func(*[]v2.ElicitationRequest) []v2.Option { return nil }, "action:decline"},
		{"timeout_declines", func(*[]v2.ElicitationRequest) []v2.Option {
			return []v2.Option{v2.WithUserInputTimeout(50 * time.Millisecond), v2.WithElicitation(func(ctx context.Context, r *v2.ElicitationRequest) (v2.ElicitationResult, error) {
				<-ctx.Done() // a person who never answers
				timedOut <- context.Cause(ctx)
				return v2.ElicitationResult{Action: v2.ElicitationAccept, Content: map[string]any{"name": "late"}}, nil
			})}
		}, "action:decline"},
		{"panic_declines", func(*[]v2.ElicitationRequest) []v2.Option {
			return []v2.Option{v2.WithElicitation(func(context.Context, *v2.ElicitationRequest) (v2.ElicitationResult, error) { panic("boom") })}
		}, "action:decline"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := newRealEnv(t, func(string) []claudetest.Reply {
				return []claudetest.Reply{
					claudetest.ToolReply("toolu_ask", "mcp__asker__ask", map[string]any{"question": "What is your name?"}),
					claudetest.TextReply("done"),
				}
			})
			var got []v2.ElicitationRequest
			opts := append([]v2.Option{
				v2.WithMCPStdioServer("asker", v2.MCPStdioServer{Command: os.Args[0], Env: map[string]string{elicitServerEnv: "1"}}),
				v2.WithAllowedTools("mcp__asker__ask"),
				v2.WithLogger(testLogger(t)),
			}, c.opts(&got)...)
			s := env.session(t, opts...)
			run(t, s, "ask me")
			req, _ := env.api.LastRequest()
			b, ok := req.LastToolResult()
			if !ok || !strings.Contains(b.ContentText(), c.want) {
				t.Fatalf("tool result %+v (%q), want %q", b, b.ContentText(), c.want)
			}
			if c.name == "accept" {
				if len(got) != 1 {
					t.Fatalf("callback ran %d times, want 1", len(got))
				}
				var schema map[string]any
				if err := json.Unmarshal(got[0].RequestedSchema, &schema); err != nil {
					t.Fatalf("schema %s: %v", got[0].RequestedSchema, err)
				}
				if diff := cmp.Diff([]any{"name"}, schema["required"]); diff != "" || got[0].ServerName != "asker" || got[0].Message != "What is your name?" {
					t.Errorf("request %+v, schema %v (-want +got):\n%s", got[0], schema, diff)
				}
			}
			if c.name == "timeout_declines" {
				select {
				case cause := <-timedOut:
					if !errors.Is(cause, v2.ErrUserInputTimeout) {
						t.Errorf("the callback's ctx ended with %v, want ErrUserInputTimeout", cause)
					}
				case <-time.After(time.Minute): // only catches a hang: the decline above came after the timeout
					t.Error("the callback's ctx did not end")
				}
			}
		})
	}
}
