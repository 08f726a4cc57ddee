package v2

import (
	"context"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// CreateSession validates the options, starts the CLI, registers the hooks with it (initialize)
// and returns when the CLI has accepted them. It fails with ErrHooksNotEnforced when the CLI
// refuses or does not apply the registration of a hook that guards an action (see
// WithAllowUnenforcedHooks, WithStrictHooks), and, for a session that guards tool calls (hooks on
// PreToolUse or PermissionRequest, or WithCanUseTool), when a hook of the user's, project's or
// local settings or a plugin could allow or rewrite a tool call past those guards (see
// WithSettingSources). ctx bounds the whole session: cancelling it closes the session. Every
// error it returns starts with "v2: ", most name the option to fix (docs/ERRORS.md).
func CreateSession(ctx context.Context, opts ...Option) (*Session, error) {
	s, err := createSession(ctx, opts)
	return s, callErr("CreateSession", err)
}

// createSession is CreateSession.
func createSession(ctx context.Context, opts []Option) (*Session, error) {
	o := newConfig(opts)
	if err := o.validate(); err != nil {
		return nil, err
	}
	if err := o.checkPaths(); err != nil { // validate_misuse.go
		return nil, err
	}
	if err := o.checkUserAgents(); err != nil { // guardagents.go
		return nil, err
	}
	o.live = &liveGuards{} // guardlive.go
	if o.logger == nil {
		o.logger = slog.Default() // the transport's too (optionTable's WithLogger row)
	}
	logger := o.logger
	s := &Session{o: o, logger: logger, obs: newObserverRunner(o.observers, logger)}
	s.mirror = newMirror(o.store, logger, o.mirrorTimeout(), s.SessionID, s.emit)
	s.warnUnfiredGuard() // guards.go: one WithAllowUnenforcedHooks accepted
	if err := s.newExecutor(); err != nil {
		return nil, err
	}
	o.live.scopes = s.x.ScopeIDs
	ok := false
	defer func() {
		if !ok {
			s.x.Close()
			s.mirror.end(s.closeGrace())
			s.removeSettingsFile()
			s.releaseConfinement()
			s.mcp.close(s.closeGrace())
		}
	}()
	var err error
	if s.mcp, err = newMCPHost(ctx, o.mcpInProcess, logger); err != nil {
		return nil, err
	}
	cliPath, err := findCLI(&o)
	if err != nil {
		return nil, err
	}
	// The path found goes to the transport through optionTable's WithCLIPath row.
	o.cliPath = cliPath
	if err := s.prepareProject(&o); err != nil { // project.go: before anything of the repository runs
		return nil, err
	}
	if err := s.checkSettingsMode(&o); err != nil { // guardsettings.go: after the project's files passed their checks
		return nil, err
	}
	settingsHooks, err := s.prepare(ctx, &o)
	if err != nil {
		return nil, err
	}
	if err := s.start(ctx); err != nil {
		return nil, err
	}
	if err := s.initialize(ctx); err != nil {
		err = s.startFailed(ctx, cliPath, err) // starterror.go: before Close, which ends the CLI
		s.t.Close()
		return nil, err
	}
	if err := s.checkSettingsHooks(ctx, settingsHooks); err != nil {
		s.t.Close()
		return nil, err
	}
	if err := s.checkGuardToolNames(s.info.CLIVersion); err != nil { // guards.go
		s.t.Close()
		return nil, err
	}
	ok = true
	s.obs.start(&SessionStarted{At: time.Now(), SessionID: s.SessionID(), Info: s.info})
	return s, nil
}

// newExecutor makes the session's hook executor from its Go hooks: WithHooks's, plus the
// SubagentStart hook of WithSubagentHooks; none when AGENT_SDK_HOOKS_ENABLED=false switched them
// off (an error with WithStrictHooks).
func (s *Session) newExecutor() error {
	o := &s.o
	hs := o.hooks
	if o.subagentHooks != nil {
		hs = shared.Hooks{}
		for e, cfgs := range o.hooks {
			hs[e] = cfgs
		}
		hs[shared.HookEventSubagentStart] = append(append([]shared.HookConfig(nil), hs[shared.HookEventSubagentStart]...), s.subagentHook(o.subagentHooks))
	}
	if h, ok := o.skillRecheck(); ok { // project.go
		hs = withHook(hs, shared.HookEventPreToolUse, h)
	}
	if len(hs) > 0 && strings.EqualFold(strings.TrimSpace(os.Getenv(HooksEnabledEnv)), "false") {
		if o.strictHooks {
			return fmt.Errorf("%w: %s=false switched hooks off and strict hooks are on", ErrHooksNotEnforced, HooksEnabledEnv)
		}
		s.logger.Error("v2: Go hooks are DISABLED by the rollback switch: no hook will run, nothing is enforced", "env", HooksEnabledEnv+"=false")
		s.info.HooksDisabledByEnv = true
		hs = nil
	}
	// Observe also feeds the turn's refusals (refusals.go): a guard that failed closed.
	xo := hooks.Options{DefaultTimeout: o.hookTimeout, Logger: s.logger, StrictToolNames: o.strictHooks, Observe: s.onHookRun,
		CheckPermission: o.permissionCheck()} // guardswitch.go
	if o.hookEvents {
		xo.Progress = s.onHookProgress
	}
	x, err := hooks.New(hs, xo)
	if err != nil {
		return hooksErr(err) // validate_misuse.go: names the option
	}
	s.x = x
	// The executor has logged them already (NewHookExecutor); Info reports them too.
	for _, n := range shared.UnknownToolNames(hs) {
		s.info.Warnings = append(s.info.Warnings, fmt.Sprintf("a hook matcher names %q, a tool the CLI does not have: the hook never fires for it", n))
	}
	return nil
}

// prepare does what must happen before the CLI starts: it picks the session id, copies a resumed
// session from the store, runs the SDK's SessionStart and writes the settings file. It returns
// the number of settings hooks per event in that file, and leaves the final options in s.o.
func (s *Session) prepare(ctx context.Context, o *config) (settingsHooks map[string]int, err error) {
	s.cwd, o.traceCtx = o.cwd, ctx
	if s.cwd == "" {
		s.cwd, _ = os.Getwd()
	}
	// The SDK picks the id of every new session, forks included, so that it is known before the
	// CLI starts (SessionStart needs it). A resumed session keeps its id. Only --continue picks a
	// session the SDK cannot name in advance: it asks the running CLI (sessionIDFromCLI).
	if o.sessionID == "" && (o.forkSession || (o.resume == "" && !o.continueSession)) {
		o.sessionID = newUUID()
	}
	switch {
	case o.sessionID != "":
		s.id = o.sessionID
	case o.resume != "":
		s.id = o.resume
	}
	if err := s.resumeFromStore(ctx); err != nil { // storeload.go
		return nil, err
	}
	// SessionStart(startup) never reaches SDK callbacks (the CLI runs it before initialize): the SDK
	// runs it itself, before the CLI starts, and appends its additionalContext to the system prompt.
	if s.synthStart() && s.id != "" {
		if ctxText := s.runSessionStart(ctx, o.resume != "" || o.continueSession); ctxText != "" {
			if o.appendSystemPrompt != "" {
				o.appendSystemPrompt += "\n\n"
			}
			o.appendSystemPrompt += "SessionStart hook additional context: " + ctxText
		}
	}
	// Always a file, never inline JSON on the command line (WithSettings).
	if o.hasSettingsHooks() || strings.TrimSpace(o.settings) != "" {
		path, counts, err := o.writeSettingsFile()
		if err != nil {
			return nil, err
		}
		s.settingsFile, o.settings, settingsHooks = path, path, counts
	}
	s.o = *o
	return settingsHooks, nil
}

// synthStart reports whether the SDK runs SessionStart itself.
func (s *Session) synthStart() bool {
	return s.o.synthesizeLifecycle && s.x.Has(shared.HookEventSessionStart)
}

// start starts the CLI with the options' path, arguments, environment and limits
// (transportConfig) and the session's handlers, and, with WithContinue, learns the session id
// the CLI chose.
func (s *Session) start(ctx context.Context) error {
	tc := s.o.transportConfig()
	if err := s.confineCLI(&tc); err != nil { // confine.go
		return err
	}
	tc.Hooks, tc.MCP, tc.HostRequests, tc.OnMessage = s.x, s.mcpHandler(), s.hostRequests(), s.observe
	t, err := subprocess.Start(ctx, tc)
	if err != nil {
		return err
	}
	s.attachMCP(t)
	s.regMu.Lock()
	s.t = t
	s.regMu.Unlock()
	s.startEmitting(t) // WithHookEvents's events, WithSessionStore's mirror_error
	if s.SessionID() == "" {
		s.learnContinuedID(ctx)
	}
	return nil
}

// learnContinuedID asks the CLI, started with --continue, which session it chose (it answers
// get_status before initialize), and runs the SDK's SessionStart (source resume) for it.
func (s *Session) learnContinuedID(ctx context.Context) {
	if id, err := s.sessionIDFromCLI(ctx); err == nil && id != "" {
		s.idMu.Lock()
		if s.id == "" {
			s.id = id
		}
		s.idMu.Unlock()
	} else {
		s.logger.Debug("v2: could not learn the session id from the CLI", "error", err)
	}
	if s.synthStart() {
		if ctxText := s.runSessionStart(ctx, true); ctxText != "" {
			s.warn("WithContinue: the SessionStart hook's additionalContext is dropped: the session id is only known once the CLI runs, too late for the system prompt (use WithResume)")
		}
	}
}
