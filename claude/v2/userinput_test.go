package v2

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// The answers the session gives the CLI's user-input requests, by callback behaviour. The CLI
// 2.1.332 sends a request_user_dialog (kind refusal_fallback_prompt) only when the API refuses a
// request (stop_reason "refusal") and a fallback model may answer, behind its own feature gate;
// claudetest's scripted model cannot refuse, so the dialog is tested here, on the handler the
// transport calls (subprocess.Config.HostRequests). Elicitation's real-CLI proof is
// TestRealCLI_Elicitation.
func TestUserInputAnswers(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	session := func(opts ...Option) *Session {
		o := defaultConfig()
		for _, opt := range opts {
			opt.apply(&o)
		}
		return &Session{o: o, logger: quiet}
	}
	dialog := `{"subtype":"request_user_dialog","dialog_kind":"refusal_fallback_prompt","payload":{"originalModel":"a","fallbackModel":"b"},"tool_use_id":"t1"}`
	elicit := `{"subtype":"elicitation","mcp_server_name":"s","message":"name?","requested_schema":{"type":"object"}}`
	answerWith := func(res UserDialogResult, err error) Option {
		return WithUserDialog(func(context.Context, *UserDialogRequest) (UserDialogResult, error) { return res, err }, DialogRefusalFallback)
	}
	elicitWith := func(res ElicitationResult, err error) Option {
		return WithElicitation(func(context.Context, *ElicitationRequest) (ElicitationResult, error) { return res, err })
	}
	cases := []struct {
		name    string
		opts    []Option
		request string
		want    string // the answer's JSON, or "" for an error answer (not answered)
	}{
		{"dialog completed", []Option{answerWith(UserDialogResult{Behavior: DialogCompleted, Result: "fallback"}, nil)}, dialog, `{"behavior":"completed","result":"fallback"}`},
		{"dialog cancelled", []Option{answerWith(UserDialogResult{Behavior: DialogCancelled}, nil)}, dialog, `{"behavior":"cancelled"}`},
		{"dialog error cancels", []Option{answerWith(UserDialogResult{Behavior: DialogCompleted}, errors.New("no"))}, dialog, `{"behavior":"cancelled"}`},
		{"dialog unknown behavior cancels", []Option{answerWith(UserDialogResult{Behavior: "maybe"}, nil)}, dialog, `{"behavior":"cancelled"}`},
		{"dialog panic cancels", []Option{WithUserDialog(func(context.Context, *UserDialogRequest) (UserDialogResult, error) { panic("boom") }, DialogRefusalFallback)}, dialog, `{"behavior":"cancelled"}`},
		{"undeclared kind is not answered", []Option{WithUserDialog(func(context.Context, *UserDialogRequest) (UserDialogResult, error) {
			return UserDialogResult{Behavior: DialogCompleted}, nil
		}, "other_kind")}, dialog, ""},
		{"no dialog callback: not answered", nil, dialog, ""},
		{"elicitation accepted", []Option{elicitWith(ElicitationResult{Action: ElicitationAccept, Content: map[string]any{"n": "x"}}, nil)}, elicit, `{"action":"accept","content":{"n":"x"}}`},
		{"elicitation decline drops content", []Option{elicitWith(ElicitationResult{Action: ElicitationDecline, Content: map[string]any{"n": "x"}}, nil)}, elicit, `{"action":"decline"}`},
		{"elicitation unknown action declines", []Option{elicitWith(ElicitationResult{Action: "yes"}, nil)}, elicit, `{"action":"decline"}`},
		{"elicitation error declines", []Option{elicitWith(ElicitationResult{Action: ElicitationAccept}, errors.New("no"))}, elicit, `{"action":"decline"}`},
		{"no elicitation callback declines", nil, elicit, `{"action":"decline"}`},
		{"unreadable elicitation declines", nil, `{"message":3}`, `{"action":"decline"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := session(c.opts...)
			h := s.hostRequests()[map[bool]string{true: "request_user_dialog", false: "elicitation"}[c.request == dialog]]
			got, err := h(context.Background(), jsontext.Value(c.request))
			if c.want == "" {
				if err == nil {
					t.Fatalf("answered %v, want no answer (an error)", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(got, json.Deterministic(true))
			if diff := cmp.Diff(c.want, string(b)); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// A callback that does not answer within WithUserInputTimeout gets the fail-closed answer, and its
// ctx ends with ErrUserInputTimeout.
func TestUserInputTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var cause error
		o := defaultConfig()
		WithUserInputTimeout(time.Minute).apply(&o)
		WithUserDialog(func(ctx context.Context, _ *UserDialogRequest) (UserDialogResult, error) {
			<-ctx.Done()
			cause = context.Cause(ctx)
			return UserDialogResult{Behavior: DialogCompleted}, nil
		}, DialogRefusalFallback).apply(&o)
		s := &Session{o: o, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		got, err := s.answerUserDialog(context.Background(), jsontext.Value(`{"dialog_kind":"refusal_fallback_prompt","payload":{}}`))
		synctest.Wait()
		if err != nil || got != (UserDialogResult{Behavior: DialogCancelled}) {
			t.Errorf("answer %v, %v; want cancelled", got, err)
		}
		if !errors.Is(cause, ErrUserInputTimeout) {
			t.Errorf("the callback's ctx ended with %v, want ErrUserInputTimeout", cause)
		}
	})
}
