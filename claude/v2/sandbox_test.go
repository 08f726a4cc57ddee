package v2_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithSandbox's settings: the zero value fails closed (failIfUnavailable, no unsandboxed
// commands), the rest as the CLI reads them, merged with WithSettings's keys.
func TestSandboxSettings(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want string
	}{
		{"zero", []v2.Option{v2.WithSandbox(v2.Sandbox{})},
			`{"hooks":{},"sandbox":{"enabled":true,"failIfUnavailable":true,"autoAllowBashIfSandboxed":false,"allowUnsandboxedCommands":false}}`},
		{"full", []v2.Option{v2.WithSettings(`{"model":"m"}`), v2.WithSandbox(v2.Sandbox{
			AllowUnavailable: true, AutoAllowBash: true, AllowUnsandboxedCommands: true, ExcludedCommands: []string{"docker *"},
			Network:          v2.SandboxNetwork{AllowedDomains: []string{"*.example.com"}, DeniedDomains: []string{"x.example.com"}, StrictAllowlist: true, HTTPProxyPort: 8080},
			Filesystem:       v2.SandboxFilesystem{AllowWrite: []string{"/w"}, DenyWrite: []string{"/w/x"}, DenyRead: []string{"/r"}, AllowRead: []string{"/r/ok"}},
			IgnoreViolations: map[string][]string{"*": {"/dev/null"}}, EnableWeakerNestedSandbox: true,
			Credentials: v2.SandboxCredentials{DenyEnv: []string{"TOKEN"}, DenyFiles: []string{"/home/u/.netrc"}},
		})}, `{"hooks":{},"model":"m","sandbox":{"enabled":true,"failIfUnavailable":false,"autoAllowBashIfSandboxed":true,"allowUnsandboxedCommands":true,
			"excludedCommands":["docker *"],"network":{"allowedDomains":["*.example.com"],"deniedDomains":["x.example.com"],"strictAllowlist":true,"httpProxyPort":8080},
			"filesystem":{"allowWrite":["/w"],"denyWrite":["/w/x"],"denyRead":["/r"],"allowRead":["/r/ok"]},"ignoreViolations":{"*":["/dev/null"]},"enableWeakerNestedSandbox":true,
			"credentials":{"envVars":[{"name":"TOKEN","mode":"deny"}],"files":[{"path":"/home/u/.netrc","mode":"deny"}]}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := v2.MergedSettingsFor(tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("settings (-want +got):\n%s", d)
			}
		})
	}
}

// WithSandbox's errors come from CreateSession, before the CLI starts.
func TestSandboxValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []v2.Option
		want string
	}{
		{"empty domain", []v2.Option{v2.WithSandbox(v2.Sandbox{Network: v2.SandboxNetwork{AllowedDomains: []string{""}}})}, "Network.AllowedDomains: empty entry"},
		{"empty path", []v2.Option{v2.WithSandbox(v2.Sandbox{Filesystem: v2.SandboxFilesystem{DenyWrite: []string{" "}}})}, "Filesystem.DenyWrite: empty entry"},
		{"empty pattern", []v2.Option{v2.WithSandbox(v2.Sandbox{IgnoreViolations: map[string][]string{"": {"/x"}}})}, "empty command pattern"},
		{"empty env", []v2.Option{v2.WithSandbox(v2.Sandbox{Credentials: v2.SandboxCredentials{DenyEnv: []string{""}}})}, "Credentials.DenyEnv: empty entry"},
		{"port", []v2.Option{v2.WithSandbox(v2.Sandbox{Network: v2.SandboxNetwork{SOCKSProxyPort: 70000}})}, "proxy port 70000 out of range"},
		{"settings sandbox", []v2.Option{v2.WithSettings(`{"sandbox":{"enabled":false}}`), v2.WithSandbox(v2.Sandbox{})}, "exclude each other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := v2.CreateSession(context.Background(), append(tc.opts, v2.WithCLIPath("/nonexistent/claude"))...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CreateSession: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
