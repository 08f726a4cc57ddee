package v2

import (
	"context"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// An answer to a permission prompt may switch the permission mode (its updatedPermissions'
// setMode), which the SDK's SetPermissionMode check does not see: CLI 2.1.332 applies the setMode
// of a WithCanUseTool answer at once, and the next tool calls run in that mode. That is how plan
// mode ends in a mode of the program's choosing: ExitPlanMode asks the callback (without
// WithCanUseTool the CLI offers no ExitPlanMode), a plain allow returns to "default", and an allow
// carrying setMode acceptEdits or auto switched to it, after which the callback was never asked
// for a Write (TestRealCLI_PlanExitKeepsGuards). The permission_suggestions of an edit's prompt
// offer that switch too (setMode acceptEdits).

// keepGuardsOn wraps the WithCanUseTool callback fn: an answer whose setMode would switch a guard
// off (skippedGuard, the rule of SetPermissionMode) is an error of the callback, which denies the
// tool call (fail closed) with a message naming the fix, unless WithAllowUnenforcedHooks.
func (o *config) keepGuardsOn(fn shared.CanUseToolFunc) shared.CanUseToolFunc {
	if fn == nil || o.allowUnenforced {
		return fn
	}
	return func(ctx context.Context, req *shared.CanUseTool) (*shared.PermissionResult, error) {
		r, err := fn(ctx, req)
		if err != nil || r == nil {
			return r, err
		}
		if err := switchSkipsGuards(o.allGuards, r.UpdatedPermissions, "WithCanUseTool"); err != nil {
			o.logger.Warn("v2: a permission answer would switch a guard off; the tool call is denied", "tool", req.ToolName, "error", err)
			return nil, err
		}
		return r, nil
	}
}

// permissionCheck is hooks.Options.CheckPermission: a PermissionRequest hook's decision whose
// setMode would switch a guard off fails that hook, so the call is denied (fail closed) and the
// turn's result reports it (ErrGuardFailed), unless WithAllowUnenforcedHooks. The guards are the
// options' and those of RegisterScoped's scopes at the time of the decision. Nil with
// WithAllowUnenforcedHooks.
func (o *config) permissionCheck() func(*shared.PermissionResult) error {
	if o.allowUnenforced {
		return nil
	}
	return func(r *shared.PermissionResult) error {
		return switchSkipsGuards(o.allGuards, r.UpdatedPermissions, "WithHooks/WithHook")
	}
}

// switchSkipsGuards is the error for a setMode of updates that switches one of the guards off
// (answerOpt names the option that answered), or nil. The guards are listed only for an answer
// with a setMode: most answers have none, and listing compiles the matchers.
func switchSkipsGuards(guards func() []promptGuard, updates []shared.PermissionUpdate, answerOpt string) error {
	var gs []promptGuard
	for _, u := range updates {
		if u.Type != shared.PermissionSetMode {
			continue
		}
		if gs == nil {
			gs = guards()
		}
		mode := PermissionMode(u.Mode)
		if g, why := skippedGuard(gs, mode); why != "" {
			options := answerOpt
			if g.options != answerOpt {
				options += "/" + g.options
			}
			return guardErr(options, "the answer's updatedPermissions switch the permission mode to %s (setMode), under which %s never runs%s: %s; answer without that setMode (a plain allow; for ExitPlanMode it returns to %s), %s",
				mode, g.name, g.scope(mode), why, PermissionModeDefault, guardFix)
		}
	}
	return nil
}
