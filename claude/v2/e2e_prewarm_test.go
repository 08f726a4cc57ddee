package v2_test

import (
	"errors"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A spare started with Prewarm is a running session when taken: its first turn reaches the model
// and answers; it is taken once; a spare not taken is ended by Close (its CLI exits); invalid
// options are Take's error.
func TestRealCLI_Prewarm(t *testing.T) {
	t.Parallel()
	env := newRealEnv(t, func(string) []claudetest.Reply { return []claudetest.Reply{claudetest.TextReply("warm answer")} })
	ctx := testCtx(t)
	sp := v2.Prewarm(ctx, env.opts...)
	t.Cleanup(func() { sp.Close() })
	s, err := sp.Take(ctx)
	if err != nil {
		t.Fatalf("Take: %v", err)
	}
	defer s.Close()
	if r := run(t, s, "hello"); r.Result != "warm answer" {
		t.Errorf("result %q, want the model's answer", r.Result)
	}
	if _, err := sp.Take(ctx); !errors.Is(err, v2.ErrSpareTaken) {
		t.Errorf("second Take: %v, want ErrSpareTaken", err)
	}
	if err := sp.Close(); err != nil {
		t.Errorf("Close of a taken spare: %v", err)
	}
	select {
	case <-s.Done():
		t.Error("Close of a taken spare ended the taker's session")
	default:
	}

	// A spare closed untaken ends its session (TestMain's goleak check: its goroutines end).
	untaken := v2.Prewarm(ctx, env.opts...)
	<-untaken.Ready()
	if err := untaken.Close(); err != nil {
		t.Errorf("Close of an untaken spare: %v", err)
	}
	if _, err := untaken.Take(ctx); !errors.Is(err, v2.ErrSpareTaken) {
		t.Errorf("Take after Close: %v, want ErrSpareTaken", err)
	}

	bad := v2.Prewarm(ctx, append(env.opts, v2.WithPermissionMode("sometimes"))...)
	var oe *v2.OptionError
	if _, err := bad.Take(ctx); !errors.As(err, &oe) {
		t.Errorf("Take of a spare with an invalid option: %v, want an *OptionError", err)
	}
}
