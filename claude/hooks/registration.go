package hooks

import (
	"math"
	"strings"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Registration is the hooks field of the CLI's initialize request: by event name, the callbacks
// the CLI calls back with hook_callback requests. The SDK registers one callback per event
// (CallbackIDFor), so each list has one entry.
type Registration map[string][]CallbackMatcher

// CallbackMatcher is one entry of a Registration, as the CLI reads it.
type CallbackMatcher struct {
	// Matcher is the CLI's matcher: "" for every request of the event, else an exact list of tool
	// (or other) names, "|" for the empty list (see Engine.CLIMatcher).
	Matcher         string   `json:"matcher,omitempty"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	// Timeout is how many seconds the CLI waits for the answer (CLITimeout).
	Timeout int `json:"timeout"`
	// OnFailure is "block" on events that guard an action: the CLI denies when the SDK cannot
	// answer.
	OnFailure string `json:"onFailure,omitempty"`
}

// callbackMargin is how much longer the CLI waits for a hook than the SDK's own timeouts, so that
// the SDK always answers first, with its own fail-closed answer.
const callbackMargin = 5 * time.Second

// CLITimeout is the timeout, in whole seconds, the SDK registers with the CLI for event e: the
// longest chain of e (ChainTimeout) plus callbackMargin, rounded up.
func (x *Engine) CLITimeout(e shared.HookEvent) int {
	return int(math.Ceil((x.ChainTimeout(e) + callbackMargin).Seconds()))
}

// Registration returns the hooks of the CLI's initialize request: one callback per event with
// handlers (base and scoped), its matcher a superset of the handlers' (the engine filters
// exactly), its timeout above the chain's (CLITimeout), and onFailure "block" where the event
// guards an action. With everySubagentStop, SubagentStop is registered for every subagent even
// without a handler (a scope bound to a subagent that starts later can then end without a new
// initialize). It returns nil when there is nothing to register.
func (x *Engine) Registration(everySubagentStop bool) Registration {
	var reg Registration
	for _, e := range x.Events() {
		m := CallbackMatcher{Matcher: x.CLIMatcher(e), HookCallbackIDs: []string{string(CallbackIDFor(e))}, Timeout: x.CLITimeout(e)}
		if e.GuardsAction() {
			m.OnFailure = "block"
		}
		if reg == nil {
			reg = Registration{}
		}
		reg[string(e)] = []CallbackMatcher{m}
	}
	if everySubagentStop {
		e := shared.HookEventSubagentStop
		if ms, ok := reg[string(e)]; !ok || ms[0].Matcher != "" {
			if reg == nil {
				reg = Registration{}
			}
			reg[string(e)] = []CallbackMatcher{{HookCallbackIDs: []string{string(CallbackIDFor(e))}, Timeout: x.CLITimeout(e)}}
		}
	}
	return reg
}

// Covers reports whether the registration old makes the CLI send every request that reg needs:
// each event of reg is in old with a matcher at least as broad, a timeout at least as long and the
// same onFailure.
func (old Registration) Covers(reg Registration) bool {
	for e, ms := range reg {
		o, ok := old[e]
		if !ok || len(o) == 0 || len(ms) == 0 {
			if len(ms) > 0 {
				return false
			}
			continue
		}
		n, p := ms[0], o[0]
		if p.Timeout < n.Timeout || p.OnFailure != n.OnFailure || !matcherCovers(p.Matcher, n.Matcher) {
			return false
		}
	}
	return true
}

// matcherCovers reports whether the CLI matcher old matches every name that m matches. Both are
// what CLIMatcher makes: "" (everything) or an exact list ("|" is the empty one).
func matcherCovers(old, m string) bool {
	if old == "" {
		return true
	}
	if m == "" {
		return false
	}
	have := map[string]bool{}
	for _, n := range strings.Split(old, "|") {
		have[n] = true
	}
	for _, n := range strings.Split(m, "|") {
		if n != "" && !have[n] {
			return false
		}
	}
	return true
}
