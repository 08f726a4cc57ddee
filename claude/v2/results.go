package v2

import (
	"errors"
	"slices"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The result subtypes of CLI 2.1.330 (shared.ResultMessage.Subtype).
const (
	ResultSuccess                         = "success"
	ResultErrorDuringExecution            = "error_during_execution"
	ResultErrorMaxTurns                   = "error_max_turns"
	ResultErrorMaxBudgetUSD               = "error_max_budget_usd"
	ResultErrorMaxStructuredOutputRetries = "error_max_structured_output_retries"
)

// Errors a *ResultError matches with errors.Is, by the result's subtype.
var (
	// ErrMaxTurns: the turn needed more model turns than WithMaxTurns allows.
	ErrMaxTurns = errors.New("v2: maximum turns reached")
	// ErrMaxBudget: the session spent more than WithMaxBudgetUSD.
	ErrMaxBudget = errors.New("v2: maximum budget reached")
	// ErrMaxStructuredOutputRetries: the model gave no output matching WithJSONSchema in the
	// attempts the CLI allows.
	ErrMaxStructuredOutputRetries = errors.New("v2: no valid structured output after the allowed retries")
	// ErrDuringExecution: the turn failed while it ran (e.g. interrupted).
	ErrDuringExecution = errors.New("v2: turn failed during execution")
	// ErrUnknownResult: a result subtype this SDK does not know (a newer CLI's); the
	// *ResultError keeps the whole result.
	ErrUnknownResult = errors.New("v2: unknown result subtype")
)

// Unwrap returns the error of the result's subtype (ErrMaxTurns, ErrMaxBudget,
// ErrMaxStructuredOutputRetries, ErrDuringExecution, ErrUnknownResult; none for "success", also
// with is_error: an API error, see the result's Result and Errors), and for each of the result's
// Refusals its kind's error (ErrPromptBlocked, ErrPermissionDenied, ErrGuardFailed) and the
// failed guard's *shared.HookError.
func (e *ResultError) Unwrap() []error {
	var errs []error
	if err := resultErr(e.Result); err != nil {
		errs = append(errs, err)
	}
	if e.Result == nil {
		return errs
	}
	for _, r := range e.Result.Refusals {
		if err := refusalErr(r.Kind); err != nil && !slices.Contains(errs, err) {
			errs = append(errs, err)
		}
		if r.Err != nil {
			errs = append(errs, r.Err)
		}
	}
	return errs
}

// resultErr is the error of r's subtype.
func resultErr(r *shared.ResultMessage) error {
	if r == nil {
		return nil
	}
	switch r.Subtype {
	case ResultSuccess:
		return nil
	case ResultErrorMaxTurns:
		return ErrMaxTurns
	case ResultErrorMaxBudgetUSD:
		return ErrMaxBudget
	case ResultErrorMaxStructuredOutputRetries:
		return ErrMaxStructuredOutputRetries
	case ResultErrorDuringExecution:
		return ErrDuringExecution
	}
	return ErrUnknownResult
}

// failed reports whether r ends its turn in failure: is_error, any subtype but "success", or a
// refusal (Refusals).
func failed(r *shared.ResultMessage) bool {
	return r.IsError || r.Subtype != ResultSuccess || len(r.Refusals) > 0
}
