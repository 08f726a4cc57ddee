package v2_test

import (
	"context"
	"errors"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// mcpStatusOf returns the status of the MCP server name.
func mcpStatusOf(t *testing.T, s *v2.Session, name string) string {
	t.Helper()
	st, err := s.MCPStatus(testCtx(t))
	if err != nil {
		t.Fatalf("MCPStatus: %v", err)
	}
	for _, m := range st {
		if m.Name == name {
			return m.Status
		}
	}
	return "absent"
}

// The typed control calls of the MCP servers, on an external stdio server: ReadMCPResource reads
// its ui:// resource through the CLI; ToggleMCPServer disables it (the CLI then refuses to read
// it) and enables it; ReconnectMCPServer connects it again. CLI 2.1.330 refuses both ReadMCPResource and
// ReconnectMCPServer for an in-process server (the SDK hosts it).
func TestRealCLI_ControlCallsMCP(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "one", "two", "three")
	srv := mcp.NewServer(&mcp.Implementation{Name: "db", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "query", Description: "query the db"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	bin := filepath.Join(t.TempDir(), "mcpstdio")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/hookwire/agent-sdk-go/internal/testkit/mcpstdio").CombinedOutput(); err != nil {
		t.Fatalf("building the stdio server: %v\n%s", err, out)
	}
	s := env.session(t, v2.WithMCPServer("db", mcptools.Server(srv)), v2.WithMCPStdioServer("ext", v2.MCPStdioServer{Command: bin}))
	ctx := testCtx(t)
	for mcpStatusOf(t, s, "ext") == "pending" { // each look is a round trip to the CLI; testCtx bounds it
	}
	// CLI 2.1.330 reads ui:// resources of external servers only.
	got, err := s.ReadMCPResource(ctx, "ext", "ui://mcpstdio/panel")
	if err != nil || len(got) != 1 || got[0].Text != "<p>PANEL</p>" || got[0].MimeType != "text/html" {
		t.Fatalf("ReadMCPResource = %+v, %v; want the panel", got, err)
	}
	var ce *shared.ControlError
	if _, err := s.ReadMCPResource(ctx, "db", "ui://x"); !errors.As(err, &ce) {
		t.Errorf("ReadMCPResource of an in-process server = %v, want the CLI's refusal", err)
	}
	if err := s.ToggleMCPServer(ctx, "ext", false); err != nil {
		t.Fatalf("ToggleMCPServer(false): %v", err)
	}
	if st := mcpStatusOf(t, s, "ext"); st != "disabled" {
		t.Errorf("status after ToggleMCPServer(false) = %q, want disabled", st)
	}
	if _, err := s.ReadMCPResource(ctx, "ext", "ui://mcpstdio/panel"); !errors.As(err, &ce) {
		t.Errorf("ReadMCPResource of the disabled server = %v, want the CLI's refusal", err)
	}
	if err := s.ToggleMCPServer(ctx, "ext", true); err != nil {
		t.Fatalf("ToggleMCPServer(true): %v", err)
	}
	if err := s.ReconnectMCPServer(ctx, "ext"); err != nil {
		t.Fatalf("ReconnectMCPServer: %v", err)
	}
	if st := mcpStatusOf(t, s, "ext"); st != "connected" {
		t.Errorf("status after ToggleMCPServer(true) and ReconnectMCPServer = %q, want connected", st)
	}
	if got, err := s.ReadMCPResource(ctx, "ext", "ui://mcpstdio/panel"); err != nil || len(got) != 1 {
		t.Errorf("ReadMCPResource after ReconnectMCPServer = %+v, %v", got, err)
	}
	if err := s.ReconnectMCPServer(ctx, "db"); !errors.As(err, &ce) { // CLI 2.1.330: "SDK servers should be handled in print.ts"
		t.Errorf("ReconnectMCPServer(in-process) = %v, want the CLI's refusal", err)
	}
}

// The typed control calls of settings, files, skills and usage, each with its effect.
func TestRealCLI_ControlCallsSession(t *testing.T) {
	t.Parallel()
	env := newRealEnvHandler(t, func(p string, r claudetest.Request) claudetest.Reply {
		var last claudetest.Message // the last user message (CLI 2.1.330 puts a system one after it)
		for _, m := range r.Messages {
			if m.Role == "user" {
				last = m
			}
		}
		for _, b := range last.Content {
			switch {
			case b.Type != "text":
			case strings.Contains(b.Text, "RUN-BASH"):
				return claudetest.ToolReply("toolu_b1", "Bash", bash("touch "+filepath.Join(p, "bash-ran")))
			case strings.Contains(b.Text, "EDIT-IT"):
				return claudetest.ToolReply("toolu_e1", "Edit", map[string]any{"file_path": filepath.Join(p, "seeded.txt"), "old_string": "old", "new_string": "new"})
			}
		}
		return claudetest.TextReply("ok")
	})
	writeFile(t, env.path("seeded.txt"), "old text\n")
	writeFile(t, env.path("notes.txt"), "NOTES-CONTENT\n")
	s := env.session(t, v2.WithAllowedTools("Edit", "Bash"), v2.WithTrustedProject()) // UpdateSettings(SettingSourceLocal) needs the local settings loaded
	ctx := testCtx(t)

	// ApplyFlagSettings: a deny rule makes the CLI refuse the model's Bash call (the session
	// allows Bash).
	if err := s.ApplyFlagSettings(ctx, map[string]any{"permissions": map[string]any{"deny": []string{"Bash"}}}); err != nil {
		t.Fatalf("ApplyFlagSettings: %v", err)
	}
	run(t, s, "RUN-BASH")
	if last, _ := env.api.LastRequest(); env.exists("bash-ran") || !last.Contains("toolu_b1") {
		t.Error("Bash ran after ApplyFlagSettings(deny Bash), or the model never called it")
	}
	if err := s.ApplyFlagSettings(ctx, map[string]any{"disableAllHooks": true}); !errors.Is(err, v2.ErrGuardSetting) {
		t.Errorf("ApplyFlagSettings(disableAllHooks) = %v, want ErrGuardSetting", err)
	}

	// UpdateSettings writes the project's local settings file.
	if err := s.UpdateSettings(ctx, v2.SettingSourceLocal, map[string]string{"outputStyle": "Explanatory"}); err != nil {
		t.Fatalf("UpdateSettings: %v", err)
	}
	if b, err := os.ReadFile(env.path(".claude/settings.local.json")); err != nil || !strings.Contains(string(b), `"Explanatory"`) {
		t.Errorf("settings.local.json after UpdateSettings = %q, %v", b, err)
	}
	var ce *shared.ControlError
	if err := s.UpdateSettings(ctx, v2.SettingSourceLocal, map[string]string{"permissions": "x"}); !errors.As(err, &ce) {
		t.Errorf("UpdateSettings(permissions) = %v, want the CLI's refusal", err)
	}

	// ReadFile reads through the CLI.
	f, err := s.ReadFile(ctx, "notes.txt", v2.ReadFileOptions{})
	if err != nil || f.Contents != "NOTES-CONTENT\n" || f.AbsPath != env.path("notes.txt") {
		t.Errorf("ReadFile = %+v, %v", f, err)
	}

	// SeedReadState: an Edit of a file the model never read goes through.
	fi, err := os.Stat(env.path("seeded.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SeedReadState(ctx, env.path("seeded.txt"), fi.ModTime()); err != nil {
		t.Fatalf("SeedReadState: %v", err)
	}
	run(t, s, "EDIT-IT")
	if b, _ := os.ReadFile(env.path("seeded.txt")); string(b) != "new text\n" {
		last, _ := env.api.LastRequest()
		r, _ := last.LastToolResult()
		t.Errorf("seeded.txt after an Edit with SeedReadState = %q; tool result %s", b, r.Content)
	}

	// ReloadSkills finds a skill written after the start.
	writeFile(t, filepath.Join(env.home, ".claude/skills/late-skill/SKILL.md"), "---\nname: late-skill\ndescription: LATE-SKILL\n---\nDo it.\n")
	skills, err := s.ReloadSkills(ctx)
	if err != nil || !slices.ContainsFunc(skills, func(c shared.Command) bool { return c.Name == "late-skill" }) {
		t.Errorf("ReloadSkills = %+v, %v; want late-skill", skills, err)
	}
	if _, err := s.ReloadPlugins(ctx, v2.ReloadPluginsOptions{}); err != nil {
		t.Errorf("ReloadPlugins: %v", err)
	}
	if styles, err := s.ReloadOutputStyles(ctx); err != nil || len(styles) == 0 {
		t.Errorf("ReloadOutputStyles = %v, %v", styles, err)
	}
	si, err := s.Reinitialize(ctx)
	if err != nil || len(si.Commands) == 0 {
		t.Errorf("Reinitialize = %d commands, %v", len(si.Commands), err)
	}
	if moved, err := s.BackgroundTasks(ctx, "toolu_none"); err != nil || moved {
		t.Errorf("BackgroundTasks(unknown tool use) = %v, %v; want false", moved, err)
	}
	u, err := s.Usage(ctx, v2.UsageOptions{})
	if err != nil || u.Session.TotalDurationMS <= 0 || len(u.Session.ModelUsage) == 0 {
		t.Errorf("Usage = %+v, %v; want the session's figures", u, err)
	}
	if err := s.RenameSession(ctx, "renamed"); err != nil {
		t.Errorf("RenameSession: %v", err)
	}
}
