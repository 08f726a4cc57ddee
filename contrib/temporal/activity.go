package temporalagent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Activities runs agent turns on a worker. Make it with NewActivities and put it on a worker with
// Register. It is safe for concurrent use: each turn has its own CLI.
type Activities struct {
	sessionOpts    []v2.Option
	heartbeatEvery time.Duration
	stuckAfter     time.Duration
	store          sessions.Store
	configDir      string
	workspaceRoot  string
	continuePrompt string
	approvals      *ApprovalRule
	turnOpts       []func(ctx context.Context, cwd string) []v2.Option
}

// NewActivities returns the activities with opts applied.
func NewActivities(opts ...Option) (*Activities, error) {
	a := &Activities{heartbeatEvery: 10 * time.Second, stuckAfter: 10 * time.Minute, continuePrompt: DefaultContinuePrompt}
	for _, o := range opts {
		o.apply(a)
	}
	if a.heartbeatEvery <= 0 || a.stuckAfter <= 0 {
		return nil, errors.New("temporalagent: WithHeartbeatEvery and WithStuckAfter need a positive duration")
	}
	if a.configDir == "" && a.store != nil {
		d, err := sessions.DefaultDir()
		if err != nil {
			return nil, fmt.Errorf("temporalagent: WithStore needs the CLI's config directory (WithConfigDir): %w", err)
		}
		a.configDir = string(d)
	}
	if a.approvals != nil && a.approvals.Match == nil {
		return nil, errors.New("temporalagent: WithApprovals needs an ApprovalRule with Match")
	}
	return a, nil
}

// Register registers RunTurn on w under ActivityName.
func (a *Activities) Register(w worker.ActivityRegistry) {
	w.RegisterActivityWithOptions(a.RunTurn, activity.RegisterOptions{Name: ActivityName})
}

// StuckError is the failure of a turn whose CLI said nothing for longer than WithStuckAfter. It
// is retryable: the retry resumes the session.
type StuckError struct {
	Silent time.Duration
}

func (e *StuckError) Error() string {
	return fmt.Sprintf("temporalagent: the CLI said nothing for %s: the turn is stuck (WithStuckAfter)", e.Silent)
}

// RunTurn runs one turn: it starts (or resumes) the session, sends the prompt and returns the
// result. A retry of the activity reads the heartbeat's Progress and resumes the session at its
// last completed message with the continue prompt, so that completed tool calls are not run
// again. A turn that ended in error (max turns, budget) is a result with IsError, not a failed
// activity (a retry could not do better); RunTurn in the workflow makes it a *TurnError.
func (a *Activities) RunTurn(ctx context.Context, in TurnInput) (*TurnResult, error) {
	cwd, err := a.cwd(in.Options.Cwd)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "agent.BadInput", nil)
	}
	o, prompt := in.Options, in.Prompt
	o.Cwd = cwd
	var prev Progress
	retried := activity.HasHeartbeatDetails(ctx) && activity.GetHeartbeatDetails(ctx, &prev) == nil
	p := Progress{Resumes: prev.Resumes}
	switch {
	case retried && prev.InTurn && prev.ResumeAt != "" && prev.SessionID != "":
		// The turn got somewhere before its worker died: go on from its last completed message.
		p = prev
		p.Resumes++
		o.Resume, o.ResumeAt, prompt = prev.SessionID, prev.ResumeAt, a.continuePrompt
	case retried && o.Resume != "" && prev.SessionID == o.Resume:
		// Nothing completed: run the turn again from where it started.
		p.Resumes++
		o.ResumeAt = prev.ResumeAt
	case retried:
		p.Resumes++
	}
	if o.Resume != "" {
		if err := a.restoreTranscript(ctx, cwd, o.Resume, o.ResumeAt); err != nil {
			return nil, err
		}
		if o.ResumeAt == "" {
			// Pin where the turn starts, so that a retry drops what this attempt adds.
			o.ResumeAt = a.lastMessage(cwd, o.Resume)
		}
		if !p.InTurn {
			p.SessionID, p.ResumeAt = o.Resume, o.ResumeAt
		}
	}
	return a.run(ctx, in, o, prompt, p)
}

// cwd resolves the session's working directory against the workspace root.
func (a *Activities) cwd(dir string) (string, error) {
	if dir == "" {
		if a.workspaceRoot != "" {
			return a.workspaceRoot, nil
		}
		return os.Getwd()
	}
	if a.workspaceRoot == "" {
		return dir, nil
	}
	rel, err := filepath.Rel(a.workspaceRoot, dir)
	if err != nil || !filepath.IsAbs(dir) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("temporalagent: Cwd %q is outside the workspace root %q (WithWorkspaceRoot)", dir, a.workspaceRoot)
	}
	return dir, nil
}

// run runs the turn in one CLI. The activity heartbeats from before the CLI starts until it has
// ended (a cancelled turn's Close takes a while), so that neither counts as a dead worker.
func (a *Activities) run(ctx context.Context, in TurnInput, o SessionOptions, prompt string, p Progress) (*TurnResult, error) {
	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	tr := newTracker(p, time.Now(), a.store != nil)
	ap := a.newApprovalGate(ctx, tr, in.Decisions)
	hb := startHeartbeats(ctx, cancel, tr, a.heartbeatEvery, a.stuckAfter)
	defer hb.stop()

	s, err := v2.CreateSession(turnCtx, a.turnOptions(ctx, o, tr, ap, hb)...)
	if err != nil {
		return nil, a.failure(ctx, turnCtx, fmt.Errorf("temporalagent: starting the session: %w", err))
	}
	result, turnErr := readTurn(turnCtx, s, prompt, tr, hb)
	closeErr := s.Close()
	hb.stop()
	if turnErr == nil && result == nil {
		turnErr = closeErr
		if turnErr == nil {
			turnErr = v2.ErrUnexpectedExit
		}
	}
	if turnErr != nil {
		return nil, a.failure(ctx, turnCtx, fmt.Errorf("temporalagent: the turn failed: %w", turnErr))
	}
	return a.turnResult(in, result, tr.progress(), ap.pendingApproval()), nil
}

// turnOptions returns the session's options: the workflow's, the turn's own (the approval hook,
// the store that gates the resume point), then the worker's, which win.
func (a *Activities) turnOptions(ctx context.Context, o SessionOptions, tr *tracker, ap *approvalGate, hb *heartbeats) []v2.Option {
	opts := sessionOptions(o)
	if ap != nil {
		opts = append(opts, v2.WithHook(shared.HookEventPreToolUse, "", ap.hook()))
	}
	if a.store != nil {
		opts = append(opts, v2.WithSessionStore(recordingStore{inner: a.store, tr: tr, kick: hb.nudge}))
	}
	opts = append(opts, a.sessionOpts...)
	for _, fn := range a.turnOpts {
		opts = append(opts, fn(ctx, o.Cwd)...)
	}
	return opts
}

// readTurn sends the prompt and reads the turn to its result (nil if the CLI gave none), feeding
// the tracker; a completed message asks for a heartbeat.
func readTurn(ctx context.Context, s *v2.Session, prompt string, tr *tracker, hb *heartbeats) (*shared.ResultMessage, error) {
	var result *shared.ResultMessage
	for m, err := range s.Query(ctx, prompt) {
		if err != nil {
			var pe *shared.ProtocolError
			if errors.As(err, &pe) {
				continue
			}
			return result, err
		}
		if tr.observe(m, time.Now()) {
			hb.nudge()
		}
		if r, ok := m.(*shared.ResultMessage); ok && !v2.StartedByCLI(r) {
			result = r
		}
	}
	return result, nil
}

// turnResult makes the activity's result of the CLI's; a turn stopped for an approval carries it
// (Pending) and the input that resumes it (Next).
func (a *Activities) turnResult(in TurnInput, result *shared.ResultMessage, prog Progress, pending *Approval) *TurnResult {
	res := &TurnResult{
		SessionID:    cmp.Or(result.SessionID, prog.SessionID),
		LastMessage:  prog.ResumeAt,
		Result:       result.Result,
		Subtype:      result.Subtype,
		IsError:      result.IsError || result.Subtype != "success",
		StopReason:   result.StopReason,
		NumTurns:     result.NumTurns,
		TotalCostUSD: result.TotalCostUSD,
		DurationMS:   result.DurationMS,
		Resumes:      prog.Resumes,
	}
	if len(result.StructuredOutput) > 0 {
		res.StructuredOutput = json.RawMessage(result.StructuredOutput)
	}
	if len(result.Usage) > 0 {
		res.Usage = json.RawMessage(result.Usage)
	}
	if pending == nil {
		return res
	}
	next := TurnInput{Prompt: in.Prompt, Options: in.Options}
	if prog.SessionID != "" && prog.ResumeAt != "" {
		next.Options.Resume, next.Options.ResumeAt = prog.SessionID, prog.ResumeAt
		if prog.InTurn {
			next.Prompt = a.continuePrompt
		}
	}
	res.Pending, res.Next, res.IsError = pending, &next, false
	return res
}

// failure returns the activity's error for err: the activity's own cancellation as is, a stuck
// turn as a retryable *StuckError.
func (a *Activities) failure(ctx, turnCtx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var stuck *StuckError
	if errors.As(context.Cause(turnCtx), &stuck) {
		return temporal.NewApplicationErrorWithCause(stuck.Error(), "agent.Stuck", stuck)
	}
	return err
}

// sessionOptions maps the serializable options to v2's.
func sessionOptions(o SessionOptions) []v2.Option {
	var opts []v2.Option
	add := func(ok bool, opt func() v2.Option) {
		if ok {
			opts = append(opts, opt())
		}
	}
	add(o.Model != "", func() v2.Option { return v2.WithModel(o.Model) })
	add(o.Tools != nil, func() v2.Option { return v2.WithTools(o.Tools...) })
	add(len(o.AllowedTools) > 0, func() v2.Option { return v2.WithAllowedTools(o.AllowedTools...) })
	add(len(o.DisallowedTools) > 0, func() v2.Option { return v2.WithDisallowedTools(o.DisallowedTools...) })
	add(o.PermissionMode != "", func() v2.Option { return v2.WithPermissionMode(v2.PermissionMode(o.PermissionMode)) })
	add(o.SystemPrompt != "", func() v2.Option { return v2.WithSystemPrompt(o.SystemPrompt) })
	add(o.AppendSystemPrompt != "", func() v2.Option { return v2.WithAppendSystemPrompt(o.AppendSystemPrompt) })
	add(o.Cwd != "", func() v2.Option { return v2.WithCwd(o.Cwd) })
	add(o.Resume != "", func() v2.Option { return v2.WithResume(o.Resume) })
	add(o.ResumeAt != "", func() v2.Option { return v2.WithResumeAt(o.ResumeAt) })
	add(o.MaxBudgetUSD > 0, func() v2.Option { return v2.WithMaxBudgetUSD(o.MaxBudgetUSD) })
	add(o.MaxTurns > 0, func() v2.Option { return v2.WithMaxTurns(o.MaxTurns) })
	return opts
}

// messageUUID returns the uuid of a message of the main conversation, or "".
func messageUUID(m shared.Message) string {
	switch m := m.(type) {
	case *shared.AssistantMessage:
		if m.ParentToolUseID == nil {
			return m.UUID
		}
	case *shared.UserMessage:
		if m.ParentToolUseID == nil {
			return m.UUID
		}
	}
	return ""
}
