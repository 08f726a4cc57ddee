package v2

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MCP elicitation: an MCP server asks the user for input (MCP's elicitation/create). The CLI runs
// its Elicitation hooks first; when none answers, it asks the SDK with an "elicitation" control
// request, which WithElicitation's callback answers. Without the callback, or when it fails,
// panics or runs out of time, the SDK declines: the server gets no input it was not given.

// ElicitationRequest is an MCP server's request for the user's input.
type ElicitationRequest struct {
	// ServerName is the MCP server that asks.
	ServerName string `json:"mcp_server_name"`
	// Message is the question to show the user.
	Message string `json:"message"`
	// Mode is ElicitationModeForm (fill in RequestedSchema) or ElicitationModeURL (open URL);
	// empty is form.
	Mode string `json:"mode,omitzero"`
	// URL is the page to open (URL mode).
	URL string `json:"url,omitzero"`
	// ElicitationID correlates a URL elicitation with its completion (URL mode).
	ElicitationID string `json:"elicitation_id,omitzero"`
	// RequestedSchema is the JSON Schema of the input asked for (form mode).
	RequestedSchema jsontext.Value `json:"requested_schema,omitzero"`
	// PropertyOrder lists RequestedSchema's properties in the order the server gave them.
	PropertyOrder []string `json:"property_order,omitzero"`
	// Title, DisplayName and Description are the server's permission-display texts, if any
	// (its _meta "anthropic/permissionDisplay"): untrusted text, to be escaped before display.
	Title       string `json:"title,omitzero"`
	DisplayName string `json:"display_name,omitzero"`
	Description string `json:"description,omitzero"`
}

// Elicitation modes and actions (MCP's).
const (
	ElicitationModeForm = "form"
	ElicitationModeURL  = "url"

	ElicitationAccept  = "accept"
	ElicitationDecline = "decline"
	ElicitationCancel  = "cancel"
)

// ElicitationResult is the user's answer: Action is ElicitationAccept (with Content, the values
// of a form), ElicitationDecline or ElicitationCancel.
type ElicitationResult struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitzero"`
}

// ElicitationFunc answers an MCP server's request for input. It must honour ctx, which ends at
// the WithUserInputTimeout bound, when the CLI withdraws the request, and on Close.
type ElicitationFunc func(ctx context.Context, req *ElicitationRequest) (ElicitationResult, error)

// WithElicitation answers MCP servers' requests for the user's input (form fields, a URL to open)
// that no Elicitation hook answered. fn runs on a goroutine of its own per request, bounded by
// WithUserInputTimeout; an error, a panic, the timeout or an action other than accept, decline or
// cancel declines the request. Default: every such request is declined (fail-closed).
func WithElicitation(fn ElicitationFunc) Option {
	return setOption("WithElicitation", func(o *config) { o.onElicitation = fn })
}

// DefaultUserInputTimeout bounds one run of WithElicitation's and WithUserDialog's callbacks
// unless WithUserInputTimeout says otherwise: a person may take minutes.
const DefaultUserInputTimeout = 5 * time.Minute

// WithUserInputTimeout bounds one run of the WithElicitation and WithUserDialog callbacks: one
// that has not answered by then gets the fail-closed answer (decline; a cancelled dialog), its ctx
// ends with ErrUserInputTimeout, and its late answer is dropped. Default: DefaultUserInputTimeout.
func WithUserInputTimeout(d time.Duration) Option {
	return setOption("WithUserInputTimeout", func(o *config) { o.inputTimeout = d })
}

// ErrUserInputTimeout is the cause of a WithElicitation or WithUserDialog callback's ctx when
// WithUserInputTimeout ran out.
var ErrUserInputTimeout = errors.New("v2: the user input callback did not answer in time")

// declined is the fail-closed answer to an elicitation.
var declined = ElicitationResult{Action: ElicitationDecline}

// answerElicitation is the "elicitation" control request's handler.
func (s *Session) answerElicitation(ctx context.Context, raw jsontext.Value) (any, error) {
	fn := s.o.onElicitation
	var req ElicitationRequest
	if err := json.Unmarshal(raw, &req, json.RejectUnknownMembers(false)); err != nil {
		s.logger.Warn("v2: an elicitation request the SDK cannot read is declined", "error", err)
		return declined, nil
	}
	if fn == nil {
		s.logger.Info("v2: MCP elicitation declined: no WithElicitation callback", "server", req.ServerName)
		return declined, nil
	}
	res, err := callUserInput(ctx, s, "elicitation", func(ctx context.Context) (ElicitationResult, error) { return fn(ctx, &req) })
	if err != nil {
		s.logger.Warn("v2: MCP elicitation declined", "server", req.ServerName, "error", err)
		return declined, nil
	}
	switch res.Action {
	case ElicitationAccept:
		return res, nil
	case ElicitationDecline, ElicitationCancel:
		return ElicitationResult{Action: res.Action}, nil
	}
	s.logger.Warn("v2: MCP elicitation declined: the callback's action is not accept, decline or cancel", "server", req.ServerName, "action", res.Action)
	return declined, nil
}

// callUserInput runs fn on a goroutine of its own, bounded by WithUserInputTimeout, and returns
// its answer, or an error when it fails, panics or runs out of time (or ctx ends). A callback that
// ignores its ctx runs on; its answer is dropped.
func callUserInput[T any](ctx context.Context, s *Session, what string, fn func(context.Context) (T, error)) (T, error) {
	d := s.o.inputTimeout
	if d <= 0 {
		d = DefaultUserInputTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, d, ErrUserInputTimeout)
	defer cancel()
	type outcome struct {
		v   T
		err error
	}
	done := make(chan outcome, 1)
	go func() { // the callback's goroutine: it ends when the callback returns
		defer func() {
			if p := recover(); p != nil {
				s.logger.Error("v2: "+what+" callback panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				done <- outcome{err: fmt.Errorf("the %s callback panicked: %v", what, p)}
			}
		}()
		v, err := fn(ctx)
		done <- outcome{v, err}
	}()
	select {
	case o := <-done:
		return o.v, o.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("the %s callback did not answer: %w", what, context.Cause(ctx))
	}
}
