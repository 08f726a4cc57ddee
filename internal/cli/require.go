package cli

import (
	"os"
	"testing"
)

// Require returns the CLI path for a test. When the CLI cannot be found it
// fails the test if CI=true (a missing CLI in CI is an error) and skips it
// otherwise, saying how to install it.
func Require(t testing.TB) string {
	t.Helper()
	p, err := Find()
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%v (CI=true: the pinned CLI must be installed, run `go run ./internal/cli/cmd/installcli`)", err)
	}
	t.Skipf("%v; install it with `go run ./internal/cli/cmd/installcli` or set %s", err, PathEnv)
	return ""
}
