package v2_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// lastUserText is the text of the last user message of a model request: the prompt it answers.
func lastUserText(r claudetest.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role != "user" {
			continue
		}
		for j := len(m.Content) - 1; j >= 0; j-- {
			if b := m.Content[j]; b.Type == "text" && !strings.HasPrefix(b.Text, "<") {
				return b.Text
			}
		}
	}
	return ""
}

// echoModel is a fake model whose every reply names the prompt it answers ("answer to X"); a
// prompt containing "SLOW" is held until release is closed, after telling held.
type echoModel struct {
	held    chan struct{}
	release chan struct{}
	once    sync.Once
}

func newEchoModel() *echoModel {
	return &echoModel{held: make(chan struct{}, 8), release: make(chan struct{})}
}

func (m *echoModel) reply(_ string, r claudetest.Request) claudetest.Reply {
	p := lastUserText(r)
	if strings.Contains(p, "SLOW") {
		m.held <- struct{}{}
		<-m.release
	}
	return claudetest.TextReply("answer to " + p)
}

// Release lets the held requests go (idempotent); run at cleanup, before the model closes.
func (m *echoModel) Release() { m.once.Do(func() { close(m.release) }) }

// A Run whose ctx ends while the model is still answering leaves the session in step (issue 35
// item 4): Run returns the ctx's error, the turn is interrupted, and the next Run gets the answer
// to its own prompt, not the abandoned one's. The fake model names the prompt it answers; before
// the fix the second Run returned "answer to SLOW FIRST".
func TestRealCLI_CancelledRunLeavesSessionInStep(t *testing.T) {
	t.Parallel()
	model := newEchoModel()
	env := newRealEnvHandler(t, model.reply)
	t.Cleanup(model.Release)
	s := env.session(t)

	ctx, cancel := context.WithCancel(testCtx(t))
	go func() { <-model.held; cancel() }()
	res, err := s.Run(ctx, "SLOW FIRST")
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("cancelled Run = %v, %v; want context.Canceled", res, err)
	}
	if got := run(t, s, "SECOND"); got.Result != "answer to SECOND" {
		t.Fatalf("second Run answered %q, want %q", got.Result, "answer to SECOND")
	}
	if got := run(t, s, "THIRD"); got.Result != "answer to THIRD" {
		t.Fatalf("third Run answered %q, want %q", got.Result, "answer to THIRD")
	}
}

// A Query whose loop is left early, then a Run: the Run answers its own prompt; a prompt of Send
// not yet received makes Run fail with ErrTurnPending, sending nothing, and Receive then reads
// that prompt's answer.
func TestRealCLI_QueryLeftEarlyAndPendingSend(t *testing.T) {
	t.Parallel()
	model := newEchoModel()
	env := newRealEnvHandler(t, model.reply)
	t.Cleanup(model.Release)
	s := env.session(t)
	ctx := testCtx(t)

	for m, err := range s.Query(ctx, "SLOW ONE") {
		if err != nil {
			t.Fatalf("Query: %v", err)
		}
		if _, ok := m.(*shared.ResultMessage); ok {
			t.Fatal("the held turn ended")
		}
		break // the first message (system/init): the turn is still running
	}
	<-model.held
	if got := run(t, s, "TWO"); got.Result != "answer to TWO" {
		t.Fatalf("Run after a Query left early answered %q", got.Result)
	}
	model.Release()

	if err := s.Send(ctx, "THREE"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(ctx, "FOUR"); !errors.Is(err, v2.ErrTurnPending) || !strings.HasPrefix(err.Error(), "v2: Run: ") {
		t.Fatalf("Run with a Send unread = %v, want ErrTurnPending naming Run", err)
	}
	var last *shared.ResultMessage
	for m, err := range s.Receive(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		last, _ = m.(*shared.ResultMessage)
	}
	if last == nil || last.Result != "answer to THREE" {
		t.Fatalf("Receive after Send(THREE) = %+v", last)
	}
	if got := run(t, s, "FIVE"); got.Result != "answer to FIVE" {
		t.Fatalf("Run after Receive answered %q", got.Result)
	}
	for _, r := range env.api.Requests() {
		if lastUserText(r) == "FOUR" {
			t.Errorf("the prompt of the refused Run reached the model: request %d", r.Index)
		}
	}
}
