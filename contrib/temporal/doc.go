// Package temporalagent runs Claude Code agent sessions as Temporal activities, so that a
// workflow drives them durably: a turn survives the death of its worker (the retry resumes the
// same session from its last completed message), an approval can wait for days in the
// workflow's history, and cancelling the workflow ends the CLI and everything it started.
//
// On the worker, NewActivities holds what the program registers (the CLI, its hooks and policy,
// the transcript store); Register puts its activity on a worker. In the workflow, RunTurn runs
// one turn and handles pending approvals through an Approvals registry:
//
//	approvals := temporalagent.NewApprovals(ctx) // query "agent.pending", signal "agent.decide"
//	res, err := temporalagent.RunTurn(ctx, approvals, temporalagent.TurnInput{Prompt: "fix the build"})
//
// The module needs Go 1.26.10 or later (go.temporal.io's server, used by its tests); with an
// older go command, set GOTOOLCHAIN=go1.27.3. See docs/TEMPORAL.md for the design and its
// guarantees.
package temporalagent
