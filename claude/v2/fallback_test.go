package v2_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// WithFallbackModels passes its models in order, in one argument, and CreateSession rejects a
// fallback the CLI would never switch to.
func TestFallbackModels(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []v2.Option
		wantArg string
		wantErr string
	}{
		{"in order", []v2.Option{v2.WithModel("m"), v2.WithFallbackModels("b", "a"), v2.WithFallbackModels("c")}, "--fallback-model=b,a,c", ""},
		{"same as the main model", []v2.Option{v2.WithModel("m"), v2.WithFallbackModels("a", "m")}, "", `WithFallbackModels("m")`},
		{"repeated", []v2.Option{v2.WithFallbackModels("a", "b", "a")}, "", `WithFallbackModels("a")`},
		{"empty", []v2.Option{v2.WithFallbackModels("")}, "", "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, err := v2.ArgsFor(tc.opts...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want one containing %q", err, tc.wantErr)
				}
				if _, err := v2.CreateSession(context.Background(), append(tc.opts, v2.WithCLIPath("/nonexistent/claude"))...); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("CreateSession: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range args {
				if strings.HasPrefix(a, "--fallback-model") {
					got = append(got, a)
				}
			}
			if diff := cmp.Diff([]string{tc.wantArg}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
