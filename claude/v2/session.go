package v2

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/internal/confine"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// The CLI versions this SDK supports: its real-CLI tests run against MinCLIVersion and
// MaxTestedCLIVersion (claudetest.CLIVersion). A CLI older than MinCLIVersion, or one that does not
// report its version, runs in a degraded mode: the session starts with a warning (Info().Warnings
// and the log), and CreateSession fails with ErrHooksNotEnforced when it cannot take the hook
// registration (see WithAllowUnenforcedHooks); message kinds and control calls it lacks are never
// sent, and calls it does not know are answered with a *shared.ControlError. A CLI newer than
// MaxTestedCLIVersion is used as it is; message kinds it adds arrive as *shared.SystemMessage or
// *shared.RawMessage.
const (
	MinCLIVersion       = "2.1.330"
	MaxTestedCLIVersion = "2.1.332"
)

// HooksEnabledEnv is the rollback switch of the design spec: AGENT_SDK_HOOKS_ENABLED=false turns
// Go hooks off. It never does so silently: the session logs an error, reports it in
// Info().HooksDisabledByEnv, and refuses to start with WithStrictHooks.
const HooksEnabledEnv = "AGENT_SDK_HOOKS_ENABLED"

// Errors of the session API. The errors of the process and the transport (shared.ErrClosed,
// *shared.ProcessError, *shared.ProtocolError, *shared.ControlError, ...) are in claude/shared.
var (
	// ErrHooksNotEnforced: hooks could not be put in force (the CLI refused or did not apply the
	// registration) and the session may not run without them: a hook guards an action, or
	// WithStrictHooks was set. See WithAllowUnenforcedHooks.
	ErrHooksNotEnforced = errors.New("v2: hooks cannot be enforced")
	// ErrUnexpectedExit: the CLI ended its output before the turn's result.
	ErrUnexpectedExit = errors.New("v2: CLI exited before the turn ended")
	// ErrBusy: another Receive, Query or Run of the session is already iterating; the error's
	// message names the call that found it so.
	ErrBusy = errors.New("v2: another Receive, Query or Run is in progress")
)

// ResultError is returned by Run when the turn ended with is_error (an API error, an interrupt),
// a subtype other than "success", or a refusal (Result.Refusals: a blocked prompt, every tool call
// denied, a guard that failed closed); errors.Is matches it with the subtype's and the refusals'
// errors (results.go, refusals.go).
type ResultError struct {
	Result *shared.ResultMessage
}

// Error describes the failure.
func (e *ResultError) Error() string {
	r := e.Result
	if !r.IsError && r.Subtype == ResultSuccess && len(r.Refusals) > 0 {
		msg := "v2: turn refused: " + r.Refusals[0].String()
		if n := len(r.Refusals) - 1; n > 0 {
			msg += fmt.Sprintf(" (and %d more refusal(s), see Result.Refusals)", n)
		}
		return msg
	}
	return fmt.Sprintf("v2: turn failed (%s, %s): %s", r.Subtype, r.TerminalReason, r.Result)
}

// Info describes the CLI a session runs, from its initialize answer.
type Info struct {
	CLIVersion string
	PID        int
	// HooksApplied reports that the CLI accepted the hook registration.
	HooksApplied bool
	// HookOnFailureSupported reports that the CLI honours onFailure:"block".
	HookOnFailureSupported bool
	// HooksDisabledByEnv is true when AGENT_SDK_HOOKS_ENABLED=false switched Go hooks off.
	HooksDisabledByEnv bool
	// Warnings lists what the session found wrong at start (e.g. an old CLI).
	Warnings []string
	// Raw is the initialize answer.
	Raw jsontext.Value
}

// Session is one running CLI with its hooks.
type Session struct {
	t        *subprocess.Transport
	o        config
	x        *hooks.Engine
	logger   *slog.Logger
	info     Info
	cwd      string
	recvBusy sync.Mutex

	idMu sync.Mutex
	id   string
	// init is what the CLI's latest system/init said (guarded by idMu), for the inputs the SDK
	// makes itself (fillSynthetic).
	cliInit initFacts

	// regMu guards t while CreateSession sets it, and sent: the hooks the CLI was last told about
	// (scoped.go).
	regMu sync.Mutex
	sent  hooks.Registration
	// guardsChecked: the CLI's hook listing showed no hook of an untrusted source on a rewriting
	// event (settingsguard.go); RegisterScoped of a guard checks it when the session did not.
	guardsChecked atomic.Bool
	// The stream's hook events (hookevents.go): emitT once the transport runs, early before.
	emitMu sync.Mutex
	emitT  *subprocess.Transport
	early  []shared.Message
	// settingsFile is the temporary --settings file with the settings hooks, removed by Close.
	settingsFile string
	confinement  *confine.Plan // the confined CLI's private directory (confine.go), or nil

	// obs delivers the observations (observe.go); nil without observers.
	obs *observerRunner
	// mirror feeds WithSessionStore's store (store.go); nil without one.
	mirror *mirror
	// mcp serves the in-process MCP servers (mcp.go), also those added at run time.
	mcp *mcpHost
	// turn gathers the current turn's refusals (refusals.go).
	turn turnWatch
	// inStep keeps prompts and results in step (instep.go).
	inStep inStep

	closeOnce sync.Once
	closeErr  error
}

// removeSettingsFile removes the temporary settings file, if any.
func (s *Session) removeSettingsFile() {
	if s.settingsFile != "" {
		if err := os.Remove(s.settingsFile); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.logger.Warn("v2: removing the settings file", "error", err)
		}
	}
}

// observe runs on the transport's reader goroutine for every message: it feeds the observers and
// keeps the session id and what the CLI's system/init says.
func (s *Session) observe(m shared.Message) {
	s.turn.see(m) // first: a result takes its refusals before anyone sees it
	s.obs.feed(m)
	s.mirror.feed(m)
	var id string
	switch v := m.(type) {
	case *shared.SystemMessage:
		if v.Subtype == "init" {
			id = v.SessionID
			f := initFactsOf(v)
			s.idMu.Lock()
			s.cliInit = f
			s.idMu.Unlock()
			s.o.live.setMode(PermissionMode(v.PermissionMode), modeReported) // guardlive.go
		}
	case *shared.StatusMessage:
		s.o.live.setMode(PermissionMode(v.PermissionMode), modeReported)
	case *shared.ResultMessage:
		id = v.SessionID
	}
	if id != "" {
		s.idMu.Lock()
		s.id = id
		s.idMu.Unlock()
	}
}

// SessionID returns the session's id: the one the SDK chose, or the latest the CLI reported.
func (s *Session) SessionID() string {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	return s.id
}

// Info returns what the session learned at start.
func (s *Session) Info() Info { return s.info }

// Interrupt stops the current turn. The turn ends with an error result; the session stays usable.
// Called from inside a hook with the hook's ctx (or one derived from it), Interrupt waits for the
// CLI's answer whatever becomes of that ctx, at most WithRequestTimeout or until the session ends:
// the CLI cancels the hook requests in flight as part of the interrupt, which ends the hook's ctx
// before the CLI answers, and the caller is told what happened to the interrupt, not to its hook.
// A ctx already done sends nothing.
func (s *Session) Interrupt(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return callErr("Interrupt", err)
	}
	if s.x.InChain(ctx) {
		ctx = context.WithoutCancel(ctx)
	}
	_, err := s.t.Request(ctx, interruptRequest{})
	return callErr("Interrupt", err)
}

// SetPermissionMode changes the permission mode of the running session (one of the
// PermissionMode constants; the CLI refuses PermissionModeBypassPermissions unless the session
// started in it or with WithAllowBypassPermissions). A mode in which a PermissionRequest hook or
// the WithCanUseTool callback would no longer run (bypassPermissions, auto; acceptEdits
// for a guard of the edit tools or the shell) is refused with an *OptionError wrapping
// ErrGuardCannotFire, as CreateSession refuses it, unless WithAllowUnenforcedHooks; so is a
// permission answer switching to it (guardswitch.go).
func (s *Session) SetPermissionMode(ctx context.Context, mode PermissionMode) error {
	if err := modeSkipsGuards(s.o.allGuards(), mode, "SetPermissionMode"); err != nil && !s.o.allowUnenforced {
		return err // guards.go: the guard would stop firing (guardlive.go: RegisterScoped's too)
	}
	_, err := s.t.Request(ctx, setPermissionModeRequest{Mode: mode})
	if err == nil {
		s.o.live.setMode(mode, "SetPermissionMode")
	}
	return callErr("SetPermissionMode", err)
}

// SetModel switches the model; "" goes back to the default. A PreModelSwitch hook may refuse it
// (a *shared.ControlError with Code "blocked_by_hook").
func (s *Session) SetModel(ctx context.Context, model string) error {
	_, err := s.t.Request(ctx, setModelRequest{Model: model})
	return callErr("SetModel", err)
}

// Control sends any control request: subtype, with request's members (a "subtype" member in it
// is ignored); it returns the CLI's answer.
func (s *Session) Control(ctx context.Context, subtype string, request map[string]any) (jsontext.Value, error) {
	v, err := s.t.Request(ctx, anyRequest{subtype: subtype, members: request})
	return v, callErr("Control", err)
}

// Done is closed when the CLI has exited.
func (s *Session) Done() <-chan struct{} { return s.t.Done() }

// Stats returns the transport's line counters.
func (s *Session) Stats() shared.Stats { return s.t.Stats() }

// Close runs the SDK's SessionEnd hooks (the CLI sends none at exit), then stops the CLI (stdin
// closed, a grace period, SIGTERM, SIGKILL to its process group) and waits for every goroutine the
// session owns. It returns the CLI's failure if it had crashed (a *shared.ProcessError), else
// nil; every call returns the same.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		if s.o.synthesizeLifecycle && s.x.Has(shared.HookEventSessionEnd) {
			in := &shared.SessionEndHookInput{Reason: "other"}
			s.fillSynthetic(&in.BaseHookInput, shared.HookEventSessionEnd)
			s.x.Run(context.Background(), in, "sdk-session-end")
		}
		s.closeErr = s.t.Close()
		s.inStep.waitBackground()                // an interrupt in flight ends with the transport
		storeErr := s.mirror.end(s.closeGrace()) // after the reader: nothing more is fed
		mcpErr := s.mcp.close(s.closeGrace())
		if storeErr != nil || mcpErr != nil { // else the CLI's error itself, not a wrapper of it
			s.closeErr = errors.Join(s.closeErr, storeErr, mcpErr)
		}
		s.obs.end(&SessionEnded{At: time.Now(), SessionID: s.SessionID(), Err: s.closeErr})
		s.x.Close() // waits for the background work of async hooks, each at most its timeout
		s.removeSettingsFile()
		s.releaseConfinement()
	})
	return s.closeErr
}

// closeGrace is WithCloseGrace's value, or its default.
func (s *Session) closeGrace() time.Duration {
	if s.o.closeGrace > 0 {
		return s.o.closeGrace
	}
	return subprocess.DefaultCloseGrace
}
