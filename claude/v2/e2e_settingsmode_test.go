package v2_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A defaultMode in the user's settings file in which a guard never runs (acceptEdits, auto) is
// ErrGuardCannotFire at CreateSession, naming the file and WithPermissionMode: without a mode of
// the program's, the CLI starts in the file's. With WithAllowUnenforcedHooks the reason shows: the
// CLI writes the file and never asks the guard. With WithPermissionMode(PermissionModeDefault)
// the program's mode wins and the guard runs. A defaultMode that keeps asking (plan) is accepted.
func TestRealCLI_SettingsDefaultModeThatSkipsAGuardIsRefused(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"acceptEdits", "auto"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			env := newRealEnvHandler(t, func(p string, r claudetest.Request) claudetest.Reply {
				if _, ok := r.LastToolResult(); ok {
					return claudetest.TextReply("done")
				}
				return claudetest.ToolReply("toolu_w", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "x"})
			})
			file := filepath.Join(env.home, ".claude", "settings.json")
			writeFile(t, file, `{"permissions":{"defaultMode":"`+mode+`"}}`)
			var g guardCounter
			_, err := env.create(t, g.callback())
			if !errors.Is(err, v2.ErrGuardCannotFire) || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "WithPermissionMode(PermissionModeDefault)") {
				t.Fatalf("CreateSession = %v, want ErrGuardCannotFire naming %s and WithPermissionMode", err, file)
			}

			loose := env.session(t, g.callback(), v2.WithAllowUnenforcedHooks())
			if r := run(t, loose, "write"); r == nil || r.IsError {
				t.Fatalf("loosened: result %+v", r)
			}
			if _, err := os.Stat(env.path("w.txt")); err != nil || g.fired.Load() != 0 {
				t.Fatalf("loosened: written %v, guard asked %d times; want the file written unasked (what the refusal prevents)", err == nil, g.fired.Load())
			}
			if w := strings.Join(loose.Info().Warnings, "\n"); !strings.Contains(w, "defaultMode "+mode) {
				t.Errorf("loosened: no warning names the file's mode: %q", w)
			}
			if err := os.Remove(env.path("w.txt")); err != nil {
				t.Fatal(err)
			}

			s := env.session(t, g.callback(), v2.WithPermissionMode(v2.PermissionModeDefault))
			run(t, s, "write")
			if _, err := os.Stat(env.path("w.txt")); err == nil || g.fired.Load() != 1 {
				t.Errorf("with WithPermissionMode(default): written %v, guard asked %d times; want the guard's deny", err == nil, g.fired.Load())
			}
		})
	}
	t.Run("plan", func(t *testing.T) {
		t.Parallel()
		env := textEnv(t, "ok")
		writeFile(t, filepath.Join(env.home, ".claude", "settings.json"), `{"permissions":{"defaultMode":"plan"}}`)
		var g guardCounter
		if _, err := env.create(t, g.callback()); err != nil {
			t.Fatalf("CreateSession with a user defaultMode of plan: %v", err)
		}
	})
}
