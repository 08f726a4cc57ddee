package shared_test

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func TestDecisionNormalize(t *testing.T) {
	tests := []struct {
		in     shared.Decision
		want   shared.Decision
		wantOK bool
	}{
		{"", shared.DecisionNone, true},
		{"   ", shared.DecisionNone, true},
		{"allow", shared.DecisionAllow, true},
		{"approve", shared.DecisionAllow, true},
		{"approved", shared.DecisionAllow, true},
		{"yes", shared.DecisionAllow, true},
		{"accept", shared.DecisionAllow, true},
		{"ALLOW", shared.DecisionAllow, true},
		{"Approve", shared.DecisionAllow, true},
		{" Yes ", shared.DecisionAllow, true},
		{"deny", shared.DecisionDeny, true},
		{"block", shared.DecisionDeny, true},
		{"blocked", shared.DecisionDeny, true},
		{"denied", shared.DecisionDeny, true},
		{"no", shared.DecisionDeny, true},
		{"reject", shared.DecisionDeny, true},
		{"BLOCK", shared.DecisionDeny, true},
		{"Deny", shared.DecisionDeny, true},
		{"ask", shared.DecisionAsk, true},
		{"ASK", shared.DecisionAsk, true},
		{"defer", shared.DecisionDefer, true},
		{"Defer", shared.DecisionDefer, true},
		{"maybe", shared.DecisionNone, false},
		{"allowed!", shared.DecisionNone, false},
		{"de ny", shared.DecisionNone, false},
		{"continue", shared.DecisionNone, false},
	}
	for _, tc := range tests {
		t.Run(string(tc.in), func(t *testing.T) {
			got, ok := tc.in.Normalize()
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("Decision(%q).Normalize() = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestContinueJSON(t *testing.T) {
	tests := []struct {
		c    shared.Continue
		json string
	}{
		{shared.ContinueUnset, "null"},
		{shared.ContinueYes, "true"},
		{shared.ContinueNo, "false"},
	}
	for _, tc := range tests {
		t.Run(tc.json, func(t *testing.T) {
			b, err := json.Marshal(tc.c)
			if err != nil || string(b) != tc.json {
				t.Fatalf("Marshal(%d) = %s, %v; want %s", tc.c, b, err, tc.json)
			}
			got := shared.Continue(99)
			if err := json.Unmarshal([]byte(tc.json), &got); err != nil || got != tc.c {
				t.Fatalf("Unmarshal(%s) = %d, %v; want %d", tc.json, got, err, tc.c)
			}
			// Inside a struct, with surrounding whitespace.
			var s struct {
				C shared.Continue `json:"c"`
			}
			if err := json.Unmarshal([]byte(`{"c": `+tc.json+` }`), &s); err != nil || s.C != tc.c {
				t.Fatalf("Unmarshal in struct = %d, %v; want %d", s.C, err, tc.c)
			}
		})
	}
}

func TestContinueUnmarshalInvalid(t *testing.T) {
	for _, in := range []string{`"true"`, `1`, `0`, `{}`, `[]`, `"x"`} {
		t.Run(in, func(t *testing.T) {
			var s struct {
				C shared.Continue `json:"continue"`
			}
			err := json.Unmarshal([]byte(`{"continue":`+in+`}`), &s)
			if err == nil {
				t.Fatalf("Unmarshal(%s) = nil error, want an error", in)
			}
			// The error must be printable (an *json.UnmarshalTypeError without a Type used to
			// panic in Error).
			var msg string
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("err.Error() panicked: %v", r)
					}
				}()
				msg = err.Error()
			}()
			if !strings.Contains(msg, "continue") {
				t.Errorf("error %q does not name the field", msg)
			}
		})
	}
}

func TestAsSync(t *testing.T) {
	v := shared.SyncHookOutput{Reason: "by value"}
	p := &shared.SyncHookOutput{Reason: "by pointer"}
	tests := []struct {
		name   string
		in     shared.HookOutput
		want   string
		wantOK bool
	}{
		{"value", v, "by value", true},
		{"pointer", p, "by pointer", true},
		{"nil pointer", (*shared.SyncHookOutput)(nil), "", false},
		{"nil", nil, "", false},
		{"async", shared.AsyncHookOutput{Async: true}, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := shared.AsSync(tc.in)
			if ok != tc.wantOK {
				t.Fatalf("AsSync ok = %v, want %v", ok, tc.wantOK)
			}
			if ok && got.Reason != tc.want {
				t.Errorf("AsSync().Reason = %q, want %q", got.Reason, tc.want)
			}
		})
	}
	if got, _ := shared.AsSync(p); got != p {
		t.Errorf("AsSync(pointer) returned a copy, want the same pointer")
	}
}

func TestToolInput(t *testing.T) {
	in := shared.ToolInput{"command": "ls", "n": 3.0}
	if got := in.String("command"); got != "ls" {
		t.Errorf("String(command) = %q", got)
	}
	if got := in.String("n"); got != "" {
		t.Errorf("String(n) = %q, want \"\" for a non-string", got)
	}
	if got := in.String("missing"); got != "" {
		t.Errorf("String(missing) = %q", got)
	}
	c := in.Clone()
	c["command"] = "rm"
	if in.String("command") != "ls" {
		t.Errorf("Clone shares its map with the original")
	}
	if diff := cmp.Diff(shared.ToolInput{"command": "rm", "n": 3.0}, c); diff != "" {
		t.Errorf("Clone (-want +got):\n%s", diff)
	}
	if shared.ToolInput(nil).Clone() != nil {
		t.Errorf("nil.Clone() != nil")
	}
}
