package v2_test

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// pluginAgentModel is a fake model whose main agent calls the agent agentType (the plugin agent
// "probe:helper") once, in the foreground; the subagent (its system prompt holds subagentPrompt)
// makes the call of subagentCall(cmd).
func pluginAgentModel(agentType, cmd string) func(string, claudetest.Request) claudetest.Reply {
	return func(p string, r claudetest.Request) claudetest.Reply {
		if strings.Contains(r.System, subagentPrompt) {
			return subagentCall(cmd)(p, r)
		}
		if _, ok := r.LastToolResult(); ok {
			return claudetest.TextReply("done")
		}
		return claudetest.ToolReply("toolu_ag1", "Agent", map[string]any{
			"description": "help", "prompt": "HELP-WITH-THIS", "subagent_type": agentType, "run_in_background": false})
	}
}

// probePlugin writes the plugin "probe" into dir with one agent "helper" whose frontmatter asks
// for mode: in agents/helper.md, or, with manifestPath set, at that path of the plugin named by
// plugin.json's "agents" field.
func probePlugin(t *testing.T, dir, mode, manifestPath string) {
	t.Helper()
	manifest := `{"name":"probe","version":"1.0.0","description":"x"}`
	agent := filepath.Join(dir, "agents", "helper.md")
	if manifestPath != "" {
		manifest = `{"name":"probe","version":"1.0.0","description":"x","agents":["./` + manifestPath + `"]}`
		agent = filepath.Join(dir, manifestPath)
	}
	writeFile(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), manifest)
	writeFile(t, agent, helperAgentFile(mode))
}

// helperAgentFile is the agent file of "helper" (its system prompt holds subagentPrompt) with
// permissionMode mode.
func helperAgentFile(mode string) string {
	return "---\nname: helper\ndescription: Helps\npermissionMode: " + mode + "\n---\n" + subagentPrompt + "\n"
}

// zipDir writes the files under dir into a zip archive at path (names relative to dir).
func zipDir(t *testing.T, dir, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// The CLI ignores the permissionMode of a plugin's agent (CLI 2.1.330 and 2.1.332 log "Plugin
// agent file ... sets permissionMode, which is ignored for plugin agents"): the subagent runs
// in the session's mode, and the session's guard decides its calls. So the SDK does not read a
// plugin's agents (nor a .zip plugin): a plugin agent's mode cannot make a guard skip a call.
// This pins that: the plugin agent asks for auto or acceptEdits (in agents/, at a path its
// plugin.json names, in a .zip), and the session's guard is still asked for the subagent's
// Write or rm, and denies it. A CLI that starts honouring the mode fails this test, and the SDK
// must then refuse such a plugin as it refuses an agent of WithAgents. The control: the same
// agent file among the user's agents (accepted with WithAllowUnenforcedHooks) runs its Write
// unasked, so the assertion sees a mode the CLI honours.
func TestRealCLI_PluginAgentModeIsIgnored(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, mode, manifestPath string
		zip                      bool
		cmd                      string // the subagent's Bash command; "": a Write
		guard                    func(*guardCounter) v2.Option
	}{
		{"agents/, auto, can_use_tool callback", "auto", "", false, "", (*guardCounter).callback},
		{"agents/, acceptEdits, PermissionRequest hook of Bash", "acceptEdits", "", false, "rm %s/victim.txt", func(g *guardCounter) v2.Option { return g.hook("Bash") }},
		{"plugin.json's agents path, auto, PermissionRequest hook of Write", "auto", "more/helper.md", false, "", func(g *guardCounter) v2.Option { return g.hook("Write") }},
		{"a .zip plugin, auto, can_use_tool callback", "auto", "", true, "", (*guardCounter).callback},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var g guardCounter
			env := newRealEnvHandler(t, pluginAgentModel("probe:helper", tc.cmd))
			writeFile(t, env.path("victim.txt"), "v")
			dir := filepath.Join(t.TempDir(), "probe")
			probePlugin(t, dir, tc.mode, tc.manifestPath)
			if tc.zip {
				zipDir(t, dir, dir+".zip")
				dir += ".zip"
			}
			run(t, env.session(t, tc.guard(&g), v2.WithPluginDirs(dir)), "get help")
			if n := len(subRequests(env)); n < 2 {
				t.Fatalf("the plugin's agent made no tool call (%d subagent requests); the test shows nothing", n)
			}
			ran := env.exists("by-agent.txt") || !env.exists("victim.txt")
			if ran || g.fired.Load() != 1 {
				t.Errorf("the subagent's call ran %v, the guard was asked %d time(s); want not run, asked once (the CLI ignores a plugin agent's permissionMode)", ran, g.fired.Load())
			}
		})
	}
}

// The control of TestRealCLI_PluginAgentModeIsIgnored: the plugin's agent file, put among the
// user's agents, is run in its mode (auto) and its Write goes ahead unasked.
func TestRealCLI_PluginAgentModeIsIgnoredControl(t *testing.T) {
	t.Parallel()
	var g guardCounter
	env := newRealEnvHandler(t, pluginAgentModel("helper", ""))
	writeFile(t, filepath.Join(env.home, ".claude", "agents", "helper.md"), helperAgentFile("auto"))
	run(t, env.session(t, g.callback(), v2.WithAllowUnenforcedHooks()), "get help")
	if !env.exists("by-agent.txt") || g.fired.Load() != 0 {
		t.Errorf("the user's agent in auto: written %v, guard asked %d time(s); want written, never asked", env.exists("by-agent.txt"), g.fired.Load())
	}
}
