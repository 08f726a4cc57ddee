package v2

import (
	"context"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// User dialogs: the CLI asks its host to render a blocking dialog (a request_user_dialog control
// request, e.g. kind DialogRefusalFallback), but only of the kinds the host declared in
// initialize's supportedDialogKinds. Without a declaration the CLI never sends one and the flow
// behind it takes its no-dialog path (for a refusal: the refusal error ends the turn).

// DialogRefusalFallback is the dialog kind the CLI shows when the model refused and a fallback
// model could answer instead: its payload names the models; an answer of DialogCompleted with
// a result of the kind's shape picks what happens, DialogCancelled takes the CLI's default.
const DialogRefusalFallback = "refusal_fallback_prompt"

// UserDialogRequest is a dialog the CLI asks the host to render.
type UserDialogRequest struct {
	// Kind is the dialog kind (one of WithUserDialog's kinds).
	Kind string `json:"dialog_kind"`
	// Payload is the kind's data, as the CLI sent it (its shape is the kind's).
	Payload jsontext.Value `json:"payload"`
	// ToolUseID names the tool call the dialog belongs to, if any.
	ToolUseID string `json:"tool_use_id,omitzero"`
}

// User dialog answers: DialogCompleted carries the kind's result, DialogCancelled applies the
// dialog's default.
const (
	DialogCompleted = "completed"
	DialogCancelled = "cancelled"
)

// UserDialogResult is the host's answer to a dialog: Behavior DialogCompleted with Result (any
// JSON value of the kind's shape), or DialogCancelled.
type UserDialogResult struct {
	Behavior string `json:"behavior"`
	Result   any    `json:"result,omitzero"`
}

// UserDialogFunc renders a dialog and returns the user's answer. It must honour ctx, which ends at
// the WithUserInputTimeout bound, when the CLI withdraws the dialog, and on Close.
type UserDialogFunc func(ctx context.Context, req *UserDialogRequest) (UserDialogResult, error)

// WithUserDialog declares the dialog kinds fn can render (initialize's supportedDialogKinds)
// and answers the CLI's dialogs of those kinds with it. fn runs on a goroutine of its own per
// dialog, bounded by WithUserInputTimeout; an error, a panic, the timeout or another behavior
// answers DialogCancelled (the dialog's default). kinds must be non-empty, without duplicates.
// Default: no kind is declared, and the CLI takes each dialog's no-dialog path (fail-closed).
func WithUserDialog(fn UserDialogFunc, kinds ...string) Option {
	return setOption("WithUserDialog", func(o *config) {
		o.onUserDialog, o.dialogKinds = fn, append([]string(nil), kinds...)
		o.dialogGiven = true
	})
}

// checkUserInput checks WithUserInputTimeout and WithUserDialog.
func (o *config) checkUserInput() error {
	if o.inputTimeout < 0 {
		return optionErr("WithUserInputTimeout", "negative duration %v", o.inputTimeout)
	}
	if !o.dialogGiven {
		return nil
	}
	if o.onUserDialog == nil {
		return optionErr("WithUserDialog", "the callback is nil")
	}
	if len(o.dialogKinds) == 0 {
		return optionErr("WithUserDialog", "no dialog kind is declared: the CLI would send none (give e.g. v2.DialogRefusalFallback)")
	}
	seen := map[string]bool{}
	for _, k := range o.dialogKinds {
		if strings.TrimSpace(k) == "" || k != strings.TrimSpace(k) {
			return optionErr("WithUserDialog", "dialog kind %q is empty or has surrounding spaces", k)
		}
		if seen[k] {
			return optionErr("WithUserDialog", "dialog kind %q is given twice", k)
		}
		seen[k] = true
	}
	return nil
}

// answerUserDialog is the "request_user_dialog" control request's handler. A dialog of a kind the
// session did not declare is not answered (the CLI's contract: an error answer leaves it pending
// for a client that can render it, where a cancel would settle it).
func (s *Session) answerUserDialog(ctx context.Context, raw jsontext.Value) (any, error) {
	cancelled := UserDialogResult{Behavior: DialogCancelled}
	var req UserDialogRequest
	if err := json.Unmarshal(raw, &req, json.RejectUnknownMembers(false)); err != nil {
		s.logger.Warn("v2: a user dialog the SDK cannot read is cancelled", "error", err)
		return cancelled, nil
	}
	fn := s.o.onUserDialog
	if fn == nil || !slices.Contains(s.o.dialogKinds, req.Kind) {
		return nil, errUndeclaredDialog(req.Kind)
	}
	res, err := callUserInput(ctx, s, "user dialog", func(ctx context.Context) (UserDialogResult, error) { return fn(ctx, &req) })
	if err != nil {
		s.logger.Warn("v2: user dialog cancelled", "kind", req.Kind, "error", err)
		return cancelled, nil
	}
	switch res.Behavior {
	case DialogCompleted:
		return res, nil
	case DialogCancelled:
		return cancelled, nil
	}
	s.logger.Warn("v2: user dialog cancelled: the callback's behavior is not completed or cancelled", "kind", req.Kind, "behavior", res.Behavior)
	return cancelled, nil
}

type errUndeclaredDialog string

func (e errUndeclaredDialog) Error() string {
	return "v2: dialog kind " + string(e) + " was not declared by this session (WithUserDialog); not answered"
}
