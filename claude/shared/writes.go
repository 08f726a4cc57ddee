package shared

import "fmt"

// FileWriteToolsMatcher matches the tools of CLI 2.1.330 that write a file named in their input:
// Write, Edit and NotebookEdit. (That CLI has no MultiEdit tool: a matcher naming it is reported as
// an unknown tool, see UnknownToolNames.) Use it as the matcher of a PreToolUse guard together with
// WrittenPaths:
//
//	shared.HookEventPreToolUse: {{Matcher: shared.FileWriteToolsMatcher, Handler: guard}}
//
// Subagents' calls of these tools fire PreToolUse under the same names and are covered. The other
// ways an agent can change files are not: Bash commands (redirections, sed -i, cp, git, ...) and
// the tools of MCP servers. A guard that must keep every write in a directory needs a Bash hook too
// (or a sandbox); see examples/hooks-validation.
const FileWriteToolsMatcher = "Write|Edit|NotebookEdit"

// fileWriteTools maps each tool of FileWriteToolsMatcher to the input field that names the file it
// writes (CLI 2.1.330's tool schemas).
var fileWriteTools = map[string]string{
	"Write":        "file_path",
	"Edit":         "file_path",
	"NotebookEdit": "notebook_path",
}

// WrittenPathError is returned by WrittenPaths when a file-writing tool's input does not name its
// file: the field is missing, empty or not a string. A guard must deny such a call.
type WrittenPathError struct {
	ToolName string
	// Field is the input field that should name the file ("file_path", "notebook_path").
	Field string
}

// Error describes the missing path.
func (e *WrittenPathError) Error() string {
	return fmt.Sprintf("shared: %s input has no %s string", e.ToolName, e.Field)
}

// WrittenPaths returns the paths of the files that a call of toolName with input writes, as the
// input names them (not cleaned nor resolved: resolve them against the hook input's Cwd, and
// follow symlinks, before comparing). For a tool of FileWriteToolsMatcher it returns its one path,
// or a *WrittenPathError when the input does not name one, which a guard must treat as a denial.
// For every other tool it returns nil, nil: that is not "writes nothing". Bash commands
// (redirections, sed -i, cp, ...) and MCP tools are out of its scope (see FileWriteToolsMatcher).
func WrittenPaths(toolName string, input ToolInput) ([]string, error) {
	field, ok := fileWriteTools[toolName]
	if !ok {
		return nil, nil
	}
	p, _ := input[field].(string)
	if p == "" {
		return nil, &WrittenPathError{ToolName: toolName, Field: field}
	}
	return []string{p}, nil
}
