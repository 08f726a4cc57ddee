// Package childenv is the SDK's one environment policy for every process it starts: the CLI
// (claude/subprocess) and Go-side command hooks (claude/internal/commandhook, v2.CommandHandler).
//
// A program that uses the SDK from inside a Claude Code session (a script the agent runs)
// inherits the variables that session sets for the processes it starts. They tie a process to
// the parent session (its id, its messaging socket and token, its PID, its project directory), so
// a child of the SDK must not inherit them; Build drops them from the inherited environment.
package childenv

import (
	"os"
	"strings"
)

// parentSession are the variables a running Claude Code session sets for the processes it starts
// (CLI 2.1.330: its Bash tool, hooks, MCP servers and plugins). CLAUDECODE makes the CLI refuse to
// start at all.
var parentSession = map[string]bool{
	"CLAUDECODE":                                  true,
	"CLAUDE_CODE_SESSION_ID":                      true,
	"CLAUDE_CODE_CHILD_SESSION":                   true,
	"CLAUDE_CODE_SESSION_ATTENDED":                true,
	"CLAUDE_CODE_CHILD_NOTES_DIR":                 true,
	"CLAUDE_CODE_ENTRYPOINT":                      true,
	"CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS":         true,
	"CLAUDE_CODE_MESSAGING_SOCKET":                true,
	"CLAUDE_CODE_MESSAGING_TOKEN":                 true,
	"CLAUDE_CODE_STARTER_MAY_HOLD_CONNECTOR_FILE": true,
	"CLAUDE_CODE_CHROME_MCP_ORG_DENIED":           true,
	"CLAUDE_PID":                                  true,
	"CLAUDE_PROJECT_DIR":                          true,
	"CLAUDE_ENV_FILE":                             true,
	"CLAUDE_EFFORT":                               true,
	"CLAUDE_PLUGIN_ROOT":                          true,
	"CLAUDE_PLUGIN_DATA":                          true,
}

// IsParentSession reports whether key is a variable of the parent Claude Code session, which
// Build drops from the inherited environment.
func IsParentSession(key string) bool { return parentSession[key] }

// Build returns a child's environment: base (os.Environ() if nil) without the parent session's
// variables, then each of extra in order, which win over base (a variable set explicitly, such
// as WithEnv's CLAUDE_PROJECT_DIR, is kept). CLAUDECODE is dropped from extra too.
func Build(base []string, extra ...[]string) []string {
	if base == nil {
		base = os.Environ()
	}
	set := map[string]bool{}
	n := len(base)
	for _, e := range extra {
		n += len(e)
		for _, kv := range e {
			k, _, _ := strings.Cut(kv, "=")
			set[k] = true
		}
	}
	env := make([]string, 0, n)
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !set[k] && !parentSession[k] {
			env = append(env, kv)
		}
	}
	for _, e := range extra {
		for _, kv := range e {
			if k, _, _ := strings.Cut(kv, "="); k != "CLAUDECODE" {
				env = append(env, kv)
			}
		}
	}
	return env
}
