package policy_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// PolicySandbox emits the policy's roots and protected paths as the sandbox's filesystem rules,
// and its domains as a strict network allowlist.
func TestPolicySandbox(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	extra := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".env.local"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := policy.Confined(root, policy.WithHome(home), policy.WithWriteRoots(extra), policy.WithAllowedDomains("proxy.golang.org"))
	sb := v2.PolicySandbox(p)
	realExtra, _ := filepath.EvalSymlinks(extra)
	if diff := cmp.Diff([]string{root, realExtra}, sb.Filesystem.AllowWrite); diff != "" {
		t.Errorf("AllowWrite (-want +got):\n%s", diff)
	}
	for _, want := range []string{root + "/.git", root + "/.env", root + "/.env.local", root + "/.claude/settings.json", home + "/.ssh"} {
		if !slices.Contains(sb.Filesystem.DenyWrite, want) {
			t.Errorf("DenyWrite lacks %s: %v", want, sb.Filesystem.DenyWrite)
		}
	}
	if !slices.Contains(sb.Filesystem.DenyRead, home+"/.ssh") {
		t.Errorf("DenyRead lacks ~/.ssh: %v", sb.Filesystem.DenyRead)
	}
	if diff := cmp.Diff(v2.SandboxNetwork{AllowedDomains: []string{"proxy.golang.org"}, StrictAllowlist: true}, sb.Network); diff != "" {
		t.Errorf("Network (-want +got):\n%s", diff)
	}
	if sb.AllowUnavailable || sb.AllowUnsandboxedCommands {
		t.Error("PolicySandbox is not fail-closed")
	}
}
