package v2

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// WithJSONSchema asks for structured output (--json-schema): the CLI offers the model a
// StructuredOutput tool with this JSON Schema as its input, checks what the model gives against
// it (asking again, up to $MAX_STRUCTURED_OUTPUT_RETRIES times, 5 by default with CLI 2.1.330),
// and puts the value in the result's StructuredOutput. A turn whose output never matches ends with
// a result of subtype "error_max_structured_output_retries" (Run: a *ResultError matching
// ErrMaxStructuredOutputRetries). schema must be a JSON object. Default: none (plain text
// results). The schema's type must be "object". See WithOutputSchemaFor to derive the schema
// from a Go type (a struct or a map).
func WithJSONSchema(schema jsontext.Value) Option {
	return setOption("WithJSONSchema", func(o *config) { o.jsonSchema = append(jsontext.Value(nil), schema...) })
}

// WithOutputSchemaFor is WithJSONSchema with the schema derived from the Go type T by
// github.com/google/jsonschema-go (the MCP Go SDK's): exported fields by their json names,
// required unless tagged omitempty or omitzero, no other properties allowed. A type the library
// cannot describe (a channel, a func) makes CreateSession fail. Decode the result with
// DecodeOutput[T] or use RunAs[T]. Default: none, as WithJSONSchema.
func WithOutputSchemaFor[T any]() Option {
	schema, err := schemaFor[T]()
	return setOption("WithOutputSchemaFor", func(o *config) { o.jsonSchema, o.jsonSchemaErr = schema, err })
}

// schemaFor derives the JSON Schema of T.
func schemaFor[T any]() (jsontext.Value, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return jsontext.Value(b), nil
}

// ErrNoStructuredOutput: the result carries no structured output (the session has no
// WithJSONSchema, or the turn failed).
var ErrNoStructuredOutput = errors.New("v2: the result has no structured output")

// StructuredOutputError says a result's structured output could not be decoded into the Go type
// asked for. The result is kept whole; errors.Is(err, ErrNoStructuredOutput) holds when it had
// none.
type StructuredOutputError struct {
	// Result is the result message, with StructuredOutput and Raw as the CLI sent them.
	Result *shared.ResultMessage
	// Err is the cause: ErrNoStructuredOutput, or the JSON decoder's error.
	Err error
}

// Error describes the failure.
func (e *StructuredOutputError) Error() string {
	return fmt.Sprintf("v2: structured output %.200s: %v", e.Result.StructuredOutput, e.Err)
}

// Unwrap returns the cause.
func (e *StructuredOutputError) Unwrap() error { return e.Err }

// DecodeOutput decodes r's structured output into a T, exactly: a member T has no field for, or
// a value of the wrong type, is a *StructuredOutputError (so is a result without structured
// output, matching ErrNoStructuredOutput).
func DecodeOutput[T any](r *shared.ResultMessage) (T, error) {
	var v T
	if r == nil || len(r.StructuredOutput) == 0 || string(r.StructuredOutput) == "null" {
		return v, &StructuredOutputError{Result: r, Err: ErrNoStructuredOutput}
	}
	if err := json.Unmarshal(r.StructuredOutput, &v, json.RejectUnknownMembers(true)); err != nil {
		return v, &StructuredOutputError{Result: r, Err: err}
	}
	return v, nil
}

// RunAs runs prompt (Session.Run) and decodes the turn's structured output into a T
// (DecodeOutput). The session needs WithOutputSchemaFor[T] (or a WithJSONSchema that T fits). The
// result comes back whatever the error: a failed turn is Run's *ResultError, an output that does
// not fit T a *StructuredOutputError.
func RunAs[T any](ctx context.Context, s *Session, prompt string) (T, *shared.ResultMessage, error) {
	var zero T
	r, err := s.Run(ctx, prompt)
	if err != nil {
		return zero, r, err
	}
	v, err := DecodeOutput[T](r)
	return v, r, err
}
