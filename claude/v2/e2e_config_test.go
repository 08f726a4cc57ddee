package v2_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/internal/fakeapi"
)

// person is the structured output of the tests.
type person struct {
	Name string `json:"name"`
	Age  int    `json:"age"`
}

// structuredToolSchema returns the input schema of the StructuredOutput tool the CLI offered the
// model in r, or nil.
func structuredToolSchema(t *testing.T, r fakeapi.Request) map[string]any {
	t.Helper()
	var body struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body, json.RejectUnknownMembers(false)); err != nil {
		t.Fatalf("request body: %v", err)
	}
	for _, tool := range body.Tools {
		if tool.Name == "StructuredOutput" {
			return tool.InputSchema
		}
	}
	return nil
}

// Structured output: the schema derived from a Go type reaches the model as the StructuredOutput
// tool, the CLI enforces it, and RunAs decodes what the model gave.
func TestRealCLI_StructuredOutput(t *testing.T) {
	t.Parallel()
	t.Run("decoded", func(t *testing.T) {
		t.Parallel()
		env := newRealEnvHandler(t, func(_ string, r fakeapi.Request) fakeapi.Reply {
			if r.Index == 0 {
				return fakeapi.ToolReply("toolu_so1", "StructuredOutput", map[string]any{"name": "Ada", "age": 36})
			}
			return fakeapi.TextReply("done")
		})
		s := env.session(t, v2.WithOutputSchemaFor[person]())
		got, res, err := v2.RunAs[person](testCtx(t), s, "who?")
		if err != nil {
			t.Fatalf("RunAs: %v (result %+v)", err, res)
		}
		if diff := cmp.Diff(person{Name: "Ada", Age: 36}, got); diff != "" {
			t.Errorf("decoded output (-want +got):\n%s", diff)
		}
		schema := structuredToolSchema(t, firstRequest(t, env))
		if schema == nil {
			t.Fatal("the model was not offered the StructuredOutput tool")
		}
		props, _ := schema["properties"].(map[string]any)
		if _, ok := props["age"]; !ok || !slices.Contains(schema["required"].([]any), any("name")) {
			t.Errorf("StructuredOutput schema = %v", schema)
		}
	})
	t.Run("enforced", func(t *testing.T) {
		t.Parallel()
		env := newRealEnvHandler(t, func(_ string, r fakeapi.Request) fakeapi.Reply {
			return fakeapi.ToolReply("toolu_bad", "StructuredOutput", map[string]any{"nom": "Ada"})
		})
		s := env.session(t, v2.WithOutputSchemaFor[person](), v2.WithEnv("MAX_STRUCTURED_OUTPUT_RETRIES=2"))
		_, res, err := v2.RunAs[person](testCtx(t), s, "who?")
		if !errors.Is(err, v2.ErrMaxStructuredOutputRetries) {
			t.Fatalf("RunAs error = %v, want ErrMaxStructuredOutputRetries", err)
		}
		var re *v2.ResultError
		if !errors.As(err, &re) || re.Result != res || res.Subtype != v2.ResultErrorMaxStructuredOutputRetries {
			t.Errorf("error %#v, result %+v", err, res)
		}
		last, _ := env.api.LastRequest()
		tr, ok := last.LastToolResult()
		if !ok || !tr.IsError || !strings.Contains(tr.ResultText(), "required property 'name'") {
			t.Errorf("the model was not told its output misses the schema: %+v", tr)
		}
	})
}

// Budgets and turn limits stop the session with typed errors.
func TestRealCLI_Limits(t *testing.T) {
	t.Parallel()
	t.Run("max budget", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []fakeapi.Reply {
			r := fakeapi.ToolReply("toolu_b1", "Bash", bash("echo x > "+p+"/budget.txt"))
			r.InputTokens = 200_000 // some $0.80 at the default model's price
			return []fakeapi.Reply{r, fakeapi.TextReply("done")}
		})
		s := env.session(t, v2.WithMaxBudgetUSD(0.5), v2.WithAllowedTools("Bash"))
		res, err := s.Run(testCtx(t), "spend")
		if !errors.Is(err, v2.ErrMaxBudget) {
			t.Fatalf("Run error = %v, want ErrMaxBudget", err)
		}
		if res.TotalCostUSD <= 0.5 {
			t.Errorf("total cost %v, want beyond the budget", res.TotalCostUSD)
		}
		if n := len(env.api.Requests()); n != 1 {
			t.Errorf("%d model requests; the budget should have stopped the session after the first", n)
		}
	})
	t.Run("no budget", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []fakeapi.Reply {
			r := fakeapi.ToolReply("toolu_b1", "Bash", bash("echo x > "+p+"/budget.txt"))
			r.InputTokens = 200_000
			return []fakeapi.Reply{r, fakeapi.TextReply("done")}
		})
		if _, err := env.session(t, v2.WithAllowedTools("Bash")).Run(testCtx(t), "spend"); err != nil {
			t.Fatalf("Run: %v", err)
		}
		if n := len(env.api.Requests()); n != 2 {
			t.Errorf("%d model requests, want 2", n)
		}
	})
	t.Run("max turns", func(t *testing.T) {
		t.Parallel()
		env := newRealEnv(t, func(p string) []fakeapi.Reply {
			return []fakeapi.Reply{fakeapi.ToolReply("toolu_t1", "Bash", bash("true")), fakeapi.TextReply("done")}
		})
		_, err := env.session(t, v2.WithMaxTurns(1), v2.WithAllowedTools("Bash")).Run(testCtx(t), "go")
		if !errors.Is(err, v2.ErrMaxTurns) {
			t.Fatalf("Run error = %v, want ErrMaxTurns", err)
		}
	})
}
