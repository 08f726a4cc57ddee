package temporalagent

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func assistant(uuid string, blocks ...shared.ContentBlock) *shared.AssistantMessage {
	return &shared.AssistantMessage{UUID: uuid, SessionID: "s1", Message: shared.APIMessage{Role: "assistant", Content: blocks}}
}

func results(uuid string, ids ...string) *shared.UserMessage {
	m := &shared.UserMessage{UUID: uuid}
	for _, id := range ids {
		m.Blocks = append(m.Blocks, shared.ContentBlock{Type: "tool_result", ToolUseID: id})
	}
	return m
}

func use(id string) shared.ContentBlock { return shared.ContentBlock{Type: "tool_use", ID: id} }

// The resume point is a message after which no tool call waits for its result; with a store, only
// once the store has it.
func TestTrackerResumePoint(t *testing.T) {
	sub := "toolu_task"
	subMsg := assistant("u-sub", use("toolu_inner"))
	subMsg.ParentToolUseID = &sub
	tests := []struct {
		name   string
		gated  bool
		stored []string
		msgs   []shared.Message
		want   Progress
	}{{
		name: "a call and its result",
		msgs: []shared.Message{assistant("u1", use("A")), results("u2", "A")},
		want: Progress{SessionID: "s1", ResumeAt: "u2", InTurn: true, CompletedToolUses: []string{"A"}},
	}, {
		name: "two parallel calls, one result so far",
		msgs: []shared.Message{assistant("u1", use("A")), assistant("u2", use("B")), results("u3", "A")},
		want: Progress{SessionID: "s1"},
	}, {
		name: "two parallel calls, both results",
		msgs: []shared.Message{assistant("u1", use("A")), assistant("u2", use("B")), results("u3", "A"), results("u4", "B")},
		want: Progress{SessionID: "s1", ResumeAt: "u4", InTurn: true, CompletedToolUses: []string{"A", "B"}},
	}, {
		name: "a text answer",
		msgs: []shared.Message{assistant("u1", shared.ContentBlock{Type: "text", Text: "hi"})},
		want: Progress{SessionID: "s1", ResumeAt: "u1", InTurn: true},
	}, {
		name: "a subagent's messages do not count",
		msgs: []shared.Message{assistant("u1", use(sub)), subMsg},
		want: Progress{SessionID: "s1"},
	}, {
		name:  "with a store, not before the store has it",
		gated: true,
		msgs:  []shared.Message{assistant("u1", use("A")), results("u2", "A")},
		want:  Progress{SessionID: "s1"},
	}, {
		name:   "with a store, once it has it",
		gated:  true,
		stored: []string{"u1", "u2"},
		msgs:   []shared.Message{assistant("u1", use("A")), results("u2", "A")},
		want:   Progress{SessionID: "s1", ResumeAt: "u2", InTurn: true, CompletedToolUses: []string{"A"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTracker(Progress{}, time.Unix(0, 0), tt.gated)
			for _, m := range tt.msgs {
				tr.observe(m, time.Unix(1, 0))
			}
			tr.storedUUIDs(tt.stored)
			if diff := cmp.Diff(tt.want, tr.progress()); diff != "" {
				t.Errorf("progress (-want +got):\n%s", diff)
			}
		})
	}
}

// Silence past the limit is stuck, unless an approval is being awaited.
func TestTrackerStuck(t *testing.T) {
	start := time.Unix(100, 0)
	tr := newTracker(Progress{}, start, false)
	if tr.stuck(start.Add(time.Minute), time.Minute) {
		t.Error("stuck at the limit")
	}
	if !tr.stuck(start.Add(time.Minute+time.Nanosecond), time.Minute) {
		t.Error("not stuck past the limit")
	}
	end := tr.wait()
	if tr.stuck(start.Add(time.Hour), time.Minute) {
		t.Error("stuck while an approval is awaited")
	}
	end()
}
