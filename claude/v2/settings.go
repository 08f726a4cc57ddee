package v2

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// SettingsCommandHook is a "type":"command" hook that the CLI itself runs (a settings hook, the
// design spec's "external script" phase): the CLI starts Command through a shell with the event's
// input JSON on stdin. Exit 0 with JSON on stdout is read like a Go hook's answer; exit 2 blocks
// with stderr as the reason; other exit codes are non-blocking errors; a timeout fails open (the
// tool runs). The CLI runs these in parallel with the session's Go hooks; a deny from either side
// wins. See docs/HOOKS.md.
type SettingsCommandHook struct {
	// Matcher uses the CLI's semantics, not the SDK's: "" or "*" is every name, a plain list such
	// as "Write|Edit" is exact names, anything else an unanchored JavaScript regular expression.
	Matcher string
	// Command is run through a shell in the project directory.
	Command string
	// Timeout is rounded up to whole seconds; zero leaves the CLI's default.
	Timeout time.Duration
}

// SettingsPromptHook is a "type":"prompt" hook: the CLI asks the model, in a side request, whether
// the action may go ahead (Prompt is the question; "$ARGUMENTS" in it is replaced by the event's
// input JSON) and reads {"ok": bool, "reason": string}. ok false blocks (for PreToolUse the tool
// is not run and the turn ends); an answer that is not such JSON lets the action go ahead.
type SettingsPromptHook struct {
	// Matcher, as in SettingsCommandHook.
	Matcher string
	Prompt  string
	// Timeout is rounded up to whole seconds; zero leaves the CLI's default.
	Timeout time.Duration
}

// settingsHook is one entry of a settings matcher's "hooks" list.
type settingsHook struct {
	Type    string `json:"type"`
	Command string `json:"command,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
	Timeout int    `json:"timeout,omitzero"`
}

// settingsMatcher is one entry of a settings event's list.
type settingsMatcher struct {
	Matcher string         `json:"matcher,omitempty"`
	Hooks   []settingsHook `json:"hooks"`
}

// settingsHookCounts returns the number of hooks per event in merged settings (mergedSettings's
// output), for checkSettingsHooks.
func settingsHookCounts(merged []byte) (map[string]int, error) {
	var top struct {
		Hooks map[string][]settingsMatcher `json:"hooks"`
	}
	if err := json.Unmarshal(merged, &top); err != nil {
		return nil, fmt.Errorf("v2: the settings' \"hooks\" cannot be read: %w", err)
	}
	n := map[string]int{}
	for e, ms := range top.Hooks {
		for _, m := range ms {
			n[e] += len(m.Hooks)
		}
		if n[e] == 0 {
			delete(n, e)
		}
	}
	return n, nil
}

// writeSettingsFile writes the merged settings to a new temporary file, mode 0600, and returns
// its path and the number of hooks per event in it.
func (o *config) writeSettingsFile() (string, map[string]int, error) {
	data, err := o.mergedSettings()
	if err != nil {
		return "", nil, err
	}
	counts, err := settingsHookCounts(data)
	if err != nil {
		return "", nil, err
	}
	f, err := os.CreateTemp("", "agent-sdk-settings-*.json") // mode 0600
	if err != nil {
		return "", nil, fmt.Errorf("v2: settings file: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", nil, fmt.Errorf("v2: settings file: %w", err)
	}
	return f.Name(), counts, nil
}

func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Seconds()))
}

func sortedEvents[T any](m map[shared.HookEvent][]T) []shared.HookEvent {
	es := make([]shared.HookEvent, 0, len(m))
	for e := range m {
		es = append(es, e)
	}
	slices.Sort(es)
	return es
}
