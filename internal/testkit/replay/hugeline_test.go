package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestHugeLines: a 64 MiB line on stdout (a Write hook for a 64 MiB file, a 64 MiB message). Under
// the default limit (100 MiB) both arrive whole and the hook answers; with a 1 MiB limit both are
// skipped and reported as *shared.LineTooLongError, without holding them in memory, and the
// stream stays in sync: the next request is answered. (A skipped hook request cannot be answered:
// its id is in the part not kept. The CLI's own timeout then decides; it fails closed for PreToolUse,
// and the SDK registers guarding events with onFailure:block.) Not parallel: it holds 64 MiB lines.
// With -race the lines are 8 MiB: the race detector makes scanning 64 MiB of JSON take 30 s.
func TestHugeLines(t *testing.T) {
	size := 64 << 20
	if raceEnabled {
		size = 8 << 20
	}
	content := strings.Repeat("x", size)
	big := hookCallback("big", "PreToolUse", "Write", map[string]any{"file_path": "/proj/big.bin", "content": content})
	small := hookCallback("small", "PreToolUse", "Write", map[string]any{"file_path": "/proj/small.txt", "content": "x"})
	for _, tt := range []struct {
		name    string
		max     int
		answers []string
	}{
		{"default limit", 0, []string{"big", "small"}},
		{"1 MiB limit", 1 << 20, []string{"small"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines := []string{initExpect, initAnswer, userExpect, big}
			if tt.max == 0 {
				lines = append(lines, fmt.Sprintf(`expect {"type":"control_response","response":{"request_id":"big","response":{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"%d bytes"}}}}`, size))
			}
			lines = append(lines, fmt.Sprintf("sendbig %d", size), small,
				`expect {"type":"control_response","response":{"request_id":"small","response":{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"1 bytes"}}}}`,
				resultLine)
			f := newFake(t, lines...)
			opts := []v2.Option{v2.WithHookTimeout(time.Minute), v2.WithHook(shared.HookEventPreToolUse, "Write", shared.OnPreToolUse(
				func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
					return shared.Deny(fmt.Sprintf("%d bytes", len(in.ToolInput.String("content")))), nil
				}))}
			if tt.max > 0 {
				opts = append(opts, v2.WithMaxLineSize(tt.max))
			}
			s := f.start(t, opts...)
			if err := s.Send(testCtx(t), "go"); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			msgs, protoErrs, err := receiveAll(t, s)
			t.Logf("%d MiB lines handled in %v", size>>20, time.Since(start))
			if err != nil {
				t.Fatalf("Receive: %v (the fake checks each answer)", err)
			}
			var raw int
			for _, m := range msgs {
				if r, ok := m.(*shared.RawMessage); ok && r.MessageType == "assistant_padding" {
					raw = len(r.Raw)
				}
			}
			if tt.max == 0 {
				if raw != size || len(protoErrs) != 0 {
					t.Errorf("the %d MiB message came as %d bytes, with protocol errors %v", size>>20, raw, protoErrs)
				}
			} else {
				if raw != 0 || len(protoErrs) != 2 {
					t.Fatalf("got a %d-byte message and protocol errors %v; want both lines skipped", raw, protoErrs)
				}
				for _, err := range protoErrs {
					var lt *shared.LineTooLongError
					if !errors.As(err, &lt) || lt.Limit != tt.max || lt.Size < size {
						t.Errorf("protocol error %v, want a *LineTooLongError for a %d MiB line", err, size>>20)
					}
				}
				if st := s.Stats(); st.OversizedLines != 2 {
					t.Errorf("Stats = %+v", st)
				}
			}
			s.Close()
			answers := f.answers(t)
			if len(answers) != len(tt.answers) {
				t.Errorf("answers for %d requests, want %v", len(answers), tt.answers)
			}
		})
	}
}
