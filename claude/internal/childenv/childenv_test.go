package childenv

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBuild(t *testing.T) {
	parent := []string{"CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID=parent", "CLAUDE_CODE_MESSAGING_SOCKET=/tmp/parent.sock",
		"CLAUDE_CODE_MESSAGING_TOKEN=tok", "CLAUDE_PID=123", "CLAUDE_PROJECT_DIR=/parent", "CLAUDE_CODE_CHILD_SESSION=1",
		"CLAUDE_CODE_ENTRYPOINT=cli", "CLAUDE_CODE_SESSION_ATTENDED=1", "CLAUDE_ENV_FILE=/e", "CLAUDE_EFFORT=high"}
	tests := []struct {
		name  string
		base  []string
		extra [][]string
		want  []string
	}{
		{"drops the parent session's variables", append([]string{"A=1"}, append(parent, "B=2")...), nil, []string{"A=1", "B=2"}},
		{"keeps the user's CLAUDE_CODE_ settings", []string{"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_MAX_OUTPUT_TOKENS=9"}, nil, []string{"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_MAX_OUTPUT_TOKENS=9"}},
		{"extra wins and is appended", []string{"A=1", "B=2"}, [][]string{{"B=3", "C=4"}}, []string{"A=1", "B=3", "C=4"}},
		{"several extras, in order", []string{"A=1"}, [][]string{{"B=1"}, {"B=2", "C=3"}}, []string{"A=1", "B=1", "B=2", "C=3"}},
		{"a parent variable set explicitly is kept", []string{"CLAUDE_PROJECT_DIR=/parent"}, [][]string{{"CLAUDE_PROJECT_DIR=/mine"}}, []string{"CLAUDE_PROJECT_DIR=/mine"}},
		{"CLAUDECODE in extra is dropped too", []string{"A=1"}, [][]string{{"CLAUDECODE=1"}}, []string{"A=1"}},
		{"empty base", []string{}, [][]string{{"X=1"}}, []string{"X=1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Build(tt.base, tt.extra...)); diff != "" {
				t.Errorf("Build (-want +got):\n%s", diff)
			}
		})
	}
}

// With a nil base the inherited environment is the base, filtered the same way.
func TestBuildInherits(t *testing.T) {
	t.Setenv("CHILDENV_KEEP", "1")
	t.Setenv("CLAUDE_CODE_MESSAGING_TOKEN", "parent-token")
	got := map[string]bool{}
	for _, kv := range Build(nil) {
		got[kv] = true
	}
	if !got["CHILDENV_KEEP=1"] || got["CLAUDE_CODE_MESSAGING_TOKEN=parent-token"] {
		t.Errorf("Build(nil) kept CHILDENV_KEEP %v, dropped the parent's token %v", got["CHILDENV_KEEP=1"], !got["CLAUDE_CODE_MESSAGING_TOKEN=parent-token"])
	}
}
