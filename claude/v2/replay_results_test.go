package v2_test

import (
	"errors"
	"strings"
	"testing"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Results the SDK cannot take as a success come back as typed errors, each with the whole result:
// an error subtype, a subtype this SDK does not know, a structured output that does not fit the Go
// type, none at all, and a structured output that is not JSON the type can hold.
func TestReplay_MalformedResults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		result string // the result line's members after "type"
		want   error
		// wantResult: the error still carries the result (its Raw holds this).
		wantRaw string
	}{
		{"max turns", `"subtype":"error_max_turns","is_error":true,"num_turns":2,"session_id":"s1","result":""`, v2.ErrMaxTurns, `"error_max_turns"`},
		{"max budget", `"subtype":"error_max_budget_usd","is_error":true,"errors":["Reached maximum budget ($0.1)"],"session_id":"s1","result":""`, v2.ErrMaxBudget, `Reached maximum budget`},
		{"max structured output retries", `"subtype":"error_max_structured_output_retries","is_error":true,"session_id":"s1","result":""`, v2.ErrMaxStructuredOutputRetries, `error_max_structured_output_retries`},
		{"during execution", `"subtype":"error_during_execution","is_error":true,"session_id":"s1","result":""`, v2.ErrDuringExecution, `error_during_execution`},
		{"unknown subtype, is_error false", `"subtype":"error_something_new","is_error":false,"session_id":"s1","result":"","future_field":7`, v2.ErrUnknownResult, `"future_field":7`},
		{"wrong structured output", `"subtype":"success","is_error":false,"session_id":"s1","result":"x","structured_output":{"name":"Ada","age":"old"}`, nil, `"age":"old"`},
		{"extra member", `"subtype":"success","is_error":false,"session_id":"s1","result":"x","structured_output":{"name":"Ada","age":3,"x":1}`, nil, `"x":1`},
		{"no structured output", `"subtype":"success","is_error":false,"session_id":"s1","result":"plain"`, v2.ErrNoStructuredOutput, `"plain"`},
		{"null structured output", `"subtype":"success","is_error":false,"session_id":"s1","result":"plain","structured_output":null`, v2.ErrNoStructuredOutput, `"plain"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newReplay(t, replayInit+expectUser("go")+`send {"type":"result",`+tc.result+"}\n"+"eof\n")
			s := r.session(t)
			_, res, err := v2.RunAs[person](testCtx(t), s, "go")
			if err == nil {
				t.Fatal("RunAs succeeded")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			var re *v2.ResultError
			var se *v2.StructuredOutputError
			switch {
			case errors.As(err, &re):
				if re.Result != res {
					t.Error("the *ResultError does not hold the result RunAs returned")
				}
			case errors.As(err, &se):
				if se.Result != res {
					t.Error("the *StructuredOutputError does not hold the result RunAs returned")
				}
			default:
				t.Errorf("error %T %v is neither a *ResultError nor a *StructuredOutputError", err, err)
			}
			if res == nil || !strings.Contains(string(res.Raw), tc.wantRaw) {
				t.Errorf("result %+v lost %s", res, tc.wantRaw)
			}
		})
	}
}
