package v2_test

import (
	"context"
	"fmt"
	"log"
	"path/filepath"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A session whose PreToolUse hook keeps writes inside the project, streaming the turn's messages.
// (It needs the claude CLI, so it is compiled but not run by go test.)
func ExampleCreateSession() {
	ctx := context.Background()
	project, _ := filepath.Abs(".")
	guard := shared.OnPreToolUse(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		p := filepath.Clean(in.ToolInput.String("file_path"))
		if p != project && !strings.HasPrefix(p, project+string(filepath.Separator)) {
			return shared.Deny("writes must stay inside " + project), nil
		}
		return nil, nil
	})
	s, err := v2.CreateSession(ctx,
		v2.WithCwd(project),
		v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Write|Edit|MultiEdit", Handler: guard}}}),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for msg, err := range s.Query(ctx, "write a haiku to haiku.txt") {
		if err != nil {
			log.Fatal(err)
		}
		switch m := msg.(type) {
		case *shared.AssistantMessage:
			fmt.Println("assistant:", m.Text())
		case *shared.ResultMessage:
			fmt.Println("result:", m.Result)
		}
	}
}

// Permission prompts answered by a Go callback: read-only commands pass, the rest is refused.
func ExampleWithCanUseTool() {
	decide := func(ctx context.Context, req *shared.CanUseTool) (*shared.PermissionResult, error) {
		if req.ToolName == "Bash" && strings.HasPrefix(req.Input.String("command"), "ls") {
			return &shared.PermissionResult{Behavior: shared.PermissionAllow}, nil
		}
		return &shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "not on the safelist"}, nil
	}
	s, err := v2.CreateSession(context.Background(), v2.WithCanUseTool(decide))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
}

// Where the time of each hook round trip goes: the SDK's decoding, the handlers, the answer.
// (It needs the claude CLI, so it is compiled but not run by go test.)
func ExampleWithRoundTripTrace() {
	trace := func(rt shared.RoundTrip) {
		log.Printf("%s %s: decode %v, handlers %v, answer %v", rt.Subtype, rt.Event,
			rt.Decoded.Sub(rt.Read), rt.Answered.Sub(rt.Decoded), rt.Written.Sub(rt.Answered))
	}
	s, err := v2.CreateSession(context.Background(), v2.WithRoundTripTrace(trace),
		v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
			return nil, nil // no opinion
		})}}}))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
}
