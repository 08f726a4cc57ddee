package v2_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Park and Claim on the real CLI (--await-claim): a CLI parked before its folder is known is
// bound to the folder by Claim: its Bash tool runs there, the model's request names it and
// carries its memory file (WithTrustedProjectMemory, read at the claim), the title comes with the claim
// and the transcript is the folder's; a Parked is claimed once. A claim the CLI refuses (a
// permission mode it cannot take) is a *ClaimError and closes the session; options a parked CLI
// cannot honour are refused. (WithCwd at Park is the parking directory.)
func TestRealCLI_ParkClaim(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_1", "Bash", bash("pwd > where.txt")), claudetest.TextReply("claimed answer")}
	})
	if err := os.WriteFile(filepath.Join(env.project, "CLAUDE.md"), []byte("FOLDER-MEMORY-MARK"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	park := []v2.Option{v2.WithCwd(t.TempDir())} // env.opts name the project as the working directory
	p := v2.Park(ctx, append(append(env.opts, park...), v2.WithAllowedTools("Bash"), v2.WithTrustedProjectMemory())...)
	t.Cleanup(func() { p.Close() })
	s, err := p.Claim(ctx, v2.ClaimOptions{Cwd: env.project, Title: "CLAIMED-TITLE"})
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	defer s.Close()
	if r := run(t, s, "go"); r.Result != "claimed answer" {
		t.Errorf("result %q", r.Result)
	}
	real, _ := filepath.EvalSymlinks(env.project)
	if got, err := os.ReadFile(filepath.Join(env.project, "where.txt")); err != nil || strings.TrimSpace(string(got)) != real {
		t.Errorf("Bash ran in %q (%v), want the claimed folder %s", got, err, real)
	}
	first := env.api.Requests()[0]
	if !first.Contains("FOLDER-MEMORY-MARK") || !first.Contains(real) {
		t.Errorf("the model's request lacks the claimed folder (%v) or its memory (%v)", first.Contains(real), first.Contains("FOLDER-MEMORY-MARK"))
	}
	if _, err := p.Claim(ctx, v2.ClaimOptions{Cwd: env.project}); !errors.Is(err, v2.ErrSpareTaken) {
		t.Errorf("second Claim: %v, want ErrSpareTaken", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close of a claimed Parked: %v", err)
	}
	id := s.SessionID()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := sessions.Dir(filepath.Join(env.home, ".claude")).Stat(env.project, id)
	if err != nil || info.Title != "CLAIMED-TITLE" {
		t.Errorf("the claimed session's transcript in the folder: %+v, %v; want the title CLAIMED-TITLE", info, err)
	}

	// A mode the parked CLI cannot take (bypass without WithAllowBypassPermissions) refuses the claim.
	refused := v2.Park(ctx, append(env.opts, park...)...)
	_, err = refused.Claim(ctx, v2.ClaimOptions{Cwd: env.project, PermissionMode: v2.PermissionModeBypassPermissions})
	var ce *v2.ClaimError
	if !errors.As(err, &ce) || !errors.Is(err, v2.ErrNotClaimed) {
		t.Errorf("Claim in bypassPermissions: %v, want a *ClaimError", err)
	} else {
		t.Logf("the CLI's refusal: %v", err)
	}

	for _, bad := range []v2.Option{v2.WithTrustedProject(), v2.WithResume("11111111-2222-4333-8444-555555555555")} {
		p := v2.Park(ctx, append(env.opts, bad)...)
		var oe *v2.OptionError
		if _, err := p.Claim(ctx, v2.ClaimOptions{Cwd: env.project}); !errors.As(err, &oe) {
			t.Errorf("Park with a refused option: %v, want an *OptionError", err)
		}
	}
	untaken := v2.Park(ctx, append(env.opts, park...)...)
	<-untaken.Ready()
	if err := untaken.Close(); err != nil {
		t.Errorf("Close of an unclaimed Parked: %v", err)
	}
}
