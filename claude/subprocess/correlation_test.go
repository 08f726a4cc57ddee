package subprocess

import (
	"context"
	"errors"
	"github.com/hookwire/agent-sdk-go/claude/parser"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRequestsRetiredOnce: sequences of begins, answers, cancels and a close; each CLI request is
// retired exactly once, by the first of its answer, its cancel, or the close, and its ctx ends
// with that cause.
func TestRequestsRetiredOnce(t *testing.T) {
	tests := []struct {
		name  string
		steps []string // "begin ID", "retire ID", "cancel ID", "close"
		want  []string // each step's result
		cause map[string]error
	}{
		{"answered", []string{"begin a", "retire a", "retire a", "cancel a"}, []string{"ok", "ok", "no", "no"}, map[string]error{"a": errAnswered}},
		{"cancelled by the CLI", []string{"begin a", "cancel a", "retire a"}, []string{"ok", "ok", "no"}, map[string]error{"a": errCancelledByCLI}},
		{"duplicate", []string{"begin a", "begin a", "retire a", "begin a"}, []string{"ok", "no", "ok", "ok"}, map[string]error{"a": nil}},
		{"closed", []string{"begin a", "begin b", "retire b", "close", "retire a", "cancel a"}, []string{"ok", "ok", "ok", "ok", "no", "no"},
			map[string]error{"a": errTransportClosed, "b": errAnswered}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequests()
			ctxs := map[string]context.Context{}
			var got []string
			result := func(ok bool) string {
				if ok {
					return "ok"
				}
				return "no"
			}
			for _, step := range tt.steps {
				verb, id, _ := strings.Cut(step, " ")
				switch verb {
				case "begin":
					ctx, ok := r.begin(context.Background(), id, true)
					if ok {
						ctxs[id] = ctx
					}
					got = append(got, result(ok))
				case "retire":
					got = append(got, result(r.retire(id)))
				case "cancel":
					got = append(got, result(r.cancel(id)))
				case "close":
					r.cancelAll()
					got = append(got, "ok")
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			for id, want := range tt.cause {
				if err := context.Cause(ctxs[id]); !errors.Is(err, want) {
					t.Errorf("%s: ctx cause %v, want %v", id, err, want)
				}
			}
		})
	}
}

// TestPendingFailWithTheReadersError: when the reader dies, every pending SDK request fails with
// its error, and so does every later one.
func TestPendingFailWithTheReadersError(t *testing.T) {
	r := newRequests()
	id1, ch1, _ := r.addPending()
	_, ch2, _ := r.addPending()
	if !r.resolve(&parser.ControlResponse{RequestID: id1, Subtype: "success"}) {
		t.Fatal("resolve found no request")
	}
	if res := <-ch1; res.resp == nil || res.err != nil {
		t.Errorf("first: %+v", res)
	}
	boom := errors.New("boom")
	r.failPending(boom)
	if res := <-ch2; res.err != boom {
		t.Errorf("second: %+v, want boom", res)
	}
	if _, _, err := r.addPending(); err != boom {
		t.Errorf("addPending after the reader died = %v, want boom", err)
	}
}

// TestToolCallDecisions: the two permission decisions of one tool call, in either order: an allow
// that waits for the other side turns into its deny; a deny or no decision answers at once; an
// allow whose other side never decides is denied at the limit.
func TestToolCallDecisions(t *testing.T) {
	ctx := context.Background()
	r := newRequests()
	// The guard denies first; the prompt's allow learns it at once.
	r.decide(ctx, "t1", sideGuard, verdictDeny, "no", true, time.Hour)
	if v, reason, ok := r.decide(ctx, "t1", sidePrompt, verdictAllow, "", true, time.Hour); v != verdictDeny || reason != "no" || !ok {
		t.Errorf("t1 prompt: %v %q %v", v, reason, ok)
	}
	// The prompt's allow waits for the guard, which denies later.
	got := make(chan verdict, 1)
	go func() {
		v, _, _ := r.decide(ctx, "t2", sidePrompt, verdictAllow, "", true, time.Hour)
		got <- v
	}()
	r.decide(ctx, "t2", sideGuard, verdictDeny, "later", true, time.Hour)
	if v := <-got; v != verdictDeny {
		t.Errorf("t2 prompt: %v, want deny", v)
	}
	// A deny does not wait.
	if v, _, ok := r.decide(ctx, "t3", sidePrompt, verdictDeny, "", true, time.Hour); v != verdictNone || !ok {
		t.Errorf("t3: %v %v", v, ok)
	}
	// An allow whose other side never decides is denied at the limit.
	if v, _, ok := r.decide(ctx, "t4", sidePrompt, verdictAllow, "", true, time.Millisecond); v != verdictDeny || !ok {
		t.Errorf("t4: %v %v, want deny", v, ok)
	}
	// A cancelled request stops waiting.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, ok := r.decide(cctx, "t5", sideGuard, verdictAllow, "", true, time.Hour); ok {
		t.Error("t5: a cancelled wait reported ok")
	}
}
