package v2_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Transcript pieces of the in-step tests: a message of a running turn, the interrupt the SDK
// must send (answered), and an interrupted turn's result.
const (
	sendStatus      = `send {"type":"system","subtype":"status","session_id":"s1"}` + "\n"
	expectInterrupt = `expect {"type":"control_request","request_id":"$capture:int","request":{"subtype":"interrupt"}}` + "\n"
	answerInterrupt = `send {"type":"control_response","response":{"subtype":"success","request_id":"$int","response":{"still_queued":[]}}}` + "\n"
	sendInterrupted = `send {"type":"result","subtype":"error_during_execution","is_error":true,"result":"","session_id":"s1","num_turns":1}` + "\n"
	interruptedTurn = expectInterrupt + answerInterrupt + sendInterrupted
)

// replayTwoFollows: the prompt "second" answered "two", then the end.
var replayTwoFollows = expectUser("second") + sendResult("two") + "eof\n"

// The odd orderings of prompts and results (issue 35 item 4), each on a fake CLI that fails the
// conversation when the SDK writes anything out of order: every Run answers its own prompt.
func TestReplay_EveryCallAnswersItsOwnPrompt(t *testing.T) {
	t.Parallel()
	t.Run("cancelled Query: interrupted at once, dropped by the next Run", func(t *testing.T) {
		t.Parallel()
		r := newReplay(t, replayInit+expectUser("first")+sendStatus+interruptedTurn+replayTwoFollows)
		s := r.session(t)
		ctx, cancel := context.WithCancel(testCtx(t))
		defer cancel()
		var errs []error
		for m, err := range s.Query(ctx, "first") {
			if m != nil {
				cancel() // the turn runs; its caller leaves
			}
			errs = append(errs, err)
		}
		if len(errs) != 2 || !errors.Is(errs[1], context.Canceled) {
			t.Fatalf("Query yielded errors %v, want nil then context.Canceled", errs)
		}
		if res := run(t, s, "second"); res.Result != "two" {
			t.Fatalf("Run after a cancelled Query: %q, want two", res.Result)
		}
		closeAndCheckPrompts(t, r, s, "first", "second")
	})
	t.Run("Query left by break: the next Run interrupts and drops the turn", func(t *testing.T) {
		t.Parallel()
		r := newReplay(t, replayInit+expectUser("first")+sendStatus+interruptedTurn+replayTwoFollows)
		s := r.session(t)
		for range s.Query(testCtx(t), "first") {
			break
		}
		if res := run(t, s, "second"); res.Result != "two" {
			t.Fatalf("Run after a Query left early: %q, want two", res.Result)
		}
		closeAndCheckPrompts(t, r, s, "first", "second")
	})
	t.Run("the abandoned turn had ended: its unread result is dropped", func(t *testing.T) {
		t.Parallel()
		r := newReplay(t, replayInit+expectUser("first")+sendStatus+sendResult("one")+expectInterrupt+answerInterrupt+replayTwoFollows)
		s := r.session(t)
		for range s.Query(testCtx(t), "first") {
			break
		}
		if res := run(t, s, "second"); res.Result != "two" {
			t.Fatalf("Run: %q, want two (not the first turn's one)", res.Result)
		}
		closeAndCheckPrompts(t, r, s, "first", "second")
	})
	t.Run("ctx ends while catching up: nothing sent, the next Run catches up", func(t *testing.T) {
		t.Parallel()
		r := newReplay(t, replayInit+expectUser("first")+sendStatus+
			expectInterrupt+answerInterrupt+"stderr caught-up-waiting\n"+ // no result: the drain waits
			interruptedTurn+replayTwoFollows)
		ctx, cancel := context.WithCancel(testCtx(t))
		defer cancel()
		s := r.session(t, v2.WithStderr(func(line string) {
			if strings.Contains(line, "caught-up-waiting") {
				cancel()
			}
		}))
		for range s.Query(testCtx(t), "first") {
			break
		}
		if _, err := s.Run(ctx, "second"); !errors.Is(err, context.Canceled) {
			t.Fatalf("Run whose ctx ended while catching up = %v, want context.Canceled", err)
		}
		if res := run(t, s, "second"); res.Result != "two" {
			t.Fatalf("Run: %q, want two", res.Result)
		}
		closeAndCheckPrompts(t, r, s, "first", "second")
	})
	t.Run("a Send not received: Run refuses, Receive reads it", func(t *testing.T) {
		t.Parallel()
		r := newReplay(t, replayInit+expectUser("first")+sendResult("one")+replayTwoFollows)
		s := r.session(t)
		ctx := testCtx(t)
		if err := s.Send(ctx, "first"); err != nil {
			t.Fatal(err)
		}
		for _, call := range []string{"Run", "Query"} {
			var err error
			if call == "Run" {
				_, err = s.Run(ctx, "second")
			} else {
				for _, err = range s.Query(ctx, "second") {
				}
			}
			if !errors.Is(err, v2.ErrTurnPending) || !strings.HasPrefix(err.Error(), "v2: "+call+": ") {
				t.Fatalf("%s with a Send unread = %v, want ErrTurnPending naming %s", call, err, call)
			}
		}
		var got []string
		for m, err := range s.Receive(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			if res, ok := m.(*shared.ResultMessage); ok {
				got = append(got, res.Result)
			}
		}
		if res := run(t, s, "second"); res.Result != "two" || !cmp.Equal(got, []string{"one"}) {
			t.Fatalf("Receive %q, then Run %q; want one, then two", got, res.Result)
		}
		closeAndCheckPrompts(t, r, s, "first", "second")
	})
}

// closeAndCheckPrompts closes s and checks the prompts the SDK wrote.
func closeAndCheckPrompts(t *testing.T, r *replayRun, s *v2.Session, want ...string) {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if diff := cmp.Diff(want, r.userPrompts(t)); diff != "" {
		t.Errorf("prompts written (-want +got):\n%s", diff)
	}
}
