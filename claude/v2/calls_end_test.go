package v2_test

import (
	"context"
	"errors"
	"testing"
	"time"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestEveryCallEnds: every exported blocking call of a session returns by its ctx's deadline (or,
// for Close, within its grace period) while the CLI misbehaves: it never answers, never ends the
// turn, ignores SIGTERM. The deadline is what is tested; the test's own bound (within) is
// generous and only catches a hang. The other misbehaving parties have their own tests, named in
// docs/RELIABILITY.md ("calls that end"): an MCP tool that ignores its ctx
// (TestE2EStuckMCPToolHoldsNothing), a store that ignores its ctx
// (TestReplay_SessionStoreCloseBounded), a transcript that is a FIFO or a link to /dev/zero
// (sessions.TestTranscriptNotARegularFile).
func TestEveryCallEnds(t *testing.T) {
	const deadline = 300 * time.Millisecond
	hangAfterInit := replayInit + "hang\n"
	rows := []struct {
		name       string
		transcript string
		opts       []v2.Option
		// call runs the blocking call with ctx; s is nil for CreateSession's row.
		call func(ctx context.Context, t *testing.T, r *replayRun, s *v2.Session) error
		// wantCtxErr: the call's error wraps the ctx's (context.DeadlineExceeded).
		wantCtxErr bool
	}{
		{"CreateSession: initialize never answered", "hang\n", nil, func(ctx context.Context, t *testing.T, r *replayRun, _ *v2.Session) error {
			s, err := v2.CreateSession(ctx, r.opts...)
			if err == nil {
				s.Close()
			}
			return err
		}, false},
		{"Run: the turn never ends", replayInit + expectUser("go") + "hang\n", nil, func(ctx context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			_, err := s.Run(ctx, "go")
			return err
		}, true},
		{"Query: the turn never ends", replayInit + expectUser("go") + "hang\n", nil, func(ctx context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			for _, err := range s.Query(ctx, "go") {
				if err != nil {
					return err
				}
			}
			return nil
		}, true},
		{"Receive: nothing comes", hangAfterInit, nil, func(ctx context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			for _, err := range s.Receive(ctx) {
				if err != nil {
					return err
				}
			}
			return nil
		}, true},
		{"Interrupt: never answered", hangAfterInit, nil, func(ctx context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			return s.Interrupt(ctx)
		}, true},
		{"SetModel: never answered", hangAfterInit, nil, func(ctx context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			return s.SetModel(ctx, "haiku")
		}, true},
		{"SetPermissionMode: never answered", hangAfterInit, nil, func(ctx context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			return s.SetPermissionMode(ctx, v2.PermissionModePlan)
		}, true},
		{"MCPStatus: never answered", hangAfterInit, nil, func(ctx context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			_, err := s.MCPStatus(ctx)
			return err
		}, true},
		{"SetMCPServers: never answered", hangAfterInit, nil, func(ctx context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			_, err := s.SetMCPServers(ctx, nil)
			return err
		}, true},
		{"SetMCPServers: waiting for another one that hangs", hangAfterInit, []v2.Option{v2.WithRequestTimeout(time.Hour)}, func(ctx context.Context, t *testing.T, _ *replayRun, s *v2.Session) error {
			first, cancel := context.WithCancel(context.Background())
			defer cancel()
			started := make(chan struct{})
			done := make(chan struct{})
			go func() { // holds SetMCPServers until cancel
				close(started)
				s.SetMCPServers(first, nil)
				close(done)
			}()
			<-started
			defer func() { cancel(); <-done }()
			_, err := s.SetMCPServers(ctx, nil)
			return err
		}, true},
		{"Close: the CLI ignores SIGTERM", replayInit + "ignoreterm\nhang\n", []v2.Option{v2.WithCloseGrace(deadline)}, func(_ context.Context, _ *testing.T, _ *replayRun, s *v2.Session) error {
			s.Close()
			return nil
		}, false},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			r := newReplay(t, row.transcript)
			r.opts = append(r.opts, row.opts...)
			var s *v2.Session
			if row.transcript != "hang\n" {
				s = r.session(t)
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			err := within(t, row.name, func() error { return row.call(ctx, t, r, s) })
			if row.wantCtxErr && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s = %v, want an error wrapping context.DeadlineExceeded", row.name, err)
			}
			if row.transcript == "hang\n" && err == nil {
				t.Errorf("%s = nil, want an error", row.name)
			}
		})
	}
}
