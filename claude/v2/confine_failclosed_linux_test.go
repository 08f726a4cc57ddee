package v2_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Where the kernel confinement cannot be applied, a policy session does not start unconfined
// (issue 33 item 3): with WithSandbox the CLI must run inside an outer bubblewrap, and with no
// bwrap on PATH CreateSession fails with a *ConfinementError (ErrConfinementUnavailable) that
// names WithoutOSConfinement, before the CLI runs (the CLI here is a script that would leave a
// mark). WithoutOSConfinement is the explicit way out: then the script runs.
func TestConfinementUnavailableFailsClosed(t *testing.T) {
	project, bin := t.TempDir(), t.TempDir()
	t.Setenv("PATH", bin) // no bwrap (t.Setenv: not parallel)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the private directory would be made
	mark := filepath.Join(t.TempDir(), "cli-ran")
	cli := filepath.Join(bin, "claude")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\n: > "+mark+"\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := policy.Confined(project)
	opts := []v2.Option{v2.WithCLIPath(cli), v2.WithCwd(project), v2.WithPolicy(p), v2.WithSandbox(v2.PolicySandbox(p))}
	checkFailsClosed(t, opts, mark, tmp, "bwrap")
}

// checkFailsClosed checks that a policy session with opts, whose CLI is a script that leaves
// mark, fails with a *v2.ConfinementError whose message has each of wants and names
// WithoutOSConfinement, before the CLI runs and leaving nothing in tmp (TMPDIR); and that with
// WithoutOSConfinement the CLI starts (so the refusal is what kept it from running).
func checkFailsClosed(t *testing.T, opts []v2.Option, mark, tmp string, wants ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := v2.CreateSession(ctx, opts...)
	var ce *v2.ConfinementError
	if !errors.As(err, &ce) || !errors.Is(err, v2.ErrConfinementUnavailable) || !strings.Contains(err.Error(), "WithoutOSConfinement()") {
		t.Fatalf("CreateSession = %v, want a *v2.ConfinementError naming WithoutOSConfinement", err)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say %q: %v", w, err)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the CLI ran before the refusal")
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the refused session left %v in TMPDIR", left)
	}
	if _, err := v2.CreateSession(ctx, append(opts, v2.WithoutOSConfinement())...); errors.As(err, &ce) {
		t.Fatalf("with WithoutOSConfinement: %v", err)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Error("with WithoutOSConfinement the CLI did not start: the refusal above proves nothing")
	}
}
