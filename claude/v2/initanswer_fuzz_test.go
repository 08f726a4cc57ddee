package v2

import (
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"log/slog"
	"testing"

	"github.com/go-json-experiment/json"
)

// FuzzInitAnswer: nothing the CLI writes in its initialize answer panics CreateSession. Each
// field the SDK reads is fuzzed as its own value (and with its type changed), and the whole
// answer as raw bytes; applyInitAnswer is all CreateSession does with it.
func FuzzInitAnswer(f *testing.F) {
	f.Add(" ", int64(7438), true, true, []byte(`{"claude_code_version":" "}`))
	f.Add("2.1.330", int64(0), false, true, []byte(`{}`))
	f.Add("", int64(-1), true, false, []byte(`null`))
	f.Add("\t\n", int64(1<<62), false, false, []byte(`{"claude_code_version":5,"pid":"x","hooks_applied":"yes"}`))
	f.Add("2..x.-1 (Claude Code)", int64(3), true, true, []byte(`{"claude_code_version":"\u0000","hook_on_failure_supported":null}`))
	f.Add("99999999999999999999999.1", int64(1), true, true, []byte(`[`))
	f.Fuzz(func(t *testing.T, version string, pid int64, applied, onFailure bool, raw []byte) {
		typed, err := json.Marshal(map[string]any{
			"claude_code_version": version, "pid": pid, "hooks_applied": applied, "hook_on_failure_supported": onFailure,
		})
		if err != nil {
			typed = []byte(`{}`) // invalid UTF-8 in version: the raw bytes still carry it
		}
		retyped, _ := json.Marshal(map[string]any{
			"claude_code_version": pid, "pid": version, "hooks_applied": version, "hook_on_failure_supported": pid,
		})
		for _, answer := range [][]byte{typed, retyped, raw} {
			for _, reg := range []hooks.Registration{nil, {"PreToolUse": {{HookCallbackIDs: []string{"hook_PreToolUse"}}}}} {
				s := &Session{o: defaultConfig(), logger: slog.New(slog.DiscardHandler)}
				err := s.applyInitAnswer(answer, reg)
				if reg != nil && !s.info.HooksApplied && err == nil {
					t.Fatalf("answer %s: guarding hooks not applied, yet no error", answer)
				}
			}
		}
	})
}

// The version CreateSession compares is the first word of what the CLI reports; blank or
// malformed versions compare as zeros instead of panicking.
func TestVersionLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"2.1.330", "2.1.0", false},
		{"2.0.9", "2.1.0", true},
		{"2.1.330 (Claude Code)", "2.1.0", false},
		{" ", "2.1.0", true},
		{"", "2.1.0", true},
		{"\t", "2.1.0", true},
		{"x.y", "2.1.0", true},
		{"3", "2.1.0", false},
	} {
		if got := versionLess(tc.a, tc.b); got != tc.want {
			t.Errorf("versionLess(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
