package v2_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// bashAndWrite is a fake model that runs Bash to write bash.txt, then Write to write write.txt,
// in the project.
func bashAndWrite(p string) []claudetest.Reply {
	return []claudetest.Reply{
		claudetest.ToolReply("toolu_pb", "Bash", bash("echo b > "+p+"/bash.txt")),
		claudetest.ToolReply("toolu_pw", "Write", map[string]any{"file_path": p + "/write.txt", "content": "w"}),
		claudetest.TextReply("done"),
	}
}

// WithProjectConfigRoot: the project settings come from the trusted root (which denies Bash), not
// from the working directory (whose own settings deny Write).
func TestRealCLI_ProjectConfigRoot(t *testing.T) {
	t.Parallel()
	for _, useRoot := range []bool{false, true} {
		t.Run(fmt.Sprintf("root=%v", useRoot), func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, bashAndWrite)
			root := t.TempDir()
			writeFile(t, filepath.Join(root, ".claude", "settings.json"), `{"permissions":{"deny":["Bash"]}}`)
			writeFile(t, env.path(".claude/settings.json"), `{"permissions":{"deny":["Write"]}}`)
			opts := []v2.Option{v2.WithAllowedTools("Bash", "Write")}
			if useRoot {
				opts = append(opts, v2.WithProjectConfigRoot(root))
			}
			run(t, env.session(t, opts...), "go")
			if got := [2]bool{env.exists("bash.txt"), env.exists("write.txt")}; got != [2]bool{!useRoot, useRoot} {
				t.Errorf("root %v: bash.txt, write.txt written = %v", useRoot, got)
			}
		})
	}
}

// WithManagedSettings: a policy deny rule holds against WithAllowedTools and WithSettings allow
// rules. An allow rule at that tier, which WithManagedSettings refuses (passed here with
// WithExtraArgs), is applied by CLI 2.1.330: the reason the option takes restrictive keys only.
func TestRealCLI_ManagedSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		opts    []v2.Option
		written [2]bool // bash.txt, write.txt
	}{
		{"none", []v2.Option{v2.WithAllowedTools("Bash", "Write")}, [2]bool{true, true}},
		{"deny Bash", []v2.Option{v2.WithAllowedTools("Bash", "Write"), v2.WithSettings(`{"permissions":{"allow":["Bash"]}}`),
			v2.WithManagedSettings(`{"permissions":{"deny":["Bash"]}}`)}, [2]bool{false, true}},
		{"allow, raw", []v2.Option{v2.WithExtraArgs(`--managed-settings={"permissions":{"allow":["Bash","Write"]}}`)}, [2]bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, bashAndWrite)
			run(t, env.session(t, tc.opts...), "go")
			if got := [2]bool{env.exists("bash.txt"), env.exists("write.txt")}; got != tc.written {
				t.Errorf("bash.txt, write.txt written = %v, want %v", got, tc.written)
			}
		})
	}
}

// WithoutPermissionPrompts: a command that would prompt is denied, and the model is told why.
func TestRealCLI_NoPermissionPrompts(t *testing.T) {
	t.Parallel()
	for _, none := range []bool{false, true} {
		t.Run(fmt.Sprintf("none=%v", none), func(t *testing.T) {
			t.Parallel()
			env := newRealEnv(t, bashAndWrite)
			var opts []v2.Option
			if none {
				opts = append(opts, v2.WithoutPermissionPrompts())
			}
			msgs, _ := query(t, env.session(t, opts...), "go")
			tr := toolResults(msgs)["toolu_pb"]
			if env.exists("bash.txt") || !tr.IsError {
				t.Errorf("none %v: the command ran", none)
			}
			if got := strings.Contains(tr.ContentText(), "no approval surface"); got != none {
				t.Errorf("none %v: the model is told there is no approval surface: %v; %.200q", none, got, tr.ContentText())
			}
		})
	}
}
