package shared_test

import (
	"context"
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// matcherCases is the matcher table: for each pattern, the names it must match and the names it
// must not. Every case is checked through CompileMatcher and through HookConfig.MatchesToolName.
var matcherCases = []struct {
	name    string
	pattern string
	match   []string
	noMatch []string
}{
	// The design spec's cases.
	{"spec list", "Write|Edit", []string{"Write", "Edit"}, []string{"Read", "WriteFile", "Writ", "xWrite", "Write|Edit", "write", ""}},
	{"empty matches all", "", []string{"Bash", "Read", "mcp__x__y", ""}, nil},
	{"star matches all", "*", []string{"Bash", "Read", "mcp__x__y", ""}, nil},
	{"spaced star matches all", "  *  ", []string{"Bash", ""}, nil},

	// Exact lists: split on | or ,, trimmed, empties dropped, case-sensitive.
	{"single name", "Bash", []string{"Bash"}, []string{"Ba", "Bas", "ash", "bash", "BASH", "Bash ", " Bash", "BashX", ""}},
	{"trailing comma", "Bash,", []string{"Bash"}, []string{"", ","}},
	{"leading space", " Bash", []string{"Bash"}, []string{" Bash", ""}},
	{"trailing bar", "Bash|", []string{"Bash"}, []string{""}},
	{"comma list with space", "Read, Write", []string{"Read", "Write"}, []string{"Bash", " Write", "Read, Write", ""}},
	{"comma list", "Read,Write", []string{"Read", "Write"}, []string{"Bash"}},
	{"mixed separators and spaces", "Read|Write, Bash ", []string{"Read", "Write", "Bash"}, []string{"Edit", "Bash "}},
	{"inner space is one name", "Read Write", []string{"Read Write"}, []string{"Read", "Write"}},
	{"dash is exact", "mcp__my-srv", []string{"mcp__my-srv"}, []string{"mcp__my-srv__echo_tool"}},
	{"bar alone is the empty list", "|", nil, []string{"", "Bash", "|"}},
	{"commas alone are the empty list", ", ,", nil, []string{"", "Bash", ","}},
	{"case-sensitive list", "bash|READ", []string{"bash", "READ"}, []string{"Bash", "Read"}},

	// Globs.
	{"mcp glob", "mcp__*", []string{"mcp__my-srv__echo_tool", "mcp__", "mcp__github__create_issue"}, []string{"mcpx", "mcp_", "xmcp__a", "MCP__a", "Bash"}},
	{"server glob", "mcp__github__*", []string{"mcp__github__create_issue", "mcp__github__"}, []string{"mcp__gitlab__x", "mcp__github_x", "mcp__my-srv__echo_tool"}},
	{"name or glob", "Bash|mcp__*", []string{"Bash", "mcp__my-srv__echo_tool"}, []string{"Read", "Bash2", "mcpx"}},
	{"question mark", "?ash", []string{"Bash", "Hash", "_ash"}, []string{"ash", "Baash", "Bas", "BBash"}},
	{"suffix glob", "*Edit", []string{"Edit", "NotebookEdit", "MultiEdit"}, []string{"EditX", "Editor"}},
	{"glob is case-sensitive", "mcp__*", nil, []string{"MCP__x"}},
	{"glob alternatives are trimmed", " Read | mcp__* ", []string{"Read", "mcp__a"}, []string{" Read", "Write"}},
	{"glob with comma list", "Read, mcp__*", []string{"Read", "mcp__a__b"}, []string{"Write", "Read, mcp__a"}},
	{"glob dash is literal", "mcp__my-srv__*", []string{"mcp__my-srv__echo_tool"}, []string{"mcp__my_srv__echo_tool", "mcp__other__x"}},

	// Regular expressions, anchored to the whole name.
	{"anchored dot star", "Edit.*", []string{"Edit", "EditX", "Editor"}, []string{"NotebookEdit", "xEdit", "edit"}},
	{"explicit anchors", "^B.*$", []string{"Bash", "B"}, []string{"Read", "aBash"}},
	{"class", "[BR]ead", []string{"Bead", "Read"}, []string{"Dead", "Reads", "read", "Bash"}},
	{"alternation in group", "R(ead|x)", []string{"Read", "Rx"}, []string{"R", "Reax", "Readx"}},
	{"optional", "Rea(d)?", []string{"Rea", "Read"}, []string{"Reads", "Re"}},
	{"regex substring does not match", "as.", nil, []string{"Bash"}},
	{"case-insensitive flag", "(?i)bash", []string{"Bash", "BASH", "bash"}, []string{"Bash2"}},
	{"dot plus", ".+", []string{"Bash", "x"}, []string{""}},
	{"escaped dot", `mcp__a\.b`, []string{"mcp__a.b"}, []string{"mcp__aXb"}},
}

func TestCompileMatcher(t *testing.T) {
	for _, tc := range matcherCases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := shared.CompileMatcher(tc.pattern)
			if err != nil {
				t.Fatalf("CompileMatcher(%q): %v", tc.pattern, err)
			}
			if got := m.String(); got != tc.pattern {
				t.Errorf("String() = %q, want the pattern as given %q", got, tc.pattern)
			}
			check := func(names []string, want bool) {
				t.Helper()
				for _, n := range names {
					if got := m.Match(n); got != want {
						t.Errorf("CompileMatcher(%q).Match(%q) = %v, want %v", tc.pattern, n, got, want)
					}
					cfg := shared.HookConfig{Matcher: tc.pattern}
					if got := cfg.MatchesToolName(n); got != want {
						t.Errorf("HookConfig{Matcher: %q}.MatchesToolName(%q) = %v, want %v", tc.pattern, n, got, want)
					}
				}
			}
			check(tc.match, true)
			check(tc.noMatch, false)
		})
	}
}

func TestMatcherMatchesAllAndNames(t *testing.T) {
	tests := []struct {
		pattern   string
		all       bool
		names     []string
		namesOK   bool
		wantMatch string // a name the matcher must match, if any
	}{
		{pattern: "", all: true},
		{pattern: "*", all: true},
		{pattern: " * ", all: true},
		{pattern: "Bash", names: []string{"Bash"}, namesOK: true},
		{pattern: "Bash,", names: []string{"Bash"}, namesOK: true},
		{pattern: " Bash", names: []string{"Bash"}, namesOK: true},
		{pattern: "Read, Write", names: []string{"Read", "Write"}, namesOK: true},
		{pattern: "Write|Edit|Write", names: []string{"Write", "Edit", "Write"}, namesOK: true},
		{pattern: "Read Write", names: []string{"Read Write"}, namesOK: true},
		{pattern: "|", names: nil, namesOK: true},
		{pattern: "mcp__*"},
		{pattern: "Edit.*"},
		{pattern: ".*"}, // matches every name, but it is a regex: not MatchesAll
		{pattern: "^(Bash|Read)$", names: []string{"Bash", "Read"}, namesOK: true},
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			m, err := shared.CompileMatcher(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.MatchesAll(); got != tc.all {
				t.Errorf("MatchesAll() = %v, want %v", got, tc.all)
			}
			names, ok := m.Names()
			if ok != tc.namesOK {
				t.Fatalf("Names() ok = %v, want %v", ok, tc.namesOK)
			}
			if diff := cmp.Diff(tc.names, names); diff != "" {
				t.Errorf("Names() mismatch (-want +got):\n%s", diff)
			}
			if ok && len(names) > 0 {
				// Names returns a copy: changing it must not change the matcher.
				orig := names[0]
				names[0] = "Changed"
				if !m.Match(orig) || m.Match("Changed") {
					t.Errorf("changing the slice from Names() changed the matcher")
				}
			}
		})
	}
}

func TestNilMatcher(t *testing.T) {
	var m *shared.Matcher
	if !m.Match("anything") || !m.MatchesAll() || m.String() != "" {
		t.Errorf("nil *Matcher: Match=%v MatchesAll=%v String=%q; want true, true, \"\"", m.Match("anything"), m.MatchesAll(), m.String())
	}
	if names, ok := m.Names(); ok || names != nil {
		t.Errorf("nil *Matcher: Names() = %v, %v; want nil, false", names, ok)
	}
}

func TestCompileMatcherInvalid(t *testing.T) {
	for _, p := range []string{"[", "(Read", "a{2,1}", "Bash(", `\`, "Bash|(", "x++", "Bash)|(.*", "a)(b"} {
		t.Run(p, func(t *testing.T) {
			m, err := shared.CompileMatcher(p)
			if err == nil {
				t.Fatalf("CompileMatcher(%q) = %v, nil; want an error", p, m)
			}
			if m != nil {
				t.Errorf("CompileMatcher(%q) returned a matcher with its error", p)
			}
			var se *syntax.Error
			if !errors.As(err, &se) {
				t.Errorf("CompileMatcher(%q) error %v does not wrap a *syntax.Error", p, err)
			}
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not quote the pattern", err)
			}
			// An invalid matcher matches nothing through HookConfig.
			cfg := shared.HookConfig{Matcher: p}
			for _, n := range []string{"", "Bash", p} {
				if cfg.MatchesToolName(n) {
					t.Errorf("HookConfig{Matcher: %q}.MatchesToolName(%q) = true, want false", p, n)
				}
			}
		})
	}
}

var nopHandler = shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil })

func TestHooksValidate(t *testing.T) {
	tests := []struct {
		name      string
		hooks     shared.Hooks
		wantEvent shared.HookEvent
		wantIndex int
		wantIn    string // substring of Reason
		wantRegex bool   // Unwrap reaches a regexp syntax error
	}{
		{
			name: "invalid regex",
			hooks: shared.Hooks{shared.HookEventPreToolUse: {
				{Matcher: "Bash", Handler: nopHandler},
				{Matcher: "[", Handler: nopHandler},
			}},
			wantEvent: shared.HookEventPreToolUse, wantIndex: 1, wantIn: "invalid matcher", wantRegex: true,
		},
		{
			name:      "nil handler",
			hooks:     shared.Hooks{shared.HookEventStop: {{Handler: nopHandler}, {Handler: nopHandler}, {Matcher: "x"}}},
			wantEvent: shared.HookEventStop, wantIndex: 2, wantIn: "nil handler",
		},
		{
			name:      "unknown event",
			hooks:     shared.Hooks{"PreToolUze": {{Handler: nopHandler}}},
			wantEvent: "PreToolUze", wantIndex: -1, wantIn: "unknown hook event",
		},
		{
			name:      "empty event name",
			hooks:     shared.Hooks{"": {{Handler: nopHandler}}},
			wantEvent: "", wantIndex: -1, wantIn: "unknown hook event",
		},
		{
			name:      "negative timeout",
			hooks:     shared.Hooks{shared.HookEventPostToolUse: {{Handler: nopHandler, Timeout: -1}}},
			wantEvent: shared.HookEventPostToolUse, wantIndex: 0, wantIn: "negative timeout",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.hooks.Validate()
			var re *shared.RegistrationError
			if !errors.As(err, &re) {
				t.Fatalf("Validate() = %v, want a *RegistrationError", err)
			}
			if re.Event != tc.wantEvent || re.Index != tc.wantIndex {
				t.Errorf("RegistrationError{Event: %q, Index: %d}, want {%q, %d}", re.Event, re.Index, tc.wantEvent, tc.wantIndex)
			}
			if !strings.Contains(re.Reason, tc.wantIn) {
				t.Errorf("Reason %q does not contain %q", re.Reason, tc.wantIn)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "shared: ") || !strings.Contains(msg, string(tc.wantEvent)) {
				t.Errorf("Error() = %q, want the package prefix and the event name", msg)
			}
			if tc.wantIndex >= 0 && !strings.Contains(msg, fmt.Sprintf("[%d]", tc.wantIndex)) {
				t.Errorf("Error() = %q does not name index %d", msg, tc.wantIndex)
			}
			var se *syntax.Error
			if got := errors.As(err, &se); got != tc.wantRegex {
				t.Errorf("errors.As(err, *syntax.Error) = %v, want %v", got, tc.wantRegex)
			}
		})
	}
}

func TestHooksValidateOK(t *testing.T) {
	hooks := shared.Hooks{}
	for _, e := range shared.AllHookEvents() {
		hooks[e] = []shared.HookConfig{
			{Handler: nopHandler},
			{Matcher: "Bash|mcp__*", Handler: nopHandler, Timeout: 0},
			{Matcher: "Edit.*", Handler: nopHandler, Timeout: 3e9, Name: "edit"},
		}
	}
	if err := hooks.Validate(); err != nil {
		t.Fatalf("Validate() = %v, want nil", err)
	}
	if err := (shared.Hooks(nil)).Validate(); err != nil {
		t.Fatalf("nil Hooks: Validate() = %v, want nil", err)
	}
}

// With several bad registrations, Validate reports the same one every time: unknown events first
// (by name), then the known events in AllHookEvents order.
func TestHooksValidateDeterministic(t *testing.T) {
	hooks := shared.Hooks{}
	for _, e := range shared.AllHookEvents() {
		hooks[e] = []shared.HookConfig{{Handler: nil}}
	}
	for i := 0; i < 50; i++ {
		var re *shared.RegistrationError
		if err := hooks.Validate(); !errors.As(err, &re) || re.Event != shared.AllHookEvents()[0] || re.Index != 0 {
			t.Fatalf("run %d: Validate() = %v, want the nil handler of %s[0]", i, err, shared.AllHookEvents()[0])
		}
	}
	hooks["Zzz"] = []shared.HookConfig{{Handler: nopHandler}}
	hooks["Aaa"] = []shared.HookConfig{{Handler: nopHandler}}
	for i := 0; i < 50; i++ {
		var re *shared.RegistrationError
		if err := hooks.Validate(); !errors.As(err, &re) || re.Event != "Aaa" || re.Index != -1 {
			t.Fatalf("run %d: Validate() = %v, want unknown event Aaa", i, err)
		}
	}
}

// TestMatcherToolAliases: like the CLI's, a matcher knows the CLI's legacy tool names, both ways:
// CLI 2.1.330 sends "Agent" for the tool whose legacy name is "Task".
func TestMatcherToolAliases(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		noMatch []string
	}{
		{"Task", []string{"Task", "Agent"}, []string{"TaskCreate", "Agents", "agent"}},
		{"Agent", []string{"Agent", "Task"}, []string{"TaskStop"}},
		{"Read, Task", []string{"Read", "Agent"}, []string{"Bash"}},
		{"Ta*", []string{"Task", "TaskCreate", "Agent"}, []string{"Bash"}},
		{"^Ta.*$", []string{"Task", "TaskCreate", "Agent"}, []string{"Bash"}},
		{"KillShell", []string{"TaskStop", "KillBash", "KillShell"}, []string{"Bash"}},
		{"TaskStop", []string{"KillShell", "KillBash"}, []string{"TaskCreate"}},
		{"Brief", []string{"SendUserMessage"}, []string{"SendMessage"}},
		{"ListMcpResources", []string{"ListMcpResourcesTool"}, nil},
		{"ProposeGoal", []string{"SetGoal"}, []string{"GetGoal"}},
		{"Bash", nil, []string{"Agent", "Task"}},
		{"mcp__*", nil, []string{"Agent", "Task"}},
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			m, err := shared.CompileMatcher(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range tc.match {
				if !m.Match(n) || !(shared.HookConfig{Matcher: tc.pattern}).MatchesToolName(n) {
					t.Errorf("%q does not match %q", tc.pattern, n)
				}
			}
			for _, n := range tc.noMatch {
				if m.Match(n) {
					t.Errorf("%q matches %q", tc.pattern, n)
				}
			}
		})
	}
}

// TestMatcherFiniteNames: a regular expression that matches finitely many names (at most 64)
// knows them (Names), decided on its regexp/syntax tree; any other does not.
func TestMatcherFiniteNames(t *testing.T) {
	tests := []struct {
		pattern string
		names   []string
		finite  bool
	}{
		{"^(Bash|Read)$", []string{"Bash", "Read"}, true},
		{"(Bash|Read)", []string{"Bash", "Read"}, true},
		{"(?:Write|Edit|Write)", []string{"Write", "Edit"}, true},
		{"(Web)?Fetch", []string{"Fetch", "WebFetch"}, true},
		{"[BR]ead", []string{"Bead", "Read"}, true},
		{"Ba(sh|ss)", []string{"Bash", "Bass"}, true},
		{"x{2}", []string{"xx"}, true},
		{"x{1,3}", []string{"x", "xx", "xxx"}, true},
		{`mcp__a\.b`, []string{"mcp__a.b"}, true},
		{"(?i)123", []string{"123"}, true}, // nothing to fold
		{"^$", []string{""}, true},
		{"[a-h][a-h]", nil, true}, // 64 names: checked below by count
		{"[a-h][a-h][a-h]", nil, false},
		{"[a-z]{3}", nil, false},
		{"Edit.*", nil, false},
		{".+", nil, false},
		{"Bash.", nil, false},
		{"x+", nil, false},
		{"x{2,}", nil, false},
		{"[^a]", nil, false},
		{"(?i)bash", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			m, err := shared.CompileMatcher(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			names, ok := m.Names()
			if ok != tc.finite {
				t.Fatalf("Names() ok = %v, want %v (names %q)", ok, tc.finite, names)
			}
			if tc.names != nil {
				if diff := cmp.Diff(tc.names, names); diff != "" {
					t.Errorf("Names() (-want +got):\n%s", diff)
				}
			} else if ok && len(names) != 64 {
				t.Errorf("Names() has %d names, want 64", len(names))
			}
			// Every name it gives, the matcher matches.
			for _, n := range names {
				if !m.Match(n) {
					t.Errorf("Names() gives %q, which the matcher does not match", n)
				}
			}
		})
	}
}

func TestUnknownToolNames(t *testing.T) {
	h := func(m string) shared.HookConfig {
		return shared.HookConfig{Matcher: m, Handler: nopHandler}
	}
	tests := []struct {
		name  string
		hooks shared.Hooks
		want  []string
	}{
		{"known names, legacy names, mcp, all", shared.Hooks{shared.HookEventPreToolUse: {h("Bash|Write|Edit"), h("Task"), h("Agent"), h("mcp__github__create_issue"), h(""), h("*"), h("mcp__*")}}, nil},
		{"a typo and a dropped tool", shared.Hooks{shared.HookEventPreToolUse: {h("Bsh|Edit"), h("MultiEdit")}}, []string{"Bsh", "MultiEdit"}},
		{"every tool event", shared.Hooks{shared.HookEventPostToolUse: {h("Wirte")}, shared.HookEventPermissionRequest: {h("Nope")}}, []string{"Nope", "Wirte"}},
		{"non-tool events are not tool names", shared.Hooks{shared.HookEventSessionStart: {h("startup|clear")}, shared.HookEventSubagentStop: {h("general-purpose")}}, nil},
		{"a finite regexp", shared.Hooks{shared.HookEventPreToolUse: {h("^(Bash|Bsh)$")}}, []string{"Bsh"}},
		{"a regexp that matches some tool", shared.Hooks{shared.HookEventPreToolUse: {h("Web.*"), h("(?i)bash")}}, nil},
		{"a regexp or glob that matches none", shared.Hooks{shared.HookEventPreToolUse: {h("Zz.*"), h("Qq*")}}, []string{"Qq*", "Zz.*"}},
		{"each name once", shared.Hooks{shared.HookEventPreToolUse: {h("Bsh"), h("Bsh|Bsh")}}, []string{"Bsh"}},
		{"invalid matchers are Validate's", shared.Hooks{shared.HookEventPreToolUse: {h("[")}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, shared.UnknownToolNames(tc.hooks)); diff != "" {
				t.Errorf("UnknownToolNames (-want +got):\n%s", diff)
			}
			err := shared.CheckToolNames(tc.hooks)
			if (err != nil) != (tc.want != nil) || (err != nil && !errors.Is(err, shared.ErrUnknownTool)) {
				t.Errorf("CheckToolNames = %v, want an ErrUnknownTool error: %v", err, tc.want != nil)
			}
		})
	}
	// The error names the first bad registration in Validate's order.
	err := shared.CheckToolNames(shared.Hooks{
		shared.HookEventPermissionDenied: {h("Nope")},
		shared.HookEventPreToolUse:       {h("Bash"), h("Bash|Bsh")},
	})
	var re *shared.RegistrationError
	if !errors.As(err, &re) || re.Event != shared.HookEventPreToolUse || re.Index != 1 || !strings.Contains(re.Reason, "Bsh") {
		t.Errorf("CheckToolNames = %v, want PreToolUse[1] naming Bsh", err)
	}
}
