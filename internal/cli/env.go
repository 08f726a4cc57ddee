package cli

import (
	"os"
	"strings"
)

// APIKey is the dummy API key given to the CLI.
const APIKey = "sk-ant-test"

// Env returns the environment for a CLI run against a fake API: the
// current environment minus variables that could leak from the host
// (CLAUDECODE, CLAUDE_CONFIG_DIR, ANTHROPIC_*, CLAUDE_CODE_*, HOME), plus
// HOME=home, ANTHROPIC_BASE_URL=baseURL, ANTHROPIC_API_KEY=sk-ant-test and
// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1.
func Env(home, baseURL string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !leaks(kv) {
			env = append(env, kv)
		}
	}
	return append(env,
		"HOME="+home,
		"ANTHROPIC_BASE_URL="+baseURL,
		"ANTHROPIC_API_KEY="+APIKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
}

// leaks reports whether a KEY=VALUE entry must not reach the CLI.
func leaks(kv string) bool {
	k, _, _ := strings.Cut(kv, "=")
	switch {
	case k == "CLAUDECODE", k == "CLAUDE_CONFIG_DIR", k == "HOME":
		return true
	case strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "CLAUDE_CODE_"):
		return true
	}
	return false
}
