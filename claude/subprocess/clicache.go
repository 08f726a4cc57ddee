package subprocess

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// installedCLI returns the CLI that claudetest's installer (`go run
// github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/installcli`) put in the per-user cache,
// DIR/agent-sdk-go/claude-cli-VERSION/node_modules/.bin/claude under os.UserCacheDir (~/.cache on
// Linux); of several versions, the newest. FindCLI looks there last, after the CLI path option,
// $CLAUDE_CLI_PATH and PATH, so that the README's "Try it" installs a CLI a program then finds.
// tried describes the place looked at, for the not-found error.
func installedCLI() (path, tried string) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", "the installer's per-user cache (" + err.Error() + ")"
	}
	root := filepath.Join(cache, "agent-sdk-go")
	tried = filepath.Join(root, "claude-cli-VERSION")
	entries, _ := os.ReadDir(root)
	type install struct {
		version []int
		dir     string
	}
	var installs []install
	for _, e := range entries {
		if v, ok := strings.CutPrefix(e.Name(), "claude-cli-"); ok {
			if version, ok := parseVersion(v); ok {
				installs = append(installs, install{version, e.Name()})
			}
		}
	}
	slices.SortFunc(installs, func(a, b install) int { return slices.Compare(a.version, b.version) })
	name := "claude"
	if runtime.GOOS == "windows" {
		name = "claude.cmd"
	}
	for _, in := range slices.Backward(installs) {
		p := filepath.Join(root, in.dir, "node_modules", ".bin", name)
		if CheckCLIPath(p) == nil {
			return p, tried
		}
	}
	return "", tried
}

// parseVersion reads "2.1.332" as [2 1 332].
func parseVersion(s string) ([]int, bool) {
	var v []int
	for f := range strings.SplitSeq(s, ".") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, false
		}
		v = append(v, n)
	}
	return v, len(v) == 3
}
