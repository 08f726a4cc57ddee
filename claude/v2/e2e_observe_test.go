package v2_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// obsRecorder keeps observations; the session's observer goroutine calls it.
type obsRecorder struct{ records[v2.Observation] }

// Observe records o.
func (r *obsRecorder) Observe(o v2.Observation) { r.add(o) }

// rtRecorder keeps the round trips of WithRoundTripTrace.
type rtRecorder = records[shared.RoundTrip]

// teeCLI returns a CLI path that runs the real CLI with everything the SDK writes to it copied
// to the returned log file.
func teeCLI(t *testing.T) (path, log string) {
	t.Helper()
	dir := t.TempDir()
	path, log = filepath.Join(dir, "claude"), filepath.Join(dir, "stdin.jsonl")
	script := fmt.Sprintf("#!/bin/sh\ntee %q | %q \"$@\"\n", log, claudetest.RequireCLI(t))
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, log
}

// An observer sees every tool call (started, finished with its output, in parallel batches too)
// and every result, and costs no round trip: with only a PreToolUse hook for Write, the Bash calls
// cause no hook_callback at all, no other event is registered in initialize, and the one Write
// call costs exactly one round trip.
func TestRealCLI_ObserverSeesEveryToolCallWithoutRoundTrips(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_s1", "Bash", bash("echo one")),
			claudetest.ToolsReply(
				claudetest.ToolUse{ID: "toolu_p1", Name: "Bash", Input: bash("echo p1")},
				claudetest.ToolUse{ID: "toolu_p2", Name: "Bash", Input: bash("echo p2")},
				claudetest.ToolUse{ID: "toolu_p3", Name: "Bash", Input: bash("echo p3")},
			),
			claudetest.ToolReply("toolu_f1", "Bash", bash("exit 3")),
			claudetest.ToolReply("toolu_w1", "Write", map[string]any{"file_path": filepath.Join(p, "w.txt"), "content": "w"}),
			claudetest.TextReply("done"),
		}
	})
	bin, stdinLog := teeCLI(t)
	var writes recorder[*shared.PreToolUseHookInput]
	var obs obsRecorder
	var rts rtRecorder
	var s *v2.Session
	for try := 0; ; try++ {
		var err error
		s, err = env.create(t, v2.WithCLIPath(bin), v2.WithAllowedTools("Bash", "Write"),
			v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: "Write", Handler: writes.handler(nil)}}}),
			v2.WithObserver(&obs), v2.WithRoundTripTrace(rts.add))
		// ETXTBSY: a process forked by a parallel test may still hold the new script open.
		if err != nil && strings.Contains(err.Error(), "text file busy") && try < 20 {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatalf("CreateSession: %v", err)
		}
		break
	}
	res := run(t, s, "go")
	if res.IsError || res.Result != "done" {
		t.Fatalf("result: %+v", res)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	// The round trips: one, for the Write call's PreToolUse.
	var got []string
	for _, rt := range rts.all() {
		got = append(got, rt.Subtype+" "+string(rt.Event))
		if rt.Read.IsZero() || rt.Decoded.Before(rt.Read) || rt.Answered.Before(rt.Decoded) || rt.Written.Before(rt.Answered) {
			t.Errorf("round trip %s: read %v, decoded %v, answered %v, written %v: want them non-zero and in this order",
				rt.RequestID, rt.Read, rt.Decoded, rt.Answered, rt.Written)
		}
	}
	if diff := cmp.Diff([]string{"hook_callback PreToolUse"}, got); diff != "" {
		t.Errorf("round trips (-want +got):\n%s", diff)
	}
	if w := writes.all(); len(w) != 1 || w[0].ToolName != "Write" {
		t.Errorf("the Write hook saw %d calls", len(w))
	}

	// initialize registered PreToolUse, for Write only, and no other event.
	if reg := initializeHooks(t, stdinLog); !cmp.Equal(reg, map[string][]string{"PreToolUse": {"Write"}}) {
		t.Errorf("initialize registered %v, want PreToolUse for Write only", reg)
	}

	// The observations: the session, each call started then finished, the result, the end.
	o := obs.all()
	if len(o) < 2 {
		t.Fatalf("%d observations", len(o))
	}
	if st, ok := o[0].(*v2.SessionStarted); !ok || st.SessionID != s.SessionID() || st.Info.CLIVersion == "" {
		t.Errorf("first observation %#v, want SessionStarted", o[0])
	}
	if _, ok := o[len(o)-1].(*v2.SessionEnded); !ok {
		t.Errorf("last observation %T, want SessionEnded", o[len(o)-1])
	}
	started := map[string]int{}
	finished := map[string]*v2.ToolFinished{}
	var turns int
	for i, x := range o {
		switch v := x.(type) {
		case *v2.ToolStarted:
			started[v.ToolUseID] = i
		case *v2.ToolFinished:
			finished[v.ToolUseID] = v
			if si, ok := started[v.ToolUseID]; !ok || si > i {
				t.Errorf("%s finished before it started", v.ToolUseID)
			}
		case *v2.TurnEnded:
			turns++
		}
	}
	ids := []string{"toolu_s1", "toolu_p1", "toolu_p2", "toolu_p3", "toolu_f1", "toolu_w1"}
	if len(started) != len(ids) || len(finished) != len(ids) || turns != 1 {
		t.Fatalf("%d started, %d finished, %d turns; want %d, %d, 1", len(started), len(finished), turns, len(ids), len(ids))
	}
	for _, id := range ids {
		f := finished[id]
		if f == nil {
			t.Errorf("%s: no ToolFinished", id)
			continue
		}
		if f.NoResult || f.Duration <= 0 || f.SessionID != s.SessionID() {
			t.Errorf("%s: %+v", id, f)
		}
		wantErr := id == "toolu_f1"
		if f.IsError != wantErr {
			t.Errorf("%s: is_error %v, want %v (content %q)", id, f.IsError, wantErr, f.ContentText())
		}
	}
	for _, id := range []string{"toolu_p1", "toolu_p2", "toolu_p3"} {
		var out struct {
			Stdout string `json:"stdout"`
		}
		f := finished[id]
		if f == nil {
			continue
		}
		if err := json.Unmarshal(f.Result, &out); err != nil || strings.TrimSpace(out.Stdout) != strings.TrimPrefix(id, "toolu_") || f.ToolName != "Bash" {
			t.Errorf("%s: tool %s, result %s (%v)", id, f.ToolName, f.Result, err)
		}
	}
	if !env.exists("w.txt") {
		t.Error("the Write call did not run")
	}
}

// initializeHooks returns the events and matchers of the initialize request in a stdin log.
func initializeHooks(t *testing.T, log string) map[string][]string {
	t.Helper()
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Request struct {
				Subtype string `json:"subtype"`
				Hooks   map[string][]struct {
					Matcher string `json:"matcher"`
				} `json:"hooks"`
			} `json:"request"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil || l.Request.Subtype != "initialize" {
			continue
		}
		out := map[string][]string{}
		for e, ms := range l.Request.Hooks {
			for _, m := range ms {
				out[e] = append(out[e], m.Matcher)
			}
			slices.Sort(out[e])
		}
		return out
	}
	t.Fatalf("no initialize request in %s", log)
	return nil
}

// A panicking observer does not break the session: the turn completes, the other observer sees
// everything, and Close returns nil.
func TestRealCLI_PanickingObserver(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{claudetest.ToolReply("toolu_01", "Bash", bash("echo hi")), claudetest.TextReply("done")}
	})
	var obs obsRecorder
	s := env.session(t, v2.WithAllowedTools("Bash"),
		v2.WithObserver(v2.ObserverFunc(func(v2.Observation) { panic("observer bug") })),
		v2.WithObserver(&obs))
	res := run(t, s, "go")
	if res.IsError || res.Result != "done" {
		t.Fatalf("result: %+v", res)
	}
	if res := run(t, s, "again"); res.IsError {
		t.Fatalf("second turn: %+v", res)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	var kinds []string
	for _, o := range obs.all() {
		kinds = append(kinds, strings.TrimPrefix(fmt.Sprintf("%T", o), "*v2."))
	}
	want := []string{"SessionStarted", "ToolStarted", "ToolFinished", "TurnEnded", "TurnEnded", "SessionEnded"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("observations (-want +got):\n%s", diff)
	}
}

// What an observer sees compared with blocking hooks: ToolStarted before PreToolUse runs (so a call
// that a hook denies is started, then finished with is_error and the reason), ToolFinished after
// PostToolUse answered, with the output as the hook rewrote it (updatedToolOutput).
func TestRealCLI_ObserverVersusBlockingHooks(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_ok", "Bash", bash("echo original")),
			claudetest.ToolReply("toolu_no", "Bash", bash("echo denied")),
			claudetest.TextReply("done"),
		}
	})
	var mu sync.Mutex
	var order []string
	note := func(s string) {
		mu.Lock()
		order = append(order, s)
		mu.Unlock()
	}
	var obs obsRecorder
	s := env.session(t, v2.WithAllowedTools("Bash"),
		v2.WithHooks(shared.Hooks{
			shared.HookEventPreToolUse: {{Handler: shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
				note("pre " + in.ToolUseID)
				if in.ToolUseID == "toolu_no" {
					return shared.Deny("no-DENIED-4711"), nil
				}
				return nil, nil
			})}},
			shared.HookEventPostToolUse: {{Handler: shared.OnPostToolUse(func(_ context.Context, in *shared.PostToolUseHookInput) (shared.HookOutput, error) {
				note("post " + in.ToolUseID)
				return &shared.SyncHookOutput{HookSpecificOutput: &shared.PostToolUseOutput{
					UpdatedToolOutput: map[string]any{"stdout": "REPLACED", "stderr": "", "interrupted": false, "isImage": false}}}, nil
			})}},
		}),
		v2.WithObserver(v2.ObserverFunc(func(o v2.Observation) {
			switch v := o.(type) {
			case *v2.ToolStarted:
				note("started " + v.ToolUseID)
			case *v2.ToolFinished:
				note("finished " + v.ToolUseID)
			}
			obs.Observe(o)
		})))
	run(t, s, "go")
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	mu.Lock()
	got := append([]string(nil), order...)
	mu.Unlock()
	before := func(a, b string) bool {
		ia, ib := slices.Index(got, a), slices.Index(got, b)
		return ia >= 0 && ib >= 0 && ia < ib
	}
	// The observer runs on its own goroutine: only the orders the stream fixes are asserted.
	for _, p := range [][2]string{
		{"started toolu_ok", "finished toolu_ok"}, {"post toolu_ok", "finished toolu_ok"},
		{"pre toolu_ok", "finished toolu_ok"}, {"started toolu_no", "finished toolu_no"}, {"pre toolu_no", "finished toolu_no"},
	} {
		if !before(p[0], p[1]) {
			t.Errorf("want %q before %q in %q", p[0], p[1], got)
		}
	}
	if slices.Contains(got, "post toolu_no") {
		t.Errorf("PostToolUse ran for the denied call: %q", got)
	}
	for _, o := range obs.all() {
		f, ok := o.(*v2.ToolFinished)
		if !ok {
			continue
		}
		switch f.ToolUseID {
		case "toolu_ok":
			if f.IsError || !strings.Contains(string(f.Result), "REPLACED") || !strings.Contains(f.ContentText(), "REPLACED") {
				t.Errorf("toolu_ok: is_error %v, result %s, content %q; want the rewritten output", f.IsError, f.Result, f.ContentText())
			}
		case "toolu_no":
			if !f.IsError || !strings.Contains(f.ContentText(), "no-DENIED-4711") {
				t.Errorf("toolu_no: is_error %v, content %q; want the denial", f.IsError, f.ContentText())
			}
		}
	}
}

// ToolStarted.Input is what its doc says (issue 12 item 6): the input as the CLI parsed it, with
// the defaults it filled in (Edit's replace_all, which the model did not send), and before a
// PreToolUse rewrite (the tool runs with the rewritten input; ToolStarted keeps the CLI's).
func TestRealCLI_ToolStartedInputIsTheCLIs(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(p string) []claudetest.Reply {
		if err := os.WriteFile(filepath.Join(p, "f.txt"), []byte("alpha\n"), 0o644); err != nil {
			t.Error(err)
		}
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_r", "Read", map[string]any{"file_path": filepath.Join(p, "f.txt")}),
			claudetest.ToolReply("toolu_e", "Edit", map[string]any{"file_path": filepath.Join(p, "f.txt"), "old_string": "alpha", "new_string": "beta"}),
			claudetest.TextReply("done"),
		}
	})
	var obs obsRecorder
	s := env.session(t, v2.WithAllowedTools("Read", "Edit"), v2.WithObserver(&obs),
		v2.WithHook(shared.HookEventPreToolUse, "Edit", shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
			in2 := in.ToolInput.Clone()
			in2["new_string"] = "gamma"
			return shared.AllowWithInput(in2), nil
		})))
	run(t, s, "edit")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var input map[string]any
	for _, o := range obs.all() {
		if st, ok := o.(*v2.ToolStarted); ok && st.ToolUseID == "toolu_e" {
			if err := json.Unmarshal(st.Input, &input); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string]any{"file_path": env.path("f.txt"), "old_string": "alpha", "new_string": "beta", "replace_all": false}
	if diff := cmp.Diff(want, input); diff != "" {
		t.Errorf("ToolStarted.Input of the Edit (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(env.path("f.txt")); string(b) != "gamma\n" {
		t.Errorf("the file holds %q: the rewritten input did not run", b)
	}
}
