// Package claude is agent-sdk-go: a Go SDK that drives the Claude Code CLI (`claude`) as a
// subprocess and runs Go functions as hooks at the CLI's lifecycle events (PreToolUse,
// PostToolUse, SessionStart, ...). Hooks can allow, deny, rewrite or annotate what the agent does;
// every failure of a hook that guards an action denies (fail closed).
//
// The packages, each with one job:
//
//   - claude/shared: hook event names, typed hook inputs and outputs, handler and matcher types,
//     session message types, and the errors and option types callers test or fill (ErrClosed,
//     *ProcessError, *HookError, CommandHookOptions, ...). Types only.
//   - claude/parser: one line of the CLI's output to a typed message. Pure functions.
//   - claude/subprocess: the CLI process, the line framing, request correlation and the hook
//     executor.
//   - claude/v2: the session API: CreateSession with options, Send / Receive / Query / Run, Close,
//     and CommandHandler for command hooks.
//   - claude/policy: ready-made guards (policy.Confined keeps writes inside a project, Bash
//     commands included); claude/policy/shellparse: the Bash word helpers they use.
//   - claude/sessions: the CLI's stored sessions (list, read, fork, tag) and the Store interface
//     of transcripts mirrored elsewhere; claude/sessions/storetest: the tests any Store must pass.
//   - claude/claudetest: tests of an agent offline: a scripted fake model, the real CLI, its
//     installer (cmd/installcli) and a launcher of a program against the fake model
//     (cmd/fakemodel); claude/claudetest/claudesim: a small CLI simulator for unit tests.
//   - claude (this package): one-shot helpers on top of v2.
//
// Modules of their own keep their dependencies out of the core: contrib/otel (OpenTelemetry
// traces and metrics), contrib/pgstore (a sessions.Store in PostgreSQL) and contrib/temporal
// (sessions as Temporal activities). A program starts sessions with claude/v2 and writes hooks
// with claude/shared; the packages above are for what it adds. The wire form of answers, the
// control messages and the command-hook implementation are internal.
//
// A session with a hook that keeps the agent's writes inside the project:
//
//	s, err := v2.CreateSession(ctx,
//		v2.WithCwd(project),
//		v2.WithHooks(shared.Hooks{
//			shared.HookEventPreToolUse: {{
//				Matcher: shared.FileWriteToolsMatcher, // Write, Edit, NotebookEdit (CLI 2.1.330 has no MultiEdit)
//				Handler: shared.OnPreToolUse(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
//					paths, err := shared.WrittenPaths(in.ToolName, in.ToolInput)
//					if err != nil {
//						return nil, err // an input that names no file: denied (fail closed)
//					}
//					for _, p := range paths {
//						if !filepath.IsAbs(p) {
//							p = filepath.Join(in.Cwd, p)
//						}
//						if !strings.HasPrefix(filepath.Clean(p), project+"/") {
//							return shared.Deny("writes stay inside the project"), nil
//						}
//					}
//					return nil, nil // no opinion: the normal permission rules apply
//				}),
//			}},
//		}),
//	)
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	res, err := s.Run(ctx, "add a README")
//
// docs/HOOKS.md is the guide: every event, what it honours, matchers, ordering, timeouts and the
// fail-closed policy, and where this SDK differs from its design spec.
package claude

import (
	"context"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Run is a one-shot helper: it starts a session with opts, runs one prompt to its result, and
// closes the session. The result's error, if the turn failed, is a *v2.ResultError.
func Run(ctx context.Context, prompt string, opts ...v2.Option) (*shared.ResultMessage, error) {
	s, err := v2.CreateSession(ctx, opts...)
	if err != nil {
		return nil, err
	}
	res, err := s.Run(ctx, prompt)
	if cerr := s.Close(); err == nil && cerr != nil {
		err = cerr
	}
	return res, err
}
