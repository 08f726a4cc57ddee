package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// What a guard decides is what the CLI does (issue 12, "What it must show"). For every event that
// guards an action (shared.HookEvent.GuardsAction), every output shape a handler can return, and
// chains of them, the chain runs through the executor, its answer is encoded with
// AnswerOf and JSON, and decoded as CLI 2.1.330 reads it (docs/HOOKS.md,
// protocol/cli-2.1.330.md §4.3 and §5). The answer must mean exactly what the handlers said by the
// documented merge rules; a handler that denied, blocked, failed or returned something the SDK
// cannot send is always the event's denial, never an allow or "no opinion".

// kind is a verdict, ordered by strength for the merge rules (deny > defer > ask > allow).
type kind int

const (
	kNone kind = iota
	kAllow
	kAsk
	kDefer
	kStop // UserPromptSubmit / UserPromptExpansion continue:false: the prompt is not sent
	kDeny
	kFail // (expected only) the handler failed or its output is unusable: the event's denial
)

func (k kind) String() string {
	return [...]string{"none", "allow", "ask", "defer", "stop", "deny", "fail"}[k]
}

// cliVerdict is what an answer means to the CLI: its kind and the tool input it runs with (nil: the
// original).
type cliVerdict struct {
	Kind  string
	Input map[string]any
}

// meaning is what one handler's answer says for an event.
type meaning struct {
	kind  kind
	input shared.ToolInput // a rewrite
}

// shape is one way a handler can answer.
type shape struct {
	name string
	run  func() (shared.HookOutput, error) // may panic
	mean func(e shared.HookEvent) meaning
}

func always(k kind) func(shared.HookEvent) meaning {
	return func(shared.HookEvent) meaning { return meaning{kind: k} }
}

// only means m for the events listed, and fails elsewhere.
func only(m meaning, events ...shared.HookEvent) func(shared.HookEvent) meaning {
	return func(e shared.HookEvent) meaning {
		for _, x := range events {
			if x == e {
				return m
			}
		}
		return meaning{kind: kFail}
	}
}

const (
	evPre  = shared.HookEventPreToolUse
	evPerm = shared.HookEventPermissionRequest
	evMS   = shared.HookEventPreModelSwitch
	evUPS  = shared.HookEventUserPromptSubmit
	evUPE  = shared.HookEventUserPromptExpansion
	// evSkill guards a skill's shell command (CLI 2.1.332).
	evSkill = shared.HookEventPreSkillShellCommand
)

// wordKind is what a permission word means where the CLI reads it.
var wordKind = map[string]kind{"allow": kAllow, "deny": kDeny, "ask": kAsk, "defer": kDefer}

// outputShapes returns every output shape the public types can express, each with its meaning for
// every guarding event. Rewrites carry the shape's name as their command, so that the test can
// tell which rewrite the CLI got.
func outputShapes() []shape {
	rewrite := func(name string) shared.ToolInput { return shared.ToolInput{"command": name} }
	out := func(o shared.HookOutput) func() (shared.HookOutput, error) {
		return func() (shared.HookOutput, error) { return o, nil }
	}
	var shapes []shape
	add := func(name string, run func() (shared.HookOutput, error), mean func(shared.HookEvent) meaning) {
		shapes = append(shapes, shape{name, run, mean})
	}
	// No opinion, typed nils, async answers, failures.
	add("nil", out(nil), always(kNone))
	add("typed nil *SyncHookOutput", out((*shared.SyncHookOutput)(nil)), always(kFail))
	add("typed nil *AsyncHookOutput", out((*shared.AsyncHookOutput)(nil)), always(kFail))
	add("typed nil *AsyncWork", out((*shared.AsyncWork)(nil)), always(kFail))
	add("async", out(shared.AsyncHookOutput{Async: true}), always(kFail))
	add("shared.Async", out(shared.Async(0, func(context.Context) (shared.HookOutput, error) { return nil, nil })), always(kFail))
	add("error", func() (shared.HookOutput, error) { return nil, errors.New("boom") }, always(kFail))
	add("allow with an error", func() (shared.HookOutput, error) { return shared.Allow(), errors.New("boom") }, always(kFail))
	add("panic", func() (shared.HookOutput, error) { panic("boom") }, always(kFail))
	// The helpers.
	add("Allow", out(shared.Allow()), always(kAllow))
	add("AllowWithInput", func() (shared.HookOutput, error) { return shared.AllowWithInput(rewrite("AllowWithInput")), nil },
		func(e shared.HookEvent) meaning {
			return only(meaning{kAllow, rewrite("AllowWithInput")}, evPre, evPerm)(e)
		})
	add("Deny", out(shared.Deny("d")), always(kDeny))
	add("Block", out(shared.Block("b")), always(kDeny))
	add("Block without reason", out(shared.Block("")), always(kDeny))
	add("Ask", out(shared.Ask("a")), only(meaning{kind: kAsk}, evPre))
	add("Stop", out(shared.Stop("s")), func(e shared.HookEvent) meaning {
		if e == evUPS || e == evUPE {
			return meaning{kind: kStop}
		}
		return meaning{kind: kNone}
	})
	add("AddContext", out(shared.AddContext("c")), only(meaning{kind: kNone}, evPre, evUPS, evUPE))
	// Top-level decision words.
	for _, w := range []string{"allow", "approve", "deny", "block", "ask", "defer", "maybe", ""} {
		o := &shared.SyncHookOutput{Decision: shared.Decision(w), Reason: "r"}
		var m func(shared.HookEvent) meaning
		switch w {
		case "allow", "approve":
			m = always(kAllow)
		case "deny", "block":
			m = always(kDeny)
		case "ask", "defer":
			m = only(meaning{kind: wordKind[w]}, evPre)
		case "maybe":
			m = always(kFail)
		case "":
			m = always(kNone)
		}
		add("top-level decision "+w, out(o), m)
	}
	add("top-level updatedInput", func() (shared.HookOutput, error) {
		return &shared.SyncHookOutput{UpdatedInput: rewrite("top-level updatedInput")}, nil
	}, only(meaning{kNone, rewrite("top-level updatedInput")}, evPre))
	add("top-level allow, specific deny", out(&shared.SyncHookOutput{Decision: "allow", HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "deny"}}),
		only(meaning{kind: kDeny}, evPre))
	// Typed outputs of each event, answering every event.
	for _, w := range []string{"allow", "deny", "ask", "defer", "", "maybe"} {
		var m meaning
		switch w {
		case "":
			m = meaning{kind: kNone}
		case "maybe":
			m = meaning{kind: kFail}
		default:
			m = meaning{kind: wordKind[w]}
		}
		add("PreToolUseOutput "+w, out(&shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: shared.Decision(w), PermissionDecisionReason: "r"}}), only(m, evPre))
	}
	add("PreToolUseOutput rewrite", func() (shared.HookOutput, error) {
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{UpdatedInput: rewrite("PreToolUseOutput rewrite")}}, nil
	}, only(meaning{kNone, rewrite("PreToolUseOutput rewrite")}, evPre))
	add("PreToolUseOutput ask + rewrite", func() (shared.HookOutput, error) {
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.PreToolUseOutput{PermissionDecision: "ask", UpdatedInput: rewrite("PreToolUseOutput ask + rewrite")}}, nil
	}, only(meaning{kAsk, rewrite("PreToolUseOutput ask + rewrite")}, evPre))
	perm := func(r *shared.PermissionResult) shared.HookOutput {
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: r}}
	}
	add("PermissionRequestOutput allow", out(perm(&shared.PermissionResult{Behavior: shared.PermissionAllow})), only(meaning{kind: kAllow}, evPerm))
	add("PermissionRequestOutput allow + rewrite", func() (shared.HookOutput, error) {
		return perm(&shared.PermissionResult{Behavior: shared.PermissionAllow, UpdatedInput: rewrite("PermissionRequestOutput allow + rewrite")}), nil
	}, only(meaning{kAllow, rewrite("PermissionRequestOutput allow + rewrite")}, evPerm))
	add("PermissionRequestOutput deny", out(perm(&shared.PermissionResult{Behavior: shared.PermissionDeny, Message: "m"})), only(meaning{kind: kDeny}, evPerm))
	add("PermissionRequestOutput maybe", out(perm(&shared.PermissionResult{Behavior: "maybe"})), always(kFail))
	add("PermissionRequestOutput without decision", out(perm(nil)), only(meaning{kind: kNone}, evPerm))
	for _, w := range []string{"allow", "deny", "ask", ""} {
		m := meaning{kind: wordKind[w]}
		if w == "ask" {
			m = meaning{kind: kFail}
		}
		add("ModelSwitchOutput "+w, out(&shared.SyncHookOutput{HookSpecificOutput: &shared.ModelSwitchOutput{PermissionDecision: shared.Decision(w)}}), only(m, evMS))
	}
	add("UserPromptSubmitOutput", out(&shared.SyncHookOutput{HookSpecificOutput: &shared.UserPromptSubmitOutput{AdditionalContext: "c", SessionTitle: "t"}}), only(meaning{kind: kNone}, evUPS))
	add("PostToolUseOutput (of another event)", out(&shared.SyncHookOutput{HookSpecificOutput: &shared.PostToolUseOutput{AdditionalContext: "c"}}), always(kFail))
	add("typed nil PreToolUseOutput", out(&shared.SyncHookOutput{HookSpecificOutput: (*shared.PreToolUseOutput)(nil)}), always(kFail))
	add("typed nil RawSpecificOutput", out(&shared.SyncHookOutput{HookSpecificOutput: (*shared.RawSpecificOutput)(nil)}), always(kFail))
	// Raw outputs with each decision word, as the CLI reads them.
	raw := func(f map[string]any) shared.HookOutput {
		return &shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: f}}
	}
	for _, w := range []string{"allow", "deny", "ask", "defer", "approve", "block", "maybe"} {
		m := func(e shared.HookEvent) meaning {
			k, ok := wordKind[w]
			switch {
			case e == evPre && ok:
				return meaning{kind: k}
			case e == evMS && (w == "allow" || w == "deny"):
				return meaning{kind: k}
			}
			return meaning{kind: kFail}
		}
		add("raw permissionDecision "+w, out(raw(map[string]any{"permissionDecision": w})), m)
	}
	for _, w := range []string{"allow", "deny", "maybe", ""} {
		k := map[string]kind{"allow": kAllow, "deny": kDeny}[w]
		m := only(meaning{kind: k}, evPerm)
		if w == "maybe" || w == "" {
			m = always(kFail)
		}
		add("raw decision.behavior "+w, out(raw(map[string]any{"decision": map[string]any{"behavior": w, "message": "m"}})), m)
	}
	add("raw decision allow + rewrite", func() (shared.HookOutput, error) {
		return raw(map[string]any{"decision": map[string]any{"behavior": "allow", "updatedInput": map[string]any{"command": "raw decision allow + rewrite"}}}), nil
	}, only(meaning{kAllow, rewrite("raw decision allow + rewrite")}, evPerm))
	add("raw updatedInput", func() (shared.HookOutput, error) {
		return raw(map[string]any{"updatedInput": map[string]any{"command": "raw updatedInput"}}), nil
	}, only(meaning{kNone, rewrite("raw updatedInput")}, evPre))
	add("raw allow + updatedInput", func() (shared.HookOutput, error) {
		return raw(map[string]any{"permissionDecision": "allow", "updatedInput": map[string]any{"command": "raw allow + updatedInput"}}), nil
	}, only(meaning{kAllow, rewrite("raw allow + updatedInput")}, evPre))
	add("raw additionalContext", out(raw(map[string]any{"additionalContext": "c"})), only(meaning{kind: kNone}, evPre, evUPS, evUPE))
	add("raw unknown field", out(raw(map[string]any{"permissionDecision": "deny", "futureField": 1})), always(kFail))
	add("raw key in another case", out(raw(map[string]any{"PermissionDecision": "allow"})), always(kFail))
	add("raw wrong type", out(raw(map[string]any{"permissionDecision": 1})), always(kFail))
	add("raw hookEventName of another event", out(raw(map[string]any{"hookEventName": "PostToolUse"})), always(kFail))
	add("raw empty", out(raw(map[string]any{})), always(kNone))
	return shapes
}

// genInput is a fresh input for event e, with a tool call for tool events.
func genInput(e shared.HookEvent) shared.HookInput {
	in := shared.NewHookInput(e)
	b := in.Base()
	b.HookEventName, b.SessionID = e, "sess"
	if tc := shared.ToolCall(in); tc != nil {
		tc.ToolName, tc.ToolUseID = "Bash", "toolu_01"
		tc.ToolInput = shared.ToolInput{"command": "orig"}
	}
	return in
}

// cliReads decodes an answer as CLI 2.1.330 reads it for event e. An answer the CLI would find
// ambiguous or schema-invalid is a test failure: the SDK must never send one.
func cliReads(t *testing.T, e shared.HookEvent, b []byte) cliVerdict {
	t.Helper()
	var w struct {
		Continue *bool          `json:"continue"`
		Decision string         `json:"decision"`
		HSO      map[string]any `json:"hookSpecificOutput"`
		Async    bool           `json:"async"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("answer %s: %v", b, err)
	}
	if w.Async {
		t.Fatalf("async answer %s on %s: the CLI reads it as no decision", b, e)
	}
	if w.Decision != "" && w.Decision != "approve" && w.Decision != "block" {
		t.Fatalf("answer %s: decision %q is schema-invalid (the CLI ignores the whole answer)", b, w.Decision)
	}
	if w.HSO != nil && w.HSO["hookEventName"] != string(e) {
		return cliVerdict{Kind: "deny"} // the CLI blocks on a wrong event name
	}
	str := func(k string) string { s, _ := w.HSO[k].(string); return s }
	input := func(m map[string]any) map[string]any { in, _ := m["updatedInput"].(map[string]any); return in }
	switch e {
	case evPre:
		pd := str("permissionDecision")
		if pd != "" && wordKind[pd] == kNone {
			t.Fatalf("answer %s: permissionDecision %q is schema-invalid", b, pd)
		}
		if (w.Decision == "block") != (pd == "deny") && w.Decision != "" {
			t.Fatalf("answer %s: decision and permissionDecision disagree", b)
		}
		switch {
		case w.Decision == "block" || pd == "deny":
			return cliVerdict{Kind: "deny"}
		case pd != "":
			return cliVerdict{Kind: pd, Input: input(w.HSO)}
		case w.Decision == "approve":
			return cliVerdict{Kind: "allow", Input: input(w.HSO)}
		}
		return cliVerdict{Kind: "none", Input: input(w.HSO)}
	case evPerm:
		// The top-level decision means nothing for PermissionRequest: only decision.behavior.
		d, _ := w.HSO["decision"].(map[string]any)
		switch d["behavior"] {
		case "deny":
			return cliVerdict{Kind: "deny"}
		case "allow":
			return cliVerdict{Kind: "allow", Input: input(d)}
		case nil:
			if d != nil {
				t.Fatalf("answer %s: decision without behavior", b)
			}
			return cliVerdict{Kind: "none"}
		}
		t.Fatalf("answer %s: behavior %v is schema-invalid", b, d["behavior"])
	case evMS:
		switch pd := str("permissionDecision"); pd {
		case "deny", "allow":
			return cliVerdict{Kind: pd}
		case "":
			return cliVerdict{Kind: "none"}
		default:
			t.Fatalf("answer %s: model switch decision %q", b, pd)
		}
	case evSkill:
		// CLI 2.1.332 reads a PreSkillShellCommand (or PreToolUse) hookSpecificOutput first: deny,
		// ask, defer or an updatedInput block the command; then the top-level decision.
		switch pd := str("permissionDecision"); {
		case w.Decision == "block" || pd == "deny" || pd == "ask" || pd == "defer" || input(w.HSO) != nil:
			return cliVerdict{Kind: "deny"}
		case w.Decision == "approve":
			return cliVerdict{Kind: "allow"}
		}
		return cliVerdict{Kind: "none"}
	case evUPS, evUPE:
		switch {
		case w.Decision == "block":
			return cliVerdict{Kind: "deny"}
		case w.Continue != nil && !*w.Continue:
			return cliVerdict{Kind: "stop"}
		case w.Decision == "approve":
			return cliVerdict{Kind: "allow"}
		}
		return cliVerdict{Kind: "none"}
	}
	t.Fatalf("the test cannot read the answers of guarding event %s: teach cliReads its denial", e)
	return cliVerdict{}
}

// expect folds the meanings of a chain by the documented merge rules (docs/HOOKS.md, "Chains and
// ordering"): a failure, a deny or a defer ends the chain (a failure as the event's denial); the
// strongest decision wins; the last rewrite is sent; continue:false on a guarding event does not
// end the chain. It returns the verdict and how many handlers run.
func expect(ms []meaning) (cliVerdict, int) {
	k, in := kNone, shared.ToolInput(nil)
	for i, m := range ms {
		if m.kind == kFail || m.kind == kDeny {
			return cliVerdict{Kind: "deny"}, i + 1
		}
		if m.input != nil {
			in = m.input
		}
		if m.kind > k {
			k = m.kind
		}
		if m.kind == kDefer {
			return cliVerdict{Kind: "defer", Input: in}, i + 1
		}
	}
	v := cliVerdict{Kind: k.String()}
	if in != nil {
		v.Input = map[string]any(in)
	}
	return v, len(ms)
}

// runChain runs the shapes as one chain for event e and returns the CLI's reading of the answer,
// how many handlers ran, and the answer.
func runChain(t *testing.T, e shared.HookEvent, chain []shape, quiet *slog.Logger) (cliVerdict, int, []byte) {
	t.Helper()
	var cfgs []shared.HookConfig
	for _, s := range chain {
		cfgs = append(cfgs, shared.HookConfig{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return s.run() })})
	}
	x, err := New(shared.Hooks{e: cfgs}, Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	res := x.Run(context.Background(), genInput(e), "req")
	if res.Cancelled {
		t.Fatalf("chain cancelled")
	}
	w, err := AnswerOf(e, res.Output)
	if err != nil {
		// The merged answer is the executor's own: it must always be writable.
		t.Fatalf("WireOutput(%s, merged answer %#v): %v", e, res.Output, err)
	}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	return cliReads(t, e, b), res.Ran, b
}

func TestGeneratedGuardChainsOnTheWire(t *testing.T) {
	t.Parallel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	shapes := outputShapes()
	// The orders of allow / deny / ask / block / rewrite / error / ... for chains of three.
	short := map[string]bool{"nil": true, "Allow": true, "AllowWithInput": true, "Deny": true, "Block": true, "Ask": true,
		"error": true, "panic": true, "Stop": true, "typed nil *SyncHookOutput": true, "raw permissionDecision deny": true,
		"raw updatedInput": true, "raw decision.behavior allow": true, "raw decision allow + rewrite": true, "PreToolUseOutput defer": true,
		"top-level decision block": true, "ModelSwitchOutput allow": true, "AddContext": true}
	var three []shape
	for _, s := range shapes {
		if short[s.name] {
			three = append(three, s)
		}
	}
	if len(three) != len(short) {
		t.Fatalf("the chains of three name a shape that does not exist")
	}
	var guarding []shared.HookEvent
	for _, e := range shared.AllHookEvents() {
		if e.GuardsAction() {
			guarding = append(guarding, e)
		}
	}
	cases, denials := 0, 0
	check := func(t *testing.T, e shared.HookEvent, chain []shape) {
		ms := make([]meaning, len(chain))
		names := make([]string, len(chain))
		for i, s := range chain {
			ms[i], names[i] = s.mean(e), s.name
		}
		want, wantRan := expect(ms)
		got, ran, b := runChain(t, e, chain, quiet)
		cases++
		if want.Kind == "deny" {
			denials++
		}
		if diff := cmp.Diff(want, got); diff != "" || ran != wantRan {
			t.Errorf("%s chain [%s]: the CLI reads %+v from %s (ran %d, want %d); want %+v (-want +got):\n%s",
				e, strings.Join(names, " | "), got, b, ran, wantRan, want, diff)
		}
		// The invariant, whatever the merge rules: a handler that ran and denied, blocked, failed
		// or returned something unusable means the event's denial.
		for _, m := range ms[:min(ran, len(ms))] {
			if (m.kind == kDeny || m.kind == kFail) && got.Kind != "deny" {
				t.Fatalf("%s chain [%s]: a handler denied or failed, the CLI reads %s from %s", e, strings.Join(names, " | "), got.Kind, b)
			}
		}
	}
	for _, e := range guarding {
		t.Run(string(e), func(t *testing.T) {
			for _, a := range shapes {
				check(t, e, []shape{a})
				for _, b := range shapes {
					check(t, e, []shape{a, b})
				}
			}
			for _, a := range three {
				for _, b := range three {
					for _, c := range three {
						check(t, e, []shape{a, b, c})
					}
				}
			}
		})
	}
	t.Logf("%d guarding events, %d output shapes, %d chains checked (%d of them denials)", len(guarding), len(shapes), cases, denials)
	if want := len(guarding) * (len(shapes) + len(shapes)*len(shapes) + len(three)*len(three)*len(three)); cases != want {
		t.Errorf("%d cases, want %d", cases, want)
	}
}

// The paths of issue 12 items 1-3, one by one, as the CLI reads them (each was wrong before: a raw
// deny went out as {}, or as an allow after an Allow; a raw rewrite was lost; a PermissionRequest
// Block went out as a top-level block the CLI ignores, and lost to an earlier allow; a typed nil was
// "no opinion").
func TestGuardOutputsOnTheWire(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := func(o shared.HookOutput) shape {
		return shape{name: fmt.Sprintf("%T", o), run: func() (shared.HookOutput, error) { return o, nil }}
	}
	rawDeny := h(&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"permissionDecision": "deny"}}})
	rawRewrite := h(&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"updatedInput": map[string]any{"command": "echo safe"}}}})
	tests := []struct {
		name  string
		event shared.HookEvent
		chain []shape
		want  cliVerdict
		in    string // a text the answer must hold
	}{
		{"raw deny alone", evPre, []shape{rawDeny}, cliVerdict{Kind: "deny"}, ""},
		{"raw deny, then Allow", evPre, []shape{rawDeny, h(shared.Allow())}, cliVerdict{Kind: "deny"}, ""},
		{"Allow, then raw deny", evPre, []shape{h(shared.Allow()), rawDeny}, cliVerdict{Kind: "deny"}, ""},
		{"raw rewrite", evPre, []shape{rawRewrite}, cliVerdict{Kind: "none", Input: map[string]any{"command": "echo safe"}}, ""},
		{"raw rewrite, then Allow", evPre, []shape{rawRewrite, h(shared.Allow())}, cliVerdict{Kind: "allow", Input: map[string]any{"command": "echo safe"}}, ""},
		{"raw PermissionRequest deny", evPerm, []shape{h(&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"decision": map[string]any{"behavior": "deny"}}}})}, cliVerdict{Kind: "deny"}, ""},
		{"raw PreModelSwitch deny", evMS, []shape{h(&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"permissionDecision": "deny"}}})}, cliVerdict{Kind: "deny"}, ""},
		{"raw field the SDK cannot read", evPre, []shape{h(&shared.SyncHookOutput{HookSpecificOutput: &shared.RawSpecificOutput{Fields: map[string]any{"permissionDecision": "allow", "x": 1}}})}, cliVerdict{Kind: "deny"}, "cannot read"},
		{"PermissionRequest Block alone", evPerm, []shape{h(shared.Block("no"))}, cliVerdict{Kind: "deny"}, `"message":"no"`},
		{"PermissionRequest allow, then Block", evPerm, []shape{h(&shared.SyncHookOutput{HookSpecificOutput: &shared.PermissionRequestOutput{Decision: &shared.PermissionResult{Behavior: shared.PermissionAllow}}}), h(shared.Block("no"))}, cliVerdict{Kind: "deny"}, ""},
		{"PermissionRequest rewrite, then Allow", evPerm, []shape{h(shared.AllowWithInput(shared.ToolInput{"command": "echo safe"})), h(shared.Allow())}, cliVerdict{Kind: "allow", Input: map[string]any{"command": "echo safe"}}, ""},
		{"typed nil on PreToolUse", evPre, []shape{h((*shared.SyncHookOutput)(nil))}, cliVerdict{Kind: "deny"}, "typed nil"},
		{"typed nil, then Allow, on PermissionRequest", evPerm, []shape{h((*shared.SyncHookOutput)(nil)), h(shared.Allow())}, cliVerdict{Kind: "deny"}, "typed nil"},
		{"typed nil async on UserPromptSubmit", evUPS, []shape{h((*shared.AsyncHookOutput)(nil))}, cliVerdict{Kind: "deny"}, ""},
		{"AllowWithInput on UserPromptSubmit", evUPS, []shape{h(shared.AllowWithInput(shared.ToolInput{"a": "b"}))}, cliVerdict{Kind: "deny"}, "only meaningful"},
		{"Stop does not skip a later PreToolUse guard", evPre, []shape{h(shared.Stop("s")), h(shared.Deny("no"))}, cliVerdict{Kind: "deny"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, b := runChain(t, tt.event, tt.chain, quiet)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("the CLI reads %s (-want +got):\n%s", b, diff)
			}
			if !strings.Contains(string(b), tt.in) {
				t.Errorf("answer %s does not hold %q", b, tt.in)
			}
		})
	}
}
