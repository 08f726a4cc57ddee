package temporalagent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
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
	ledger         Ledger
	cancelEvery    time.Duration
	logger         *slog.Logger
	optErr         error           // an option's misuse
	keys           idempotencyKeys // the keys of the calls running on the worker (IdempotencyKey)
}

// NewActivities returns the activities with opts applied.
func NewActivities(opts ...Option) (*Activities, error) {
	a := &Activities{stuckAfter: 10 * time.Minute, continuePrompt: DefaultContinuePrompt,
		cancelEvery: 500 * time.Millisecond, logger: slog.Default()}
	for _, o := range opts {
		o.apply(a)
	}
	if a.optErr != nil {
		return nil, a.optErr
	}
	if a.stuckAfter <= 0 {
		return nil, errors.New("temporalagent: WithStuckAfter needs a positive duration")
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
// result. A retry of the activity resumes the session at its last completed message with the
// continue prompt, so that completed tool calls are not run again: with a ledger (WithLedger) it
// reads where from the ledger, and answers from it a call that ran after that point; without
// one, from the last heartbeat that reached the server. A turn that ended in error (max turns,
// budget) is a result with IsError, not a failed activity (a retry could not do better); RunTurn
// in the workflow makes it a *TurnError.
func (a *Activities) RunTurn(ctx context.Context, in TurnInput) (*TurnResult, error) {
	cwd, err := a.cwd(in.Options.Cwd)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "agent.BadInput", nil)
	}
	info := activity.GetInfo(ctx)
	every, err := a.heartbeatInterval(info.HeartbeatTimeout)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "agent.BadOptions", nil)
	}
	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	t := &turn{in: in, tr: newTracker(Progress{}, time.Now(), a.store != nil), led: a.newAttemptLedger(info, every, a.logger)}
	// Heartbeats (and the lease's renewal) from before the claim's wait until the CLI has ended;
	// the cancel watch from the start.
	t.hb = startHeartbeats(ctx, cancel, t.tr, every, a.stuckAfter, t.heartbeatHooks(ctx))
	defer t.hb.stop()
	if a.cancelEvery > 0 {
		defer watchCancel(ctx, cancel, a.cancelEvery)()
	}
	prev, retried, state, err := a.previous(turnCtx, t.led)
	if err != nil {
		return nil, a.failure(ctx, turnCtx, err)
	}
	o, prompt, p := a.resumeFrom(in.Options, in.Prompt, prev, retried)
	o.Cwd = cwd
	if o.Resume != "" {
		if err := a.restoreTranscript(turnCtx, cwd, o.Resume, o.ResumeAt); err != nil {
			return nil, a.failure(ctx, turnCtx, err)
		}
		if o.ResumeAt == "" {
			// Pin where the turn starts, so that a retry drops what this attempt adds.
			o.ResumeAt = a.lastMessage(cwd, o.Resume)
		}
		if !p.InTurn {
			p.SessionID, p.ResumeAt = o.Resume, o.ResumeAt
		}
	}
	t.tr.set(p)
	if t.led != nil {
		if err := t.led.append(turnCtx, LedgerEntry{Kind: EntryStart, SessionID: o.Resume, ResumeAt: o.ResumeAt}); err != nil {
			return nil, a.failure(ctx, turnCtx, err)
		}
		t.guard = &ledgerGuard{ledger: a.ledger, turn: t.led.turn, attempt: t.led.attempt, logger: a.logger, keys: &a.keys,
			answers: state.answered(p.CompletedToolUses), inDoubt: state.inDoubt(t.led.turn),
			fence: func(err error) { cancel(&FencedError{Err: err}) }}
		defer t.guard.release()
		if n := len(t.guard.inDoubt); n > 0 {
			a.logger.Warn("temporalagent: resuming a turn with tool calls that began and never finished; they may run again "+
				"unless their tool takes its idempotency key (Activities.IdempotencyKey)", "calls", n)
		}
	}
	return a.run(ctx, turnCtx, t, o, prompt)
}

// closeGrace is the turns' v2.WithCloseGrace.
const closeGrace = 500 * time.Millisecond

// turn is one attempt's state.
type turn struct {
	in    TurnInput
	tr    *tracker
	hb    *heartbeats
	led   *attemptLedger // nil without a ledger
	guard *ledgerGuard   // nil without a ledger
}

// heartbeatHooks renew the attempt's lease on every tick and write each new resume point to the
// ledger.
func (t *turn) heartbeatHooks(ctx context.Context) heartbeatHooks {
	if t.led == nil {
		return heartbeatHooks{}
	}
	return heartbeatHooks{
		tick: func(now time.Time) error { return t.led.renew(ctx, now) },
		progress: func(p Progress) {
			if !p.InTurn {
				return
			}
			err := t.led.append(ctx, LedgerEntry{Kind: EntryResume, SessionID: p.SessionID, ResumeAt: p.ResumeAt, Completed: p.CompletedToolUses})
			if err != nil {
				t.led.logger.Warn("temporalagent: the ledger did not take the turn's resume point; a retry resumes earlier", "error", err)
			}
		},
	}
}

// heartbeatInterval is WithHeartbeatEvery's interval, or a third of the activity's heartbeat
// timeout (10 s without one).
func (a *Activities) heartbeatInterval(timeout time.Duration) (time.Duration, error) {
	switch {
	case a.heartbeatEvery > 0 && timeout > 0 && a.heartbeatEvery >= timeout:
		return 0, fmt.Errorf("temporalagent: WithHeartbeatEvery(%s) is not shorter than the activity's HeartbeatTimeout (%s): "+
			"every attempt would time out", a.heartbeatEvery, timeout)
	case a.heartbeatEvery > 0:
		return a.heartbeatEvery, nil
	case timeout > 0:
		return timeout / 3, nil
	}
	return 10 * time.Second, nil
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
func (a *Activities) run(ctx, turnCtx context.Context, t *turn, o SessionOptions, prompt string) (*TurnResult, error) {
	ap := a.newApprovalGate(ctx, t.tr, t.in.Decisions)
	s, err := v2.CreateSession(turnCtx, a.turnOptions(ctx, o, t, ap, prompt)...)
	if err != nil {
		return nil, a.failure(ctx, turnCtx, fmt.Errorf("temporalagent: starting the session: %w", err))
	}
	result, turnErr := readTurn(turnCtx, s, prompt, t.tr, t.hb)
	closeErr := s.Close()
	t.hb.stop()
	if turnErr == nil && result == nil {
		turnErr = closeErr
		if turnErr == nil {
			turnErr = v2.ErrUnexpectedExit
		}
	}
	if turnErr != nil || context.Cause(turnCtx) != nil {
		return nil, a.failure(ctx, turnCtx, fmt.Errorf("temporalagent: the turn failed: %w", cmp.Or(turnErr, context.Cause(turnCtx))))
	}
	return a.turnResult(t.in, result, t.tr.progress(), ap.pendingApproval()), nil
}

// turnOptions returns the session's options: the workflow's, the turn's own (the ledger's and the
// approval hooks, the store that gates the resume point), then the worker's, which win: the
// workflow's are v2.WithDefaults, which a worker's option replaces.
func (a *Activities) turnOptions(ctx context.Context, o SessionOptions, t *turn, ap *approvalGate, prompt string) []v2.Option {
	// A cancelled turn's Close waits this long for the CLI after closing its stdin, and after
	// SIGTERM (v2's default is 2 s): a CLI that has finished its turn exits at once, one busy with
	// a tool is ended promptly. The worker's WithSessionOptions can set another.
	// The workflow's options and this grace are v2.WithDefaults, which a worker's option replaces.
	opts := []v2.Option{v2.WithDefaults(append(sessionOptions(o), v2.WithCloseGrace(closeGrace))...)}
	if t.guard != nil {
		for event, h := range t.guard.hooks() {
			opts = append(opts, v2.WithHook(event, "", h))
		}
	}
	if ap != nil {
		opts = append(opts, v2.WithHooks(shared.Hooks{shared.HookEventPreToolUse: {ap.hookConfig()}}))
	}
	if a.store != nil {
		opts = append(opts, v2.WithSessionStore(recordingStore{inner: a.store, tr: t.tr, kick: t.hb.nudge, prompt: prompt}))
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

// failure returns the activity's error for err: the activity's own cancellation as is, one the
// cancel watch saw reported as a cancellation, a stuck turn as a retryable *StuckError, a fenced
// one as a *FencedError.
func (a *Activities) failure(ctx, turnCtx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	cause := context.Cause(turnCtx)
	if errors.Is(cause, errCancelRequested) {
		return reportCancelled(ctx)
	}
	var stuck *StuckError
	if errors.As(cause, &stuck) {
		return temporal.NewApplicationErrorWithCause(stuck.Error(), "agent.Stuck", stuck)
	}
	var fenced *FencedError
	if errors.As(cause, &fenced) || errors.As(err, &fenced) {
		return temporal.NewApplicationErrorWithCause(fenced.Error(), "agent.Fenced", fenced)
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
