package shared_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

func TestWrittenPaths(t *testing.T) {
	cases := []struct {
		tool    string
		input   shared.ToolInput
		want    []string
		wantErr string // the field a *WrittenPathError names
	}{
		{"Write", shared.ToolInput{"file_path": "/p/a.txt", "content": "x"}, []string{"/p/a.txt"}, ""},
		{"Edit", shared.ToolInput{"file_path": "rel/b.go", "old_string": "a", "new_string": "b", "replace_all": false}, []string{"rel/b.go"}, ""},
		{"NotebookEdit", shared.ToolInput{"notebook_path": "/p/n.ipynb", "new_source": "print(1)"}, []string{"/p/n.ipynb"}, ""},
		// NotebookEdit's file is notebook_path: a file_path beside it is not what it writes.
		{"NotebookEdit", shared.ToolInput{"file_path": "/p/inside.txt", "notebook_path": "/etc/n.ipynb"}, []string{"/etc/n.ipynb"}, ""},
		{"NotebookEdit", shared.ToolInput{"file_path": "/p/inside.txt"}, nil, "notebook_path"},
		{"Write", shared.ToolInput{"content": "x"}, nil, "file_path"},
		{"Write", shared.ToolInput{"file_path": ""}, nil, "file_path"},
		{"Edit", shared.ToolInput{"file_path": 42}, nil, "file_path"},
		{"Write", nil, nil, "file_path"},
		{"Read", shared.ToolInput{"file_path": "/p/a.txt"}, nil, ""},
		{"Bash", shared.ToolInput{"command": "echo x > /etc/passwd"}, nil, ""},
		{"write", shared.ToolInput{"file_path": "/p/a.txt"}, nil, ""}, // names are case-sensitive
		{"mcp__fs__write_file", shared.ToolInput{"path": "/p/a.txt"}, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			got, err := shared.WrittenPaths(tc.tool, tc.input)
			var we *shared.WrittenPathError
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("WrittenPaths(%q, %v): %v", tc.tool, tc.input, err)
			case tc.wantErr != "" && (!errors.As(err, &we) || we.Field != tc.wantErr || we.ToolName != tc.tool):
				t.Fatalf("WrittenPaths(%q, %v) error %v, want a *WrittenPathError for %s", tc.tool, tc.input, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("WrittenPaths(%q, %v) (-want +got):\n%s", tc.tool, tc.input, diff)
			}
		})
	}
}

// The matcher names exactly the tools WrittenPaths knows, and is a plain list of exact names.
func TestFileWriteToolsMatcher(t *testing.T) {
	m, err := shared.CompileMatcher(shared.FileWriteToolsMatcher)
	if err != nil {
		t.Fatal(err)
	}
	if unknown := shared.UnknownToolNames(shared.Hooks{shared.HookEventPreToolUse: {{Matcher: shared.FileWriteToolsMatcher}}}); len(unknown) != 0 {
		t.Errorf("FileWriteToolsMatcher names tools CLI 2.1.330 does not have: %v (WithStrictHooks would refuse it)", unknown)
	}
	for _, tool := range []string{"Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "Bash", "WriteFile", "NotebookRead", ""} {
		_, err := shared.WrittenPaths(tool, nil)
		if writes := err != nil; m.Match(tool) != writes {
			t.Errorf("%q: matched %v, WrittenPaths knows it %v", tool, m.Match(tool), writes)
		}
	}
}

func ExampleWrittenPaths() {
	root := "/home/me/project"
	guard := shared.OnPreToolUse(func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		paths, err := shared.WrittenPaths(in.ToolName, in.ToolInput)
		if err != nil {
			return shared.Deny(err.Error()), nil // fail closed: the call does not say what it writes
		}
		for _, p := range paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(in.Cwd, p)
			}
			// A real guard also resolves symlinks (see examples/hooks-validation/pathguard).
			if rel, err := filepath.Rel(root, filepath.Clean(p)); err != nil || !filepath.IsLocal(rel) {
				return shared.Deny(p + " is outside " + root), nil
			}
		}
		return nil, nil // no opinion: the CLI's permission rules apply
	})
	hooks := shared.Hooks{shared.HookEventPreToolUse: {{Matcher: shared.FileWriteToolsMatcher, Handler: guard}}}

	for _, in := range []shared.ToolInput{
		{"file_path": "/home/me/project/notes.txt", "content": "hi"},
		{"notebook_path": "/etc/evil.ipynb", "new_source": "x"},
		{"notebook_path": "../escape.ipynb", "new_source": "x"},
	} {
		tool := "Write"
		if _, ok := in["notebook_path"]; ok {
			tool = "NotebookEdit"
		}
		out, _ := hooks[shared.HookEventPreToolUse][0].Handler.Handle(context.Background(), &shared.PreToolUseHookInput{
			BaseHookInput:  shared.BaseHookInput{Cwd: root, HookEventName: shared.HookEventPreToolUse},
			ToolCallFields: shared.ToolCallFields{ToolName: tool, ToolInput: in},
		})
		fmt.Printf("%s: %v\n", tool, writeGuardDecision(out))
	}
	// Output:
	// Write: no opinion
	// NotebookEdit: deny: /etc/evil.ipynb is outside /home/me/project
	// NotebookEdit: deny: /home/me/escape.ipynb is outside /home/me/project
}

// writeGuardDecision renders a PreToolUse answer for the example.
func writeGuardDecision(out shared.HookOutput) string {
	so, ok := shared.AsSync(out)
	if !ok {
		return "no opinion"
	}
	if so.Decision == "" {
		return "other"
	}
	return string(so.Decision) + ": " + so.Reason
}
