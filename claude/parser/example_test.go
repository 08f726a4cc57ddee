package parser_test

import (
	"fmt"

	"github.com/hookwire/agent-sdk-go/claude/parser"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func ExampleParse() {
	line := []byte(`{"type":"control_request","request_id":"r1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","tool_use_id":"toolu_01","input":{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_01","brand_new_field":1}}}`)
	msg, err := parser.Parse(line)
	if err != nil {
		panic(err)
	}
	req := msg.(*parser.ControlRequest)
	in := req.HookCallback.Input.(*shared.PreToolUseHookInput)
	fmt.Println(req.Subtype, in.ToolName, in.ToolInput.String("command"), string(in.Extra["brand_new_field"]))

	unknown, _ := parser.Parse([]byte(`{"type":"from_the_future","x":1}`))
	fmt.Printf("%T %s\n", unknown, unknown.Type())
	// Output:
	// hook_callback Bash ls 1
	// *shared.RawMessage from_the_future
}

func ExamplePeek() {
	// A hook callback Parse refuses (the command is there twice: JSON.parse would run the last):
	// Peek still reads what answering it takes.
	line := []byte(`{"type":"control_request","request_id":"r1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","input":{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf /"}}}}`)
	_, err := parser.Parse(line)
	h := parser.Peek(line)
	fmt.Println(err != nil, h.Type, h.Subtype, h.RequestID, h.HookEventName)
	// Output:
	// true control_request hook_callback r1 PreToolUse
}
