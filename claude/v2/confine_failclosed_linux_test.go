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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := v2.CreateSession(ctx, opts...)
	var ce *v2.ConfinementError
	if !errors.As(err, &ce) || !errors.Is(err, v2.ErrConfinementUnavailable) || !strings.Contains(err.Error(), "WithoutOSConfinement()") || !strings.Contains(err.Error(), "bwrap") {
		t.Fatalf("CreateSession without bwrap = %v, want a *v2.ConfinementError naming bwrap and WithoutOSConfinement", err)
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
