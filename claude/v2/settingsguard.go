package v2

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The settings hooks (WithCommandHooks, WithPromptHooks, WithSettings's "hooks") are run by the
// CLI, which reads settings from tiers the program does not own: the user's, the project's and
// the local settings file, and the machine's managed settings. mergedSettings asserts
// "disableAllHooks": false at the flag tier, which outranks the first three; checkSettingsHooks
// asks the CLI, once it runs, whether it will run every settings hook, and refuses the session
// when a tier above the program (the policy tier, the CLI's safe or bare mode) switched them off,
// or when a hook the program did not register may allow or rewrite a tool call after the
// program's guards (settings hooks, Go hooks, a permission callback) approved it. See
// docs/HOOKS.md, "Settings tiers and the SDK's guards".

// hooksListing is the part of the CLI's get_hooks_listing answer the check reads (CLI 2.1.330).
type hooksListing struct {
	Hooks []struct {
		Event       string `json:"event"`
		Source      string `json:"source"`
		SourceLabel string `json:"sourceLabel"`
		PluginName  string `json:"pluginName"`
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

// rewritingEvents are the events whose hook answers may allow a tool call past the permission
// check or carry updatedInput: a hook of another source answering there can run a tool call the
// program's guards refused to see (a PreToolUse allow skips PermissionRequest and can_use_tool) or
// change its input after they approved it (CLI 2.1.330 applies the rewrite after them).
var rewritingEvents = []string{"PreToolUse", "PermissionRequest"}

// trustedHookSources are the sources whose hooks are the program's or its administrator's.
var trustedHookSources = []string{"flagSettings", "policySettings", "builtinHook"}

// checkSettingsHooks fails with ErrHooksNotEnforced unless the CLI will run every settings hook
// the session wrote (want: the number per event) and, when the session guards tool calls, no hook
// of an untrusted source sits on a rewriting event. It costs one control round trip, only for
// sessions with settings hooks or a guard of tool calls.
func (s *Session) checkSettingsHooks(ctx context.Context, want map[string]int) error {
	guards := s.guardsToolCalls(want)
	if len(want) == 0 && !guards {
		return nil
	}
	l, err := s.hooksListing(ctx)
	if err != nil {
		return err
	}
	if err := l.verify(want, guards); err != nil {
		return err
	}
	s.guardsChecked.Store(guards)
	return nil
}

// checkScopedGuards is checkSettingsHooks for hooks registered while the session runs
// (RegisterScoped): when they guard tool calls and the session did not guard them from its
// start, the listing is read now, so that a hook of the repository's settings cannot outrun a
// guard added later either. The CLI reads its settings hooks once, at start.
func (s *Session) checkScopedGuards(ctx context.Context, hooks shared.Hooks) error {
	if s.guardsChecked.Load() || !slices.ContainsFunc(rewritingEvents, func(e string) bool { return len(hooks[shared.HookEvent(e)]) > 0 }) {
		return nil
	}
	l, err := s.hooksListing(ctx)
	if err != nil {
		return err
	}
	if err := l.verify(nil, true); err != nil {
		return err
	}
	s.guardsChecked.Store(true)
	return nil
}

// hooksListing asks the CLI for its hook listing (get_hooks_listing); a CLI that cannot answer
// fails closed.
func (s *Session) hooksListing(ctx context.Context) (*hooksListing, error) {
	raw, err := s.t.Request(ctx, getHooksListingRequest{})
	if err != nil {
		return nil, fmt.Errorf("%w: the CLI did not list its hooks (get_hooks_listing), so the session's hooks may not run or may be outrun by a hook of the repository's settings; use a CLI that answers it (2.1.330 does): %v", ErrHooksNotEnforced, err)
	}
	var l hooksListing
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("%w: the CLI's hook listing is unreadable (%v), so the session's hooks may not run or may be outrun", ErrHooksNotEnforced, err)
	}
	return &l, nil
}

// guardsToolCalls reports whether the session guards tool calls: settings hooks (want) or Go
// hooks on a rewriting event, or a permission callback (WithCanUseTool).
func (s *Session) guardsToolCalls(want map[string]int) bool {
	if s.o.canUseTool != nil {
		return true
	}
	s.regMu.Lock()
	defer s.regMu.Unlock()
	for _, e := range rewritingEvents {
		if want[e] > 0 || len(s.sent[e]) > 0 {
			return true
		}
	}
	return false
}

// verify is checkSettingsHooks's decision on a listing; guards is whether the session guards tool
// calls, which a hook of another source on a rewriting event outruns.
func (l *hooksListing) verify(want map[string]int, guards bool) error {
	for _, h := range l.Hooks {
		if guards && slices.Contains(rewritingEvents, h.Event) && !slices.Contains(trustedHookSources, h.Source) {
			from := firstNonBlank(h.SourceLabel, h.Source)
			if h.PluginName != "" {
				from += " " + h.PluginName
			}
			return fmt.Errorf("%w: a %s hook of %s (%q) runs next to the session's guards (Go hooks, settings hooks, WithCanUseTool) and may allow or rewrite a tool call after they approved it; leave that settings source out (WithSettingSources naming only the sources to load: WithSettingSources() for none) or remove the hook",
				ErrHooksNotEnforced, h.Event, from, h.CommandText)
		}
	}
	if len(want) == 0 {
		return nil
	}
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
		if h.Source == "flagSettings" && !h.Disabled {
			got[h.Event]++
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
