package claudetest

import (
	"os"
	"os/exec"
	"testing"
)

// sandboxPrograms are what the CLI's Linux sandbox runs: bubblewrap, and socat for its proxies.
var sandboxPrograms = []string{"bwrap", "socat"}

// RequireSandbox skips t unless this machine can run the CLI's Linux Bash sandbox (v2.WithSandbox,
// v2.PolicySandbox): bwrap and socat on PATH (apt-get install bubblewrap socat). As with
// RequireCLI, a missing program fails t instead when the environment has CI=true.
func RequireSandbox(t testing.TB) {
	t.Helper()
	for _, c := range sandboxPrograms {
		if _, err := exec.LookPath(c); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found: the sandbox tests need it (apt-get install bubblewrap socat)", c)
			}
			t.Skipf("%s not found (apt-get install bubblewrap socat; or set CI=true to fail instead of skipping)", c)
		}
	}
}
