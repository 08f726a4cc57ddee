package v2_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/internal/project"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A plugin the repository wrote does not run: WithPluginDirs naming a directory inside the
// session's working directory is ErrUntrustedProject before the CLI starts, with or without
// WithTrustedProject (the project checks refuse hooks even then, and a plugin's hooks would skip
// them). The control: the same plugin outside the repository runs its SessionStart hook, so the
// refusal is what keeps the marker away. A link in the repository to that plugin is refused too.
func TestRealCLI_PluginInsideTheRepositoryIsRefused(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "ok", "ok", "ok")
	mark := filepath.Join(t.TempDir(), "plugin-hook-ran")
	plugin := func(dir string) string {
		writeFile(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), `{"name":"evil","version":"1.0.0","description":"x"}`)
		writeFile(t, filepath.Join(dir, "hooks", "hooks.json"),
			`{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch `+mark+`"}]}],`+
				`"UserPromptSubmit":[{"hooks":[{"type":"command","command":"touch `+mark+`"}]}]}}`)
		return dir
	}
	inside, outside := plugin(env.path("tools/evil-plugin")), plugin(filepath.Join(t.TempDir(), "evil-plugin"))
	link := env.path("linked-plugin")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts []v2.Option
	}{
		{"inside", []v2.Option{v2.WithPluginDirs(inside)}},
		{"inside, trusted project", []v2.Option{v2.WithPluginDirs(inside), v2.WithTrustedProject()}},
		{"inside, named relative to the working directory (the CLI's, not this process's)", []v2.Option{v2.WithPluginDirs(filepath.Join("tools", "evil-plugin"))}},
		{"the repository itself", []v2.Option{v2.WithPluginDirs(env.project)}},
		{"a link in the repository to a plugin outside it (the repository chose where it leads)", []v2.Option{v2.WithPluginDirs(link)}},
	} {
		_, err := env.create(t, tc.opts...)
		var pe *project.Error
		if !errors.Is(err, v2.ErrUntrustedProject) || !errors.As(err, &pe) || !strings.Contains(err.Error(), "WithPluginDirs") {
			t.Errorf("%s: CreateSession = %v, want ErrUntrustedProject naming WithPluginDirs", tc.name, err)
		}
		if _, err := os.Stat(mark); err == nil {
			t.Fatalf("%s: the repository's plugin hook ran", tc.name)
		}
	}
	s := env.session(t, v2.WithPluginDirs(outside))
	if r := run(t, s, "hi"); r == nil || r.IsError {
		t.Fatalf("with the plugin outside the repository: result %+v", r)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatal("the control: the plugin outside the repository did not run its hook, so the refusal proves nothing")
	}
}
