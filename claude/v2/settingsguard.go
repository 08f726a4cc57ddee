package v2

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
)

// The settings hooks (WithCommandHooks, WithPromptHooks, WithSettings's "hooks") are run by the
// CLI, which reads settings from tiers the program does not own: the user's, the project's and
// the local settings file, and the machine's managed settings. mergedSettings asserts
// "disableAllHooks": false at the flag tier, which outranks the first three; checkSettingsHooks
// asks the CLI, once it runs, whether it will run every settings hook, and refuses the session
// when a tier above the program (the policy tier, the CLI's safe or bare mode) switched them off,
// or when a hook the program did not register may rewrite a tool's input after the program's
// hooks approved it. See docs/HOOKS.md, "Settings tiers and the SDK's guards".

// hooksListing is the part of the CLI's get_hooks_listing answer the check reads (CLI 2.1.330).
type hooksListing struct {
	Hooks []struct {
		Event       string `json:"event"`
		Source      string `json:"source"`
		SourceLabel string `json:"sourceLabel"`
		CommandText string `json:"commandText"`
		Disabled    bool   `json:"disabled"`
	} `json:"hooks"`
	Policy struct {
		DisabledByPolicy bool `json:"disabledByPolicy"`
		ManagedOnly      bool `json:"managedOnly"`
		PluginOnly       bool `json:"pluginOnly"`
		AllDisabled      bool `json:"allDisabled"`
	} `json:"policy"`
	SafeMode *struct{} `json:"safeMode"`
	BareMode *struct{} `json:"bareMode"`
}

// rewritingEvents are the events whose hook answers may carry updatedInput: a hook of another
// source answering there can change the tool's input after the program's hooks saw it.
var rewritingEvents = []string{"PreToolUse", "PermissionRequest"}

// trustedHookSources are the sources whose hooks are the program's or its administrator's.
var trustedHookSources = []string{"flagSettings", "policySettings", "builtinHook"}

// checkSettingsHooks fails with ErrHooksNotEnforced unless the CLI will run every settings hook
// the session wrote (want: the number per event) and no hook of an untrusted source shares a
// rewriting event with them. It costs one control round trip, only for sessions with settings
// hooks.
func (s *Session) checkSettingsHooks(ctx context.Context, want map[string]int) error {
	if len(want) == 0 {
		return nil
	}
	raw, err := s.t.Request(ctx, "get_hooks_listing", map[string]string{"subtype": "get_hooks_listing"})
	if err != nil {
		return fmt.Errorf("%w: the CLI did not list its hooks, so the settings hooks (WithCommandHooks, WithPromptHooks, WithSettings) may not run: %v", ErrHooksNotEnforced, err)
	}
	var l hooksListing
	if err := json.Unmarshal(raw, &l); err != nil {
		return fmt.Errorf("%w: the CLI's hook listing is unreadable (%v), so the settings hooks may not run", ErrHooksNotEnforced, err)
	}
	goGuards := map[string]bool{}
	s.regMu.Lock()
	for e := range s.sent {
		goGuards[e] = true
	}
	s.regMu.Unlock()
	return l.verify(want, goGuards)
}

// verify is checkSettingsHooks's decision on a listing; goGuards are the events of the session's
// Go hooks, which a rewriting hook of another source outruns as it does settings hooks.
func (l *hooksListing) verify(want map[string]int, goGuards map[string]bool) error {
	fail := func(why, fix string) error {
		return fmt.Errorf("%w: the CLI will not run the settings hooks (WithCommandHooks, WithPromptHooks, WithSettings's hooks): %s; %s", ErrHooksNotEnforced, why, fix)
	}
	const admin = "the machine's managed settings outrank the program's; have them changed, or guard with Go hooks (WithHooks), which they do not switch off"
	switch p := l.Policy; {
	case p.DisabledByPolicy:
		return fail("the managed settings set disableAllHooks", admin)
	case p.ManagedOnly:
		return fail("the managed settings set allowManagedHooksOnly", admin)
	case p.PluginOnly:
		return fail("the managed settings set strictPluginOnlyCustomization for hooks", admin)
	case p.AllDisabled:
		return fail("a settings tier above the program's sets disableAllHooks", admin)
	case l.SafeMode != nil:
		return fail("the CLI runs in safe mode (CLAUDE_CODE_SAFE_MODE, from the environment or a settings file's env)", "remove CLAUDE_CODE_SAFE_MODE from the environment and from ~/.claude/settings.json")
	case l.BareMode != nil:
		return fail("the CLI runs in bare mode (CLAUDE_CODE_SIMPLE, from the environment or a settings file's env)", "remove CLAUDE_CODE_SIMPLE from the environment and from ~/.claude/settings.json")
	}
	got := map[string]int{}
	for _, h := range l.Hooks {
		switch {
		case h.Source == "flagSettings" && !h.Disabled:
			got[h.Event]++
		case slices.Contains(rewritingEvents, h.Event) && (want[h.Event] > 0 || goGuards[h.Event]) && !slices.Contains(trustedHookSources, h.Source):
			return fail(fmt.Sprintf("a %s hook of %s (%q) runs next to the session's hooks and may rewrite the tool's input after they approved it", h.Event, firstNonBlank(h.SourceLabel, h.Source), h.CommandText),
				"leave that settings source out (WithSettingSources, or WithProjectConfigRoot for a trusted checkout) or remove the hook")
		}
	}
	for _, e := range sortedKeys(want) {
		if got[e] < want[e] {
			return fail(fmt.Sprintf("the CLI lists %d of the %d %s hooks as in force", got[e], want[e], e), "see the CLI's stderr (WithStderr) for why")
		}
	}
	return nil
}

// firstNonBlank returns the first non-blank string.
func firstNonBlank(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

func sortedKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
