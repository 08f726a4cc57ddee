// Package v2 is the session API of agent-sdk-go: start the Claude CLI with Go hooks, send prompts,
// stream typed messages, and close.
//
//	s, err := v2.CreateSession(ctx,
//		v2.WithCwd(project),
//		v2.WithHooks(shared.Hooks{
//			shared.HookEventPreToolUse: {{Matcher: shared.FileWriteToolsMatcher, Handler: shared.OnPreToolUse(check)}},
//		}),
//	)
//	if err != nil { ... }
//	defer s.Close()
//	for msg, err := range s.Query(ctx, "fix the failing test") { ... }
//
// A Session is safe for concurrent use, but only one Receive (or Query, Run) iterates at a time.
package v2

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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
	// ErrBusy: another Receive is already iterating.
	ErrBusy = errors.New("v2: another Receive is in progress")
)

// SessionIDError is returned by CreateSession when WithResume or WithSessionID is given something
// that is not a session id: the CLI names sessions by UUID (8-4-4-4-12 hexadecimal digits, either
// case), and the SDK passes nothing else where the CLI expects one, so that no value can be read as
// something other than an id (CLI 2.1.330's --resume also takes a session's name or a search term).
type SessionIDError struct {
	// Option is the option that carried the value: "WithResume" or "WithSessionID".
	Option string
	// ID is the value given.
	ID string
}

// Error describes the rejected value.
func (e *SessionIDError) Error() string {
	return fmt.Sprintf("v2: %s(%q): not a session id (a UUID)", e.Option, e.ID)
}

// isUUID reports whether s is a UUID as the CLI checks session ids: 8-4-4-4-12 hexadecimal digits
// of either case.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range []byte(s) {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

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
	x        *subprocess.HookExecutor
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
	sent  map[string][]initHookMatcher
	// The stream's hook events (hookevents.go): emitT once the transport runs, early before.
	emitMu sync.Mutex
	emitT  *subprocess.Transport
	early  []shared.Message
	// settingsFile is the temporary --settings file with the settings hooks, removed by Close.
	settingsFile string

	// obs delivers the observations (observe.go); nil without observers.
	obs *observerRunner
	// mirror feeds WithSessionStore's store (store.go); nil without one.
	mirror *mirror
	// mcp serves the in-process MCP servers (mcp.go), also those added at run time.
	mcp *mcpHost
	// turn gathers the current turn's refusals (refusals.go).
	turn turnWatch

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

// runSessionStart runs the SDK's SessionStart hooks (source startup, or resume) and returns their
// additionalContext.
func (s *Session) runSessionStart(ctx context.Context, resumed bool) string {
	source := "startup"
	if resumed {
		source = "resume"
	}
	in := &shared.SessionStartHookInput{Source: source}
	in.Model = s.fillSynthetic(&in.BaseHookInput, shared.HookEventSessionStart)
	res := s.x.Run(ctx, in, "sdk-session-start")
	return additionalContext(shared.HookEventSessionStart, res.Output)
}

// sessionIDFromCLI asks the CLI for its session id (the "Session ID" row of get_status).
func (s *Session) sessionIDFromCLI(ctx context.Context) (string, error) {
	raw, err := s.t.Request(ctx, "get_status", map[string]string{"subtype": "get_status"})
	if err != nil {
		return "", err
	}
	var st struct {
		Sections []struct {
			Rows []struct {
				Label string `json:"label"`
				Value string `json:"value"`
			} `json:"rows"`
		} `json:"sections"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return "", err
	}
	for _, sec := range st.Sections {
		for _, r := range sec.Rows {
			if r.Label == "Session ID" {
				return r.Value, nil
			}
		}
	}
	return "", errors.New("v2: get_status has no Session ID")
}

// fillSynthetic fills the base of an input the SDK produces itself, labelled sdk_synthesized, as
// the CLI fills its own: transcript_path, permission_mode and the model (returned, for the events
// whose input has it) from the CLI's latest system/init; before the CLI has sent one (the
// SessionStart that runs before the CLI starts, a SessionEnd without a turn), from the options the
// CLI is started with and the CLI's transcript location (transcriptPathFor).
func (s *Session) fillSynthetic(b *shared.BaseHookInput, e shared.HookEvent) (model string) {
	s.idMu.Lock()
	id, f := s.id, s.cliInit
	s.idMu.Unlock()
	if f == (initFacts{}) {
		f = initFacts{model: s.o.model, permissionMode: s.o.permissionMode}
		if f.permissionMode == "" {
			f.permissionMode = PermissionModeDefault
		}
	}
	if f.transcriptPath == "" {
		f.transcriptPath = s.transcriptPathFor(id)
	}
	b.SessionID = id
	b.TranscriptPath = f.transcriptPath
	b.Cwd = s.cwd
	b.HookEventName = e
	b.PermissionMode = f.permissionMode
	b.Extra = map[string]jsontext.Value{"sdk_synthesized": jsontext.Value("true")}
	return f.model
}

func additionalContext(e shared.HookEvent, out shared.HookOutput) string {
	so, ok := shared.AsSync(out)
	if !ok {
		return ""
	}
	switch v := so.HookSpecificOutput.(type) {
	case *shared.SessionStartOutput:
		return v.AdditionalContext
	case *shared.ContextOutput:
		return v.AdditionalContext
	}
	return ""
}

// initRequest is the initialize control request.
type initRequest struct {
	Subtype string                       `json:"subtype"`
	Hooks   map[string][]initHookMatcher `json:"hooks,omitempty"`
	// The MCP servers (mcp.go): the in-process servers' names, and the external servers' entries
	// (read by a CLI started with --await-initialize). Sent in the first initialize only: CLI
	// 2.1.330 keeps both kinds through a later initialize without them (scoped.go's
	// syncRegistration; TestE2EMCPServersSurviveReinitialize).
	SDKMCPServers         []string                  `json:"sdkMcpServers,omitempty"`
	SDKMCPServerManifests map[string]mcpManifest    `json:"sdkMcpServerManifests,omitempty"`
	MCPServers            map[string]mcpServerEntry `json:"mcpServers,omitempty"`
	// Agents are WithAgents's subagents (config.go), sent with every initialize.
	Agents map[string]AgentDefinition `json:"agents,omitempty"`
	// Skills is WithSkills's allowlist (skills.go): nil is none, empty hides every skill.
	Skills []string `json:"skills,omitzero"`
	// The options of extras.go, sent with every initialize.
	PlanModeInstructions   string            `json:"planModeInstructions,omitzero"`
	ToolAliases            map[string]string `json:"toolAliases,omitzero"`
	Title                  string            `json:"title,omitzero"`
	ForwardSubagentText    bool              `json:"forwardSubagentText,omitzero"`
	ExcludeDynamicSections bool              `json:"excludeDynamicSections,omitzero"`
}

type initHookMatcher struct {
	Matcher         string   `json:"matcher,omitempty"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	Timeout         int      `json:"timeout"`
	OnFailure       string   `json:"onFailure,omitempty"`
}

// callbackMargin is how much longer the CLI waits for a hook than the SDK's own timeouts, so that
// the SDK always answers first, with its own fail-closed answer.
const callbackMargin = 5 * time.Second

// hookRegistration builds the initialize hooks: one callback per event with handlers, its matcher
// a superset of the handlers' (the SDK filters exactly), its timeout above the chain's, and
// onFailure "block" where the event guards an action.
func hookRegistration(x *subprocess.HookExecutor) map[string][]initHookMatcher {
	events := x.Events()
	if len(events) == 0 {
		return nil
	}
	reg := make(map[string][]initHookMatcher, len(events))
	for _, e := range events {
		secs := int(math.Ceil((x.ChainTimeout(e) + callbackMargin).Seconds()))
		m := initHookMatcher{
			Matcher:         x.CLIMatcher(e),
			HookCallbackIDs: []string{"hook_" + string(e)},
			Timeout:         secs,
		}
		if e.GuardsAction() {
			m.OnFailure = "block"
		}
		reg[string(e)] = []initHookMatcher{m}
	}
	return reg
}

type initAnswer struct {
	ClaudeCodeVersion      string `json:"claude_code_version"`
	PID                    int    `json:"pid"`
	HooksApplied           bool   `json:"hooks_applied"`
	HookOnFailureSupported bool   `json:"hook_on_failure_supported"`
}

func (s *Session) initialize(ctx context.Context) error {
	s.regMu.Lock()
	defer s.regMu.Unlock()
	reg := s.registration()
	req := s.o.initRequest(reg, true)
	req.SDKMCPServerManifests = s.mcp.manifests
	raw, err := s.t.Request(ctx, "initialize", req)
	if err != nil {
		var ce *shared.ControlError
		if errors.As(err, &ce) && len(reg) > 0 {
			return s.hooksNotApplied(reg, "the CLI refused the hook registration: "+ce.Message)
		}
		return fmt.Errorf("v2: initialize: %w", err)
	}
	return s.applyInitAnswer(raw, reg)
}

// applyInitAnswer reads the CLI's initialize answer into Info and decides on the hook
// registration reg. Whatever the answer holds, it does not panic (FuzzInitAnswer).
func (s *Session) applyInitAnswer(raw []byte, reg map[string][]initHookMatcher) error {
	var a initAnswer
	_ = json.Unmarshal(raw, &a)
	s.info.Raw = raw
	s.info.CLIVersion = a.ClaudeCodeVersion
	s.info.PID = a.PID
	s.info.HooksApplied = a.HooksApplied
	s.info.HookOnFailureSupported = a.HookOnFailureSupported
	if a.ClaudeCodeVersion == "" || versionLess(a.ClaudeCodeVersion, MinCLIVersion) {
		s.warn(fmt.Sprintf("CLI %q is older than %s, the oldest this SDK supports (or did not report its version): it runs degraded; upgrade it (npm install -g @anthropic-ai/claude-code@%s)", a.ClaudeCodeVersion, MinCLIVersion, MaxTestedCLIVersion))
	}
	if len(reg) > 0 && !a.HooksApplied {
		if err := s.hooksNotApplied(reg, "the CLI did not report the hook registration applied (hooks_applied)"); err != nil {
			return err
		}
	}
	if len(reg) > 0 && !a.HookOnFailureSupported {
		s.warn("the CLI does not support onFailure:block; a failed answer may let a tool run")
	}
	s.sent = reg
	if s.sent == nil {
		s.sent = map[string][]initHookMatcher{}
	}
	return nil
}

// hooksNotApplied decides what a hook registration the CLI did not apply means: an
// ErrHooksNotEnforced when a registered event guards an action (or with WithStrictHooks), unless
// WithAllowUnenforcedHooks; else a warning, and the session goes on without its Go hooks.
func (s *Session) hooksNotApplied(reg map[string][]initHookMatcher, why string) error {
	var guards []string
	for e := range reg {
		if shared.HookEvent(e).GuardsAction() {
			guards = append(guards, e)
		}
	}
	slices.Sort(guards)
	switch {
	case s.o.strictHooks:
		return fmt.Errorf("%w: %s (strict hooks are on)", ErrHooksNotEnforced, why)
	case len(guards) > 0 && !s.o.allowUnenforced:
		return fmt.Errorf("%w: %s, and hooks of %s guard actions (WithAllowUnenforcedHooks starts without them)", ErrHooksNotEnforced, why, strings.Join(guards, ", "))
	}
	s.warn(why + "; Go hooks will not run")
	return nil
}

func (s *Session) warn(msg string) {
	s.info.Warnings = append(s.info.Warnings, msg)
	s.logger.Warn("v2: " + msg)
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
		}
	case *shared.ResultMessage:
		id = v.SessionID
	}
	if id != "" {
		s.idMu.Lock()
		s.id = id
		s.idMu.Unlock()
	}
}

// initFacts is what a system/init message says about the session, as the CLI's own hook inputs
// carry it.
type initFacts struct {
	model, permissionMode, transcriptPath string
}

// initFactsOf reads a system/init message. The transcript lies beside the project's auto-memory
// directory (memory_paths.auto, "<config>/projects/<project>/memory/"), named after the session:
// "<config>/projects/<project>/<session id>.jsonl", the CLI's transcript_path.
func initFactsOf(m *shared.SystemMessage) initFacts {
	f := initFacts{model: m.Model, permissionMode: m.PermissionMode}
	var paths struct {
		MemoryPaths struct {
			Auto string `json:"auto"`
		} `json:"memory_paths"`
	}
	if json.Unmarshal(m.Raw, &paths) == nil && paths.MemoryPaths.Auto != "" && m.SessionID != "" {
		dir := filepath.Dir(filepath.Clean(paths.MemoryPaths.Auto))
		f.transcriptPath = filepath.Join(dir, m.SessionID+".jsonl")
	}
	return f
}

// projectDirMax is the longest project directory name CLI 2.1.330 uses as is; longer ones get a
// hash the SDK does not compute.
const projectDirMax = 200

// transcriptPathFor returns where CLI 2.1.330 keeps the transcript of session id in the session's
// project, before the CLI has said so (system/init): "<config>/projects/<project>/<id>.jsonl",
// <config> being $CLAUDE_CONFIG_DIR or $HOME/.claude in the CLI's environment and <project> the
// real path of the working directory with every UTF-16 unit but an ASCII letter or digit replaced
// by "-". "" when it cannot be known (no HOME, a name over projectDirMax characters).
func (s *Session) transcriptPathFor(id string) string {
	env := s.o.baseEnv
	if env == nil {
		env = os.Environ()
	}
	lookup := func(key string) string {
		v := ""
		for _, kv := range append(append([]string{}, env...), s.o.env...) {
			if k, val, ok := strings.Cut(kv, "="); ok && k == key {
				v = val
			}
		}
		return v
	}
	config := lookup("CLAUDE_CONFIG_DIR")
	if config == "" {
		home := lookup("HOME")
		if home == "" {
			return ""
		}
		config = filepath.Join(home, ".claude")
	}
	cwd := s.cwd
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	var b strings.Builder
	for _, r := range cwd {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--") // a surrogate pair in JavaScript
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() > projectDirMax || id == "" {
		return ""
	}
	return filepath.Join(config, "projects", b.String(), id+".jsonl")
}

// SessionID returns the session's id: the one the SDK chose, or the latest the CLI reported.
func (s *Session) SessionID() string {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	return s.id
}

// Info returns what the session learned at start.
func (s *Session) Info() Info { return s.info }

// Send writes a prompt. It does not wait for the answer: read it with Receive.
func (s *Session) Send(ctx context.Context, prompt string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.sendUser(prompt)
}

// Receive yields the session's messages until and including the next *shared.ResultMessage. A
// non-fatal problem (a malformed or oversized line) is yielded as a *shared.ProtocolError and
// the iteration goes on; a fatal one (the CLI crashed: *shared.ProcessError; the session was
// closed: shared.ErrClosed; the output ended: ErrUnexpectedExit) is yielded last. A prompt can produce more
// than one result (a background task finishing starts a turn by itself, see StartedByCLI): call
// Receive again for the next. Only one Receive (or Query, Run) iterates at a time; a second one
// yields ErrBusy.
func (s *Session) Receive(ctx context.Context) iter.Seq2[shared.Message, error] {
	return s.receive(ctx, false)
}

// receive yields messages until a result; with ownTurn, results of turns the CLI started by itself
// are yielded and the iteration goes on to the next result.
func (s *Session) receive(ctx context.Context, ownTurn bool) iter.Seq2[shared.Message, error] {
	return func(yield func(shared.Message, error) bool) {
		if !s.recvBusy.TryLock() {
			yield(nil, ErrBusy)
			return
		}
		defer s.recvBusy.Unlock()
		s.receiveLocked(ctx, ownTurn, yield)
	}
}

// receiveLocked is receive's loop; the caller holds recvBusy.
func (s *Session) receiveLocked(ctx context.Context, ownTurn bool, yield func(shared.Message, error) bool) {
	for {
		msg, err := s.t.Next(ctx)
		if err != nil {
			var pe *shared.ProtocolError
			if errors.As(err, &pe) {
				if !yield(nil, err) {
					return
				}
				continue
			}
			if errors.Is(err, io.EOF) {
				err = ErrUnexpectedExit
			}
			yield(nil, err)
			return
		}
		if !yield(msg, nil) {
			return
		}
		if r, ok := msg.(*shared.ResultMessage); ok && !(ownTurn && StartedByCLI(r)) {
			return
		}
	}
}

// StartedByCLI reports whether r ends a turn that the CLI started by itself rather than one of the
// session's prompts: a background task (e.g. an async subagent) finishing makes the CLI run a turn
// of its own, whose result carries an "origin" (kind "task-notification" in CLI 2.1.330).
func StartedByCLI(r *shared.ResultMessage) bool {
	if r == nil || len(r.Raw) == 0 {
		return false
	}
	var o struct {
		Origin *struct {
			Kind string `json:"kind"`
		} `json:"origin"`
	}
	if json.Unmarshal(r.Raw, &o) != nil || o.Origin == nil {
		return false
	}
	return o.Origin.Kind != "" && o.Origin.Kind != "user"
}

// Query sends prompt and yields the messages up to and including the result of the prompt's turn.
// The results of turns the CLI starts by itself meanwhile (StartedByCLI) are yielded too, and the
// iteration goes on past them. Leaving the loop early leaves the rest for the next Receive. While
// another Receive (or Query, Run) iterates, Query yields ErrBusy and sends nothing; on any error
// before the prompt is written (ErrBusy, a done ctx) nothing is sent, so a retry sends it once.
func (s *Session) Query(ctx context.Context, prompt string) iter.Seq2[shared.Message, error] {
	return func(yield func(shared.Message, error) bool) {
		if !s.recvBusy.TryLock() {
			yield(nil, ErrBusy)
			return
		}
		defer s.recvBusy.Unlock()
		if err := s.Send(ctx, prompt); err != nil {
			yield(nil, err)
			return
		}
		s.receiveLocked(ctx, true, yield)
	}
}

// Run sends prompt and waits for the result of its turn. Non-fatal protocol errors are logged, and
// so are the results of turns the CLI started by itself (StartedByCLI), which Run skips: use Query
// or Receive to see them. A result with is_error, a subtype other than "success", or refusals
// (shared.ResultMessage.Refusals) comes back with a *ResultError (errors.Is: ErrMaxTurns,
// ErrMaxBudget, ..., ErrPromptBlocked, ErrPermissionDenied, ErrGuardFailed).
func (s *Session) Run(ctx context.Context, prompt string) (*shared.ResultMessage, error) {
	var last error
	for m, err := range s.Query(ctx, prompt) {
		if err != nil {
			var pe *shared.ProtocolError
			if errors.As(err, &pe) {
				s.logger.Warn("v2: skipped a line", "error", err)
				continue
			}
			last = err
			break
		}
		if r, ok := m.(*shared.ResultMessage); ok {
			if StartedByCLI(r) {
				s.logger.Info("v2: Run skipped the result of a turn the CLI started by itself", "result", r.Subtype)
				continue
			}
			if failed(r) {
				return r, &ResultError{Result: r}
			}
			return r, nil
		}
	}
	if last == nil {
		last = ErrUnexpectedExit
	}
	return nil, last
}

// Interrupt stops the current turn. The turn ends with an error result; the session stays usable.
// Called from inside a hook with the hook's ctx (or one derived from it), Interrupt waits for the
// CLI's answer whatever becomes of that ctx, at most WithRequestTimeout or until the session ends:
// the CLI cancels the hook requests in flight as part of the interrupt, which ends the hook's ctx
// before the CLI answers, and the caller is told what happened to the interrupt, not to its hook.
// A ctx already done sends nothing.
func (s *Session) Interrupt(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.x.InChain(ctx) {
		ctx = context.WithoutCancel(ctx)
	}
	_, err := s.t.Request(ctx, "interrupt", map[string]string{"subtype": "interrupt"})
	return err
}

// SetPermissionMode changes the permission mode of the running session.
func (s *Session) SetPermissionMode(ctx context.Context, mode string) error {
	_, err := s.t.Request(ctx, "set_permission_mode", map[string]string{"subtype": "set_permission_mode", "mode": mode})
	return err
}

// SetModel switches the model; "" goes back to the default. A PreModelSwitch hook may refuse it
// (a *shared.ControlError with Code "blocked_by_hook").
func (s *Session) SetModel(ctx context.Context, model string) error {
	req := map[string]string{"subtype": "set_model"}
	if model != "" {
		req["model"] = model
	}
	_, err := s.t.Request(ctx, "set_model", req)
	return err
}

// Control sends any control request (request must marshal to an object with "subtype") and
// returns the CLI's answer.
func (s *Session) Control(ctx context.Context, subtype string, request map[string]any) (jsontext.Value, error) {
	req := map[string]any{}
	for k, v := range request {
		req[k] = v
	}
	req["subtype"] = subtype
	return s.t.Request(ctx, subtype, req)
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
		storeErr := s.mirror.end(s.closeGrace()) // after the reader: nothing more is fed
		mcpErr := s.mcp.close(s.closeGrace())
		if storeErr != nil || mcpErr != nil { // else the CLI's error itself, not a wrapper of it
			s.closeErr = errors.Join(s.closeErr, storeErr, mcpErr)
		}
		s.obs.end(&SessionEnded{At: time.Now(), SessionID: s.SessionID(), Err: s.closeErr})
		s.x.Close() // waits for the background work of async hooks, each at most its timeout
		s.removeSettingsFile()
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

// newUUID returns a random version-4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// versionLess compares dotted versions numerically ("2.1.330" < "2.2.0"); text after the first
// blank ("2.1.330 (Claude Code)") is ignored, and a blank or non-numeric part counts as 0, so
// that whatever the CLI reports, nothing panics.
func versionLess(a, b string) bool {
	if f := strings.Fields(a); len(f) > 0 {
		a = f[0]
	}
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}
