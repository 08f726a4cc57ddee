package parser

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// resultExtras decodes the typed extras of a result (modelUsage, origin, api_error_status) so
// that a shape a newer CLI changed leaves the field empty instead of failing the whole result:
// a lost result would end a turn without its outcome. The line's syntax is still checked.
var resultExtras = json.WithUnmarshalers(json.JoinUnmarshalers(
	json.UnmarshalFromFunc(lenient[map[string]shared.ModelUsage]),
	json.UnmarshalFromFunc(lenient[*shared.MessageOrigin]),
	json.UnmarshalFromFunc(lenient[*int]),
))

// lenient reads one value into *v, or leaves *v as it was if the value does not fit.
func lenient[T any](dec *jsontext.Decoder, v *T) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	var t T
	if json.Unmarshal(raw, &t) == nil {
		*v = t
	}
	return nil
}

// decodeResult decodes a result line.
func decodeResult(line []byte) (shared.Message, error) {
	m := &shared.ResultMessage{Raw: line}
	if err := json.Unmarshal(line, m, resultExtras); err != nil {
		return nil, err
	}
	return m, nil
}
