package policy

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// A policy that cannot judge says why and what to fix, as a *ConfigError wrapping ErrInvalid;
// Validate refuses a nil policy the same way. A relative root is refused, not resolved against
// the process's directory.
func TestValidate(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		p     *Policy
		field string
		fix   string
	}{
		{"nil", nil, "policy", "policy.Confined"},
		{"relative root", Confined("project"), "root", "absolute path"},
		{"missing root", Confined(filepath.Join(dir, "missing")), "root", "create the directory"},
		{"missing write root", Confined(dir, WithWriteRoots(filepath.Join(dir, "gone"))), "write root", "create the directory"},
		{"relative read root", Confined(dir, WithReadRoots("docs")), "read root", "absolute path"},
		{"empty root", Confined(""), "root", "absolute path"},
	} {
		err := Validate(tc.p)
		var ce *ConfigError
		if !errors.As(err, &ce) || !errors.Is(err, ErrInvalid) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.fix) {
			t.Errorf("%s: Validate = %v (%+v), want a *ConfigError of %s naming %q", tc.name, err, ce, tc.field, tc.fix)
		}
	}
	if err := Validate(Confined(dir)); err != nil {
		t.Errorf("Validate of a valid policy: %v", err)
	}
}

// A skill's embedded shell command is decided as a Bash call: denied when the policy refuses it
// (the reason names the rule), no answer when it allows it (the command runs), PowerShell denied;
// the decision log sees each, with the skill's name.
func TestSkillShellHook(t *testing.T) {
	f := newFixture(t)
	var events []Event
	p := f.policy(WithDecisionLog(func(_ context.Context, e Event) { events = append(events, e) }))
	cfgs := p.Hooks()[shared.HookEventPreSkillShellCommand]
	if len(cfgs) != 1 || cfgs[0].Matcher != "*" {
		t.Fatalf("PreSkillShellCommand registration = %+v", cfgs)
	}
	for _, tc := range []struct {
		tool, cmd, want string
	}{
		{"Bash", "ls src", "none"},
		{"Bash", "rm -rf " + f.outside, RuleOutsideRoots},
		{"Bash", "make", RuleUnknownProgram},
		{"PowerShell", "Get-ChildItem", RuleNestedCode},
	} {
		in := &shared.PreSkillShellCommandHookInput{BaseHookInput: shared.BaseHookInput{Cwd: f.root, HookEventName: shared.HookEventPreSkillShellCommand},
			ToolName: tc.tool, ToolInput: shared.ToolInput{"command": tc.cmd}, CommandName: "shelly"}
		out, err := cfgs[0].Handler.Handle(context.Background(), in)
		got := "none"
		if s, ok := shared.AsSync(out); ok && out != nil {
			got = "a decision whose reason names no rule: " + s.Reason
			if strings.Contains(s.Reason, `rule "`+tc.want+`"`) {
				got = tc.want
			}
		}
		if err != nil || got != tc.want {
			t.Errorf("%s %q = %v %v, want %s", tc.tool, tc.cmd, out, err, tc.want)
		}
	}
	if len(events) != 4 || events[1].Skill != "shelly" || events[1].Decision.Allow || events[1].Subject != "rm -rf "+f.outside {
		t.Errorf("decision log = %+v", events)
	}
}

// /proc/self/cwd is the shell's working directory, never the SDK process's: with the process in
// the project and the shell outside it, a write through it is outside; the other way round, inside.
func TestProcSelfCwdIsTheShells(t *testing.T) {
	f := newFixture(t)
	p := f.policy()
	t.Chdir(f.root)
	if d := p.Bash(f.outside, "echo x > /proc/self/cwd/f"); d.Rule != RuleOutsideRoots {
		t.Errorf("shell outside, process inside: %v, want %s", d, RuleOutsideRoots)
	}
	t.Chdir(f.outside)
	if d := p.Bash(f.root, "echo x > /proc/self/cwd/f"); !d.Allow {
		t.Errorf("shell inside, process outside: %v, want allow", d)
	}
	if d := p.Bash(f.root, "echo x > /proc/self/cwd/../f"); d.Rule != RuleOutsideRoots {
		t.Errorf("/proc/self/cwd/..: %v, want %s", d, RuleOutsideRoots)
	}
}
