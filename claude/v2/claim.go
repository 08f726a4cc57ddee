package v2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/internal/project"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Park and Claim: a CLI started before the folder of the session it will serve is known, parked
// (the CLI's --await-claim), and bound to a folder later: the TypeScript SDK's prewarm() and
// SpareProcess.claim(). Prewarm, which needs the folder up front, saves only the start; a parked
// CLI also has its tools, plugins, MCP servers and initialize done when the folder comes.

// ErrNotClaimed is in Claim's error when the parked CLI refused the claim (the folder is missing,
// its settings cannot be taken at a claim, the permission mode cannot be taken, ...: the
// *ClaimError names the CLI's reason). The session is closed; start one with CreateSession.
var ErrNotClaimed = errors.New("v2: the parked CLI refused the claim")

// ClaimError is Claim's error for a claim the CLI refused: Reason is the CLI's answer, e.g.
// "cwd_not_found: the claim cwd does not exist or is not accessible".
type ClaimError struct {
	Cwd    string
	Reason string
}

func (e *ClaimError) Error() string {
	return fmt.Sprintf("v2: the parked CLI refused the claim of %s: %s (start the session with CreateSession)", e.Cwd, e.Reason)
}

// Unwrap returns ErrNotClaimed.
func (e *ClaimError) Unwrap() error { return ErrNotClaimed }

// Parked is a CLI started and parked by Park, waiting for Claim. Its methods are safe for
// concurrent use.
type Parked struct {
	done chan struct{} // closed when CreateSession has returned
	s    *Session
	err  error
	dir  string // the parking directory the SDK made, removed by Claim and Close; "" for WithCwd's

	mu    sync.Mutex
	taken bool
}

// Park starts a CLI in the background with opts, in a parking directory (WithCwd's, which is not
// the session's folder, e.g. one that exists where WithWrapper runs the CLI; by default a new
// private temporary directory, removed at Claim or Close), and parks it: the CLI does everything it does at start (its tools,
// plugins, the options' MCP servers, the hooks' registration, initialize), and waits for Claim to
// give it the session's folder. Options are fixed at Park; the folder, its additional
// directories, the permission mode, an appended system prompt and a title come with Claim. These
// options are refused (an *OptionError from Claim), since a parked CLI starts a new session in a
// folder it learns later: WithResume, WithContinue,
// WithForkSession, and, unless WithoutLifecycleHooks, a SessionStart hook in WithHooks (the SDK
// runs it before the CLI starts, when the folder is not known). ctx bounds the whole session,
// claimed or not, as CreateSession's. A parked CLI loads the user's settings only (the default
// setting sources) and the session's MCP servers only: options that load the folder's settings
// or .mcp.json (WithTrustedProject, WithSettingSources with the project's or local settings,
// WithProjectConfigRoot, WithoutStrictMCPConfig) are refused too, since the SDK checks those
// files before the CLI loads them; WithTrustedProjectMemory reads the claimed folder's memory files at
// Claim. A Parked that is not claimed must be closed (Close).
func Park(ctx context.Context, opts ...Option) *Parked {
	p := &Parked{done: make(chan struct{})}
	go func() { // the start's goroutine: it ends when CreateSession returns (bounded by ctx and the request timeout)
		defer close(p.done)
		o := newConfig(opts)
		if err := checkParkable(&o); err != nil {
			p.err = err
			return
		}
		more := []Option{setOption("Park", func(o *config) { o.extraArgs = append(o.extraArgs, "--await-claim") })}
		if o.cwd == "" {
			dir, err := os.MkdirTemp("", "agent-sdk-park-*")
			if err != nil {
				p.err = fmt.Errorf("v2: Park: the parking directory: %w", err)
				return
			}
			p.dir = dir
			more = append(more, WithCwd(dir))
		}
		p.s, p.err = CreateSession(ctx, append(append([]Option{}, opts...), more...)...)
	}()
	return p
}

// checkParkable refuses the options a parked CLI cannot honour.
func checkParkable(o *config) error {
	switch {
	case o.resume != "" || o.continueSession || o.forkSession:
		return optionErr("WithResume/WithContinue/WithForkSession", "a parked CLI starts a new session")
	case o.synthesizeLifecycle && len(o.hooks[shared.HookEventSessionStart]) > 0:
		return optionErr("WithHooks", "a SessionStart hook runs before the CLI starts, when a parked CLI's folder is not known; use WithoutLifecycleHooks or CreateSession")
	case o.trustedProject || o.configRoot != "" || o.looseMCP ||
		slices.Contains(o.effectiveSources(), SettingSourceProject) || slices.Contains(o.effectiveSources(), SettingSourceLocal):
		return optionErr("WithTrustedProject/WithSettingSources/WithProjectConfigRoot/WithoutStrictMCPConfig",
			"a parked CLI does not load the folder's settings: the SDK checks them, and guards the skills found there, for the folder known when the CLI starts; use CreateSession")
	}
	return nil
}

// Ready is closed when the parked CLI's start has ended, successfully or not.
func (p *Parked) Ready() <-chan struct{} { return p.done }

// ClaimOptions are what Claim gives the parked CLI: the per-session half of the options.
type ClaimOptions struct {
	// Cwd is the session's folder (required; an existing directory; made absolute).
	Cwd string
	// AdditionalDirs are as WithAdditionalDirs's (each must exist).
	AdditionalDirs []string
	// PermissionMode is the session's mode, sent with the claim: a mode the CLI cannot take
	// refuses the claim, so the session never runs under another one. "": Park's.
	PermissionMode PermissionMode
	// AppendSystemPrompt is appended to the system prompt, as WithAppendSystemPrompt.
	AppendSystemPrompt string
	// Title is the session's title, as WithTitle.
	Title string
}

// claimRequest is the claim_session control request (CLI 2.1.332).
type claimRequest struct {
	Cwd                string   `json:"cwd"`
	AdditionalDirs     []string `json:"additional_directories,omitempty"`
	PermissionMode     string   `json:"permission_mode,omitempty"`
	AppendSystemPrompt string   `json:"append_system_prompt,omitempty"`
	Title              string   `json:"title,omitempty"`
	IncludeInitialize  bool     `json:"include_initialize"`
}

// Claim waits for the parked CLI to start (or ctx to end), binds it to the folder c.Cwd and
// returns the session, which the caller then owns (and closes). The SDK checks the folder as
// CreateSession checks WithCwd's before sending the claim, and after the CLI took it, checks the
// hooks the CLI now has as CreateSession does after its start (ErrHooksNotEnforced when one of
// the folder's settings could outrun the session's guards). A claim the CLI refuses is a
// *ClaimError (ErrNotClaimed); on any error the session is closed (the CLI exits), and a session
// for the folder can be started with CreateSession. A Parked is claimed once: later calls, and
// calls after Close, return ErrSpareTaken. When ctx ends before the CLI has started, Claim
// returns ctx's cause and the Parked can still be claimed or closed. The session's Info (the
// CLI's commands, agents, ...) describes the parked CLI, not the folder.
func (p *Parked) Claim(ctx context.Context, c ClaimOptions) (*Session, error) {
	select {
	case <-p.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("v2: waiting for the parked CLI: %w", context.Cause(ctx))
	}
	p.mu.Lock()
	if p.taken {
		p.mu.Unlock()
		return nil, ErrSpareTaken
	}
	p.taken = true
	p.mu.Unlock()
	defer p.removeDir()
	if p.err != nil {
		return nil, p.err
	}
	s, err := p.s, p.claim(ctx, c)
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// claim checks c, sends the claim and checks the hooks after it.
func (p *Parked) claim(ctx context.Context, c ClaimOptions) error {
	s := p.s
	if c.Cwd == "" {
		return optionErr("ClaimOptions.Cwd", "no folder given")
	}
	cwd, err := filepath.Abs(c.Cwd)
	if err != nil {
		return optionErr("ClaimOptions.Cwd", "%v", err)
	}
	if err := checkDir("ClaimOptions.Cwd", cwd); err != nil {
		return err
	}
	for _, d := range c.AdditionalDirs {
		if err := checkDir("ClaimOptions.AdditionalDirs", d); err != nil {
			return err
		}
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	if s.o.projectMemory { // as prepareProject does for WithCwd's folder
		files, err := project.ReadMemory(cwd)
		if err != nil {
			return fmt.Errorf("v2: WithTrustedProjectMemory: %w", err)
		}
		for _, f := range files {
			c.AppendSystemPrompt = strings.TrimSpace(c.AppendSystemPrompt + fmt.Sprintf("\n\nContents of %s (the project's instructions, read by the SDK):\n\n%s", f.Path, strings.TrimSpace(f.Text)))
		}
	}
	s.cwd = cwd // before the claim: the hooks the claimed CLI runs read it
	raw, err := s.t.Request(ctx, claimRequest{Cwd: cwd, AdditionalDirs: c.AdditionalDirs,
		PermissionMode: string(c.PermissionMode), AppendSystemPrompt: c.AppendSystemPrompt, Title: c.Title})
	if err != nil {
		var ce *shared.ControlError
		if errors.As(err, &ce) {
			return &ClaimError{Cwd: cwd, Reason: ce.Message}
		}
		return fmt.Errorf("v2: Claim: %w", err)
	}
	var a struct {
		Status    string `json:"status"`
		Cwd       string `json:"cwd"`
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || a.Status != "ok" {
		return &ClaimError{Cwd: cwd, Reason: fmt.Sprintf("an answer the SDK cannot read: %s", raw)}
	}
	if a.SessionID != "" && a.SessionID != s.SessionID() {
		return &ClaimError{Cwd: cwd, Reason: fmt.Sprintf("the CLI claimed session %s, not %s", a.SessionID, s.SessionID())}
	}
	return s.checkSettingsHooks(ctx, nil) // settingsguard.go: the folder's settings are the CLI's now
}

// removeDir removes the parking directory.
func (p *Parked) removeDir() {
	if p.dir != "" {
		os.RemoveAll(p.dir)
	}
}

// Close ends a parked CLI that was not claimed: it waits for the start to end, closes its session
// and removes the parking directory. On a claimed one it does nothing (the session is the
// claimer's). It returns the session's Close error.
func (p *Parked) Close() error {
	<-p.done // bounded: CreateSession returns by its ctx and request timeout
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.taken {
		return nil
	}
	p.taken = true
	defer p.removeDir()
	if p.s == nil {
		return nil
	}
	return p.s.Close()
}
