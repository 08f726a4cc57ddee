package policy

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func TestFileTools(t *testing.T) {
	f := newFixture(t)
	p := f.policy(WithMCPPaths("mcp__fs__write_file", "path"))
	j := func(s ...string) string { return filepath.Join(append([]string{f.root}, s...)...) }
	for _, tc := range []struct {
		tool  string
		input shared.ToolInput
		cwd   string
		want  string
	}{
		{"Write", shared.ToolInput{"file_path": j("notes.txt")}, f.root, "allow"},
		{"Write", shared.ToolInput{"file_path": "notes.txt"}, f.root, "allow"},
		{"Write", shared.ToolInput{"file_path": "src/new.go"}, f.root, "allow"},
		{"Write", shared.ToolInput{"file_path": "a.txt"}, j("src"), "allow"},
		{"Write", shared.ToolInput{"file_path": "../x"}, f.root, RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": "../../x"}, j("src"), RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": "/etc/passwd"}, f.root, RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": f.outside + "/x"}, f.root, RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": f.root + "2/x"}, f.root, RuleOutsideRoots}, // a sibling with the root as a prefix
		{"Write", shared.ToolInput{"file_path": j("link-out", "x")}, f.root, RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": j("link-in", "x")}, f.root, "allow"},
		{"Write", shared.ToolInput{"file_path": j("src", "up", "outside", "x")}, f.root, RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": j("link-root", "etc", "x")}, f.root, RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": j("dangling")}, f.root, RuleOutsideRoots}, // the kernel creates the link's target
		{"Write", shared.ToolInput{"file_path": j("src", "..", "..", "x")}, f.root, RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": "~/x"}, f.root, RuleOutsideRoots},
		{"Write", shared.ToolInput{"file_path": "~root/x"}, f.root, RuleUnresolvable},
		{"Write", shared.ToolInput{"file_path": "x\x00y"}, f.root, RuleUnresolvable},
		{"Write", shared.ToolInput{"file_path": "x"}, "relative/cwd", RuleUnresolvable},
		{"Write", shared.ToolInput{"file_path": ""}, f.root, RuleMissingPath},
		{"Write", shared.ToolInput{"file_path": 7}, f.root, RuleMissingPath},
		{"Write", shared.ToolInput{"content": "x"}, f.root, RuleMissingPath},
		{"Write", shared.ToolInput{"file_path": j(".git", "config")}, f.root, RuleProtected},
		{"Write", shared.ToolInput{"file_path": j(".git", "hooks", "pre-commit")}, f.root, RuleProtected},
		{"Write", shared.ToolInput{"file_path": j("sub", ".git", "config")}, f.root, RuleProtected},
		{"Write", shared.ToolInput{"file_path": j(".env")}, f.root, RuleProtected},
		{"Write", shared.ToolInput{"file_path": j(".env.production")}, f.root, RuleProtected},
		{"Write", shared.ToolInput{"file_path": j(".claude", "settings.json")}, f.root, RuleProtected},
		{"Write", shared.ToolInput{"file_path": j(".claude", "settings.local.json")}, f.root, RuleProtected},
		{"Write", shared.ToolInput{"file_path": j(".claude", "agents", "x.md")}, f.root, "allow"},
		{"Write", shared.ToolInput{"file_path": j("src", ".envoy.go")}, f.root, RuleProtected},
		{"Write", shared.ToolInput{"file_path": j(".gitignore")}, f.root, "allow"},
		{"Edit", shared.ToolInput{"file_path": j("main.go")}, f.root, "allow"},
		{"Edit", shared.ToolInput{"file_path": "/etc/hosts"}, f.root, RuleOutsideRoots},
		{"Edit", shared.ToolInput{"file_path": j(".env")}, f.root, RuleProtected},
		{"Edit", shared.ToolInput{}, f.root, RuleMissingPath},
		{"NotebookEdit", shared.ToolInput{"notebook_path": j("nb.ipynb")}, f.root, "allow"},
		{"NotebookEdit", shared.ToolInput{"notebook_path": "/tmp/nb.ipynb"}, f.root, RuleOutsideRoots},
		{"NotebookEdit", shared.ToolInput{"file_path": j("nb.ipynb")}, f.root, RuleMissingPath},
		{"Read", shared.ToolInput{"file_path": j("main.go")}, f.root, "allow"},
		{"Read", shared.ToolInput{"file_path": "/etc/hosts"}, f.root, "unguarded"}, // allowed, but not granted: outside the roots
		{"Read", shared.ToolInput{"file_path": f.home + "/.ssh/id_rsa"}, f.root, RuleDenyRead},
		{"Read", shared.ToolInput{"file_path": "~/.ssh/id_rsa"}, f.root, RuleDenyRead},
		{"Read", shared.ToolInput{}, f.root, RuleMissingPath},
		{"Glob", shared.ToolInput{"pattern": "**/*.go"}, f.root, "allow"},
		{"Glob", shared.ToolInput{"pattern": "*.go", "path": "src"}, f.root, "allow"},
		{"Glob", shared.ToolInput{"pattern": "~/.ssh/*"}, f.root, RuleDenyRead},
		{"Glob", shared.ToolInput{"pattern": "*", "path": f.home + "/.ssh"}, f.root, RuleDenyRead},
		{"Grep", shared.ToolInput{"pattern": "x", "path": "~/.ssh"}, f.root, RuleDenyRead},
		{"Grep", shared.ToolInput{"pattern": "x"}, f.root, "allow"},
		{"Grep", shared.ToolInput{"pattern": "x", "path": "/usr"}, f.root, "unguarded"},
		{"Glob", shared.ToolInput{"pattern": "../*"}, f.root, "unguarded"},
		{"mcp__fs__write_file", shared.ToolInput{"path": j("x")}, f.root, "allow"},
		{"mcp__fs__write_file", shared.ToolInput{"path": "/etc/x"}, f.root, RuleOutsideRoots},
		{"mcp__fs__write_file", shared.ToolInput{}, f.root, RuleMissingPath},
		{"PowerShell", shared.ToolInput{"command": "ls"}, f.root, RuleNestedCode},
		{"Bash", shared.ToolInput{}, f.root, RuleMissingPath},
		{"Bash", shared.ToolInput{"command": "ls", "dangerouslyDisableSandbox": true}, f.root, RuleTooComplex},
		{"Bash", shared.ToolInput{"command": "ls"}, f.root, "allow"},
		{"Bash", shared.ToolInput{"command": "rm x"}, f.outside, RuleOutsideRoots},
		{"WebFetch", shared.ToolInput{"url": "https://e.com"}, f.root, "unguarded"},
		{"mcp__other__tool", shared.ToolInput{"path": "/etc/x"}, f.root, "unguarded"},
	} {
		d, ok := p.Decide(tc.tool, tc.input, tc.cwd)
		got := "unguarded"
		if ok {
			got = "allow"
			if !d.Allow {
				got = d.Rule
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s %v in %s: (-want +got) %s %v", tc.tool, tc.input, tc.cwd, diff, d)
		}
	}
}

// A policy whose root cannot be resolved denies everything it guards.
func TestInvalidPolicy(t *testing.T) {
	p := Confined(filepath.Join(t.TempDir(), "missing"))
	if p.Err() == nil {
		t.Fatal("no error for a missing root")
	}
	for _, tool := range []string{"Write", "Read", "Bash"} {
		if d, _ := p.Decide(tool, shared.ToolInput{"file_path": "x", "command": "ls"}, "/"); d.Allow || d.Rule != RuleInvalidPolicy {
			t.Errorf("%s: %v", tool, d)
		}
	}
}

func TestModes(t *testing.T) {
	f := newFixture(t)
	strict := Strict(f.root, []string{"go", "git", "ls"}, WithHome(f.home))
	for cmd, want := range map[string]string{
		"go test ./...": "allow", "ls && echo x > y": "allow", "cd src && git status": "allow", "npm test": RuleNotListed,
		"bash -c 'ls'": RuleNotListed, "ls | grep x": RuleNotListed, "echo $(npm test)": RuleNotListed, "go build -o /tmp/x": RuleOutsideRoots,
	} {
		d := strict.Bash(f.root, cmd)
		got := "allow"
		if !d.Allow {
			got = d.Rule
		}
		if got != want {
			t.Errorf("Strict %q = %v, want %s", cmd, d, want)
		}
	}
	// Audit: the hook has no opinion, and the log sees the decision.
	var events []Event
	audit := Audit(f.root, WithHome(f.home), WithDecisionLog(func(_ context.Context, e Event) { events = append(events, e) }))
	h := audit.Hooks()[shared.HookEventPreToolUse][0].Handler
	out, err := h.Handle(context.Background(), &shared.PreToolUseHookInput{BaseHookInput: shared.BaseHookInput{Cwd: f.root},
		ToolCallFields: shared.ToolCallFields{ToolName: "Bash", ToolInput: shared.ToolInput{"command": "rm -rf /"}}})
	if err != nil || out != nil {
		t.Errorf("Audit hook = %v, %v; want no opinion", out, err)
	}
	if len(events) != 1 || events[0].Decision.Allow || events[0].Subject != "rm -rf /" {
		t.Errorf("Audit log = %+v", events)
	}
	// Confined: deny with the rule's name, allow what it guards, no opinion on the rest.
	conf := f.policy()
	hc := conf.Hooks()[shared.HookEventPreToolUse][0].Handler
	for tool, want := range map[string]string{"Bash": "deny", "Write": "allow", "WebFetch": "none"} {
		in := shared.ToolInput{"command": "rm -rf /", "file_path": filepath.Join(f.root, "x")}
		out, _ := hc.Handle(context.Background(), &shared.PreToolUseHookInput{BaseHookInput: shared.BaseHookInput{Cwd: f.root},
			ToolCallFields: shared.ToolCallFields{ToolName: tool, ToolInput: in}})
		got := "none"
		if s, ok := shared.AsSync(out); ok {
			got = string(s.Decision)
			if got == "deny" && !strings.Contains(s.Reason, `rule "write-outside"`) {
				t.Errorf("deny reason %q does not name the rule", s.Reason)
			}
		}
		if got != want {
			t.Errorf("Confined hook on %s = %s, want %s", tool, got, want)
		}
	}
}

// Rules are data: a user's rule denies, and WithoutDefaultRules lifts the defaults.
func TestRules(t *testing.T) {
	f := newFixture(t)
	p := f.policy(WithRules(Rule{Name: "no-npm-publish", Programs: []string{"npm"}, Args: []string{"publish"}, Reason: "publishing is for humans"}))
	if d := p.Bash(f.root, "cd src && npm publish --access public"); d.Rule != "no-npm-publish" || !strings.Contains(d.Message(), "publishing is for humans") {
		t.Errorf("user rule: %v", d)
	}
	if d := f.policy(WithoutDefaultRules()).Bash(f.root, "git push --force"); !d.Allow {
		t.Errorf("WithoutDefaultRules: %v", d)
	}
}

// Bounds: very long and deeply nested inputs are decided, within the limits or denied beyond.
func TestBounds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := f.policy()
	for _, tc := range []struct {
		name, cmd, want string
	}{
		{"long benign", strings.Repeat("ls; ", 1500), "allow"},
		{"too many commands", strings.Repeat("ls; ", 2500), RuleTooComplex},
		{"too long", strings.Repeat("x", maxCommandBytes+1), RuleTooComplex},
		{"deep subshells", strings.Repeat("( ", 300) + "ls" + strings.Repeat(" )", 300), RuleTooComplex},
		{"long && chain", strings.Repeat("echo a && ", 2000) + "ls", RuleTooComplex},
		{"deep substitutions", strings.Repeat("$(echo ", 200) + "x" + strings.Repeat(")", 200), RuleTooComplex},
		{"nested sh -c", nestShell(12), RuleTooComplex},
		{"shallow sh -c", nestShell(3), "allow"},
		{"recursive function", "f() { f; f; }; f", RuleTooComplex},
		{"huge brace", "touch {1..100000}", RuleTooComplex},
		{"globs", "ls /*/*/*/*/*", RuleTooComplex},
		{"many args", "echo " + strings.Repeat("a ", 5000), RuleTooComplex},
		{"many expansions", strings.Repeat("echo {1..4000}; ", 4000), RuleTooComplex},
		{"long escape at the end", strings.Repeat("echo a; ", 1500) + "rm -rf /", RuleOutsideRoots},
	} {
		d := p.Bash(f.root, tc.cmd)
		got := "allow"
		if !d.Allow {
			got = d.Rule
		}
		if got != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, d, tc.want)
		}
	}
}

func nestShell(n int) string {
	cmd := "ls"
	for range n {
		cmd = "sh -c " + shellQuote(cmd)
	}
	return cmd
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
