package v2_test

import (
	"iter"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// userPrompts returns the prompts the SDK wrote, in order.
func (r *replayRun) userPrompts(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, m := range r.stdin(t) {
		if m["type"] == "user" {
			msg, _ := m["message"].(map[string]any)
			c, _ := msg["content"].(string)
			out = append(out, c)
		}
	}
	return out
}

// A Query that finds another Receive iterating yields ErrBusy and sends nothing (issue 12 item 9):
// the prompt is not written, so a retry sends it once. The fake expects "third" right after
// "first": a "second" on the wire fails the conversation.
func TestReplay_BusyQuerySendsNothing(t *testing.T) {
	t.Parallel()
	r := newReplay(t, replayInit+expectUser("first")+sendResult("one")+expectUser("third")+sendResult("three")+"eof\n")
	s := r.session(t)
	ctx := testCtx(t)
	if err := s.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	next, stop := iter.Pull2(s.Receive(ctx))
	if m, err, ok := next(); !ok || err != nil {
		t.Fatalf("Receive: %v %v %v", m, err, ok)
	} else if res, _ := m.(*shared.ResultMessage); res == nil || res.Result != "one" {
		t.Fatalf("Receive yielded %#v, want the result of the first prompt", m)
	}
	// The Receive above is suspended inside its loop: it still iterates.
	var got []error
	for m, err := range s.Query(ctx, "second") {
		if m != nil {
			t.Errorf("busy Query yielded %T", m)
		}
		got = append(got, err)
	}
	if diff := cmp.Diff([]error{v2.ErrBusy}, got, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("busy Query (-want +got):\n%s", diff)
	}
	stop()
	if res := run(t, s, "third"); res.Result != "three" {
		t.Fatalf("result %+v", res)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"first", "third"}, r.userPrompts(t)); diff != "" {
		t.Errorf("prompts sent (-want +got):\n%s", diff)
	}
}
