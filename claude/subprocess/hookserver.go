package subprocess

import (
	"context"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// HookServer is what the transport needs of the hook engine to answer the CLI's hook requests, as
// net/http's server needs only a Handler: *hooks.Engine is one. The transport decodes a request
// (claude/parser), hands it to Serve, and writes the Result's Answer; it reads no hook answer
// itself, except the decision of a PermissionRequest chain that it joins with the can_use_tool
// prompt of the same tool call.
type HookServer interface {
	// Has reports whether requests for event e are served. The transport refuses the others
	// itself (hooks.Refusal: a denial where e guards an action, else {}).
	Has(e shared.HookEvent) bool
	// Serve runs the handlers for in on the calling goroutine and calls answer exactly once, on
	// this goroutine or on the one of a handler's fail-closed deadline; it returns when the
	// handlers have (see hooks.Engine.Serve). requestID labels the runs.
	Serve(ctx context.Context, in shared.HookInput, requestID string, answer func(hooks.Result))
	// PermissionHook reports whether a PermissionRequest hook request comes along with a
	// can_use_tool request for tool, and how long the prompt's allow waits for its decision.
	PermissionHook(tool string) (expected bool, wait time.Duration)
}

var _ HookServer = (*hooks.Engine)(nil)
