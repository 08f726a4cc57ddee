package v2_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hookwire/agent-sdk-go/claude/settings"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestRealCLI_ResolveSettings: v2.ResolveSettings, which reads the files without a CLI, says what
// CLI 2.1.332 applies (issue 38 item 8). Every tier holds something: the user's settings, the
// project's and local files (keys the SDK lets a repository set), WithSettings (the flag tier)
// and WithManagedSettings; a rule set in two tiers is listed once, a scalar set in two is the
// higher tier's. The running CLI's own answer (Session.Settings, get_settings) has the same
// merged settings, the same tiers in the same order, and the same provenance. With the user tier
// only (the SDK's default sources), the project's rules are in neither.
func TestRealCLI_ResolveSettings(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "a", "b")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, text)
	}
	write(filepath.Join(env.home, ".claude", "settings.json"),
		`{"permissions":{"allow":["Read"],"deny":["Bash(curl *)"]},"model":"claude-user-model","cleanupPeriodDays":9,"includeCoAuthoredBy":true}`)
	write(env.path(".claude/settings.json"), `{"permissions":{"deny":["Bash(curl *)","Bash(wget *)"]},"includeCoAuthoredBy":false}`)
	write(env.path(".claude/settings.local.json"), `{"permissions":{"deny":["Bash(nc *)"]}}`)
	opts := []v2.Option{
		v2.WithTrustedProject(),
		v2.WithSettings(`{"permissions":{"deny":["WebFetch"]},"cleanupPeriodDays":12}`),
		v2.WithManagedSettings(`{"permissions":{"deny":["Bash(rm *)"]}}`),
	}
	compare := func(t *testing.T, opts []v2.Option) *settings.Resolved {
		t.Helper()
		want, err := v2.ResolveSettings(append(append([]v2.Option{}, env.opts...), opts...)...)
		if err != nil {
			t.Fatalf("ResolveSettings: %v", err)
		}
		s := env.session(t, opts...)
		got, err := s.Settings(testCtx(t))
		if err != nil {
			t.Fatalf("Settings: %v", err)
		}
		// The CLI names no file; it adds an empty "hooks" object to the flag tier.
		ignore := []cmp.Option{
			cmpopts.IgnoreFields(settings.SourceSettings{}, "Path"), cmpopts.IgnoreFields(settings.Provenance{}, "Path"),
			cmpopts.IgnoreMapEntries(func(k string, v any) bool { m, ok := v.(map[string]any); return k == "hooks" && ok && len(m) == 0 }),
			cmpopts.EquateEmpty(),
		}
		if diff := cmp.Diff(want.Effective, got.Resolved.Effective, ignore...); diff != "" {
			t.Errorf("effective settings (-ResolveSettings +CLI):\n%s", diff)
		}
		if diff := cmp.Diff(want.Sources, got.Resolved.Sources, ignore...); diff != "" {
			t.Errorf("tiers (-ResolveSettings +CLI):\n%s", diff)
		}
		if diff := cmp.Diff(want.Provenance, got.Resolved.Provenance, append(ignore, cmpopts.IgnoreMapEntries(func(k string, _ settings.Provenance) bool { return k == "hooks" }))...); diff != "" {
			t.Errorf("provenance (-ResolveSettings +CLI):\n%s", diff)
		}
		if got.Applied["model"] != "claude-user-model" {
			t.Errorf("applied model %v", got.Applied["model"])
		}
		return want
	}
	t.Run("every_tier", func(t *testing.T) {
		r := compare(t, opts)
		wantDeny := []any{"Bash(curl *)", "Bash(wget *)", "Bash(nc *)", "WebFetch", "Bash(rm *)"}
		if diff := cmp.Diff(wantDeny, r.Effective["permissions"].(map[string]any)["deny"]); diff != "" {
			t.Errorf("deny rules (-want +got):\n%s", diff)
		}
		if r.Effective["cleanupPeriodDays"] != 12.0 || r.Provenance["cleanupPeriodDays"].Source != settings.Flag {
			t.Errorf("cleanupPeriodDays %v from %v, want 12 from the flag tier", r.Effective["cleanupPeriodDays"], r.Provenance["cleanupPeriodDays"])
		}
	})
	t.Run("user_only", func(t *testing.T) {
		r := compare(t, nil)
		if len(r.Sources) != 1 || r.Sources[0].Source != settings.User {
			t.Errorf("tiers %v, want the user's only", r.Sources)
		}
	})
}
