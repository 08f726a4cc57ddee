package v2_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// withoutSessionID returns a CLI that is the real one minus the SDK's --session-id=..., so that a
// --resume among WithExtraArgs reaches the CLI as WithResume's value did (the SDK passes no
// --session-id when it resumes).
func withoutSessionID(t *testing.T) v2.Option {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the wrapper is a shell script")
	}
	script := filepath.Join(t.TempDir(), "claude")
	body := "#!/bin/sh\nfor a in \"$@\"; do shift; case \"$a\" in --session-id=*) ;; *) set -- \"$@\" \"$a\";; esac; done\nexec '" + claudetest.RequireCLI(t) + "' \"$@\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return v2.WithCLIPath(script)
}

// A value must never become a flag (issue 12 item 13). "--resume --dangerously-skip-permissions"
// is read by CLI 2.1.330 as a --resume without a value and its permission bypass: the model's
// `touch` runs although nothing allows it. The SDK refuses a resume value that is not a UUID
// before any CLI starts, and passes every value as "--flag=value", which the CLI reads as the
// flag's value whatever it holds: the same value in that form turns nothing off.
func TestRealCLI_ValueCannotBecomeAFlag(t *testing.T) {
	t.Parallel()
	const bypass = "--dangerously-skip-permissions"
	// The CLI refuses its bypass to root unless IS_SANDBOX=1; the tests may run as root, and the
	// hole must show as it does for every other user.
	asNonRoot := v2.WithEnv("IS_SANDBOX=1")
	t.Run("WithResume refuses it", func(t *testing.T) {
		t.Parallel()
		env := touchEnv(t)
		s, err := env.create(t, v2.WithResume(bypass))
		var se *v2.SessionIDError
		if !errors.As(err, &se) {
			if s != nil {
				run(t, s, "touch a")
			}
			t.Fatalf("CreateSession(WithResume(%q)): %v (a.txt created: %v), want a *v2.SessionIDError", bypass, err, env.exists("a.txt"))
		}
		if env.exists("a.txt") || len(env.api.Requests()) != 0 {
			t.Errorf("the refused session reached the model (%d requests) or ran the tool", len(env.api.Requests()))
		}
	})
	// The form the SDK passes values in: the CLI reads the whole token as --resume's value (its
	// error quotes it as the value provided) and nothing runs.
	const asValue = `Provided value "` + bypass + `"`
	t.Run("the --flag=value form", func(t *testing.T) {
		t.Parallel()
		env := touchEnv(t)
		s, err := env.create(t, withoutSessionID(t), asNonRoot, v2.WithExtraArgs("--resume="+bypass))
		if err == nil {
			run(t, s, "touch a")
		}
		if err == nil || !strings.Contains(err.Error(), asValue) {
			t.Errorf("CreateSession: %v, want the CLI to refuse %q as --resume's value", err, bypass)
		}
		if env.exists("a.txt") {
			t.Errorf("--resume=%s turned permissions off: the unapproved touch ran", bypass)
		}
	})
	// The SDK's old form, through the raw escape hatch: the CLI reads the token as its bypass flag
	// and --resume as having no value (with the bypass on and a valid session the tool would run).
	// This is the hole, and the proof that the subtests above could fail.
	t.Run("the separate-argument form is read as a flag", func(t *testing.T) {
		t.Parallel()
		env := touchEnv(t)
		s, err := env.create(t, withoutSessionID(t), asNonRoot, v2.WithExtraArgs("--resume", bypass))
		if err == nil {
			run(t, s, "touch a")
		}
		if err != nil && strings.Contains(err.Error(), asValue) {
			t.Skipf("CLI now reads %q after --resume as its value: %v", bypass, err)
		}
	})
}
