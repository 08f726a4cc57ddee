package policy

import (
	"path/filepath"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// fileTools maps the file tools of CLI 2.1.330 to the input fields naming the paths they touch,
// and whether they write them. Glob's pattern is handled apart (it may climb out with ../).
var fileTools = map[string]fileTool{
	"Write":        {fields: []string{"file_path"}, write: true},
	"Edit":         {fields: []string{"file_path"}, write: true},
	"NotebookEdit": {fields: []string{"notebook_path"}, write: true},
	"Read":         {fields: []string{"file_path"}},
	"Glob":         {fields: []string{"path"}, optional: true},
	"Grep":         {fields: []string{"path"}, optional: true},
	"LSP":          {fields: []string{"filePath", "file_path"}, optional: true},
}

// fileTool says which input fields of a file tool name paths.
type fileTool struct {
	fields   []string
	optional bool // the field may be missing: the tool then works in its cwd
	write    bool
}

// opaqueTools run code the policy cannot read: denied but in Audit.
var opaqueTools = map[string]bool{"PowerShell": true, "REPL": true, "Eval": true, "AppifactRepl": true}

// Decide judges one tool call: toolName with input, run in cwd (the hook input's Cwd). ok is false
// for a tool the policy does not guard (it then has no opinion).
func (p *Policy) Decide(toolName string, input shared.ToolInput, cwd string) (d Decision, ok bool) {
	if p.err != nil {
		return deny(RuleInvalidPolicy, "%v", p.err), true
	}
	if toolName == "Bash" {
		return p.decideBash(input, cwd), true
	}
	if opaqueTools[toolName] {
		return deny(RuleNestedCode, "the %s tool runs code the policy does not read; use Bash with plain commands", toolName), true
	}
	if fields, mapped := p.mcpPaths[toolName]; mapped {
		return p.decideMCP(toolName, fields, input, cwd), true
	}
	if spec, known := fileTools[toolName]; known {
		return p.decideFile(toolName, spec, input, cwd)
	}
	return Decision{}, false
}

func (p *Policy) decideBash(input shared.ToolInput, cwd string) Decision {
	cmd, isString := input["command"].(string)
	if !isString {
		return deny(RuleMissingPath, "the Bash call has no command string")
	}
	if v, _ := input["dangerouslyDisableSandbox"].(bool); v {
		return deny(RuleTooComplex, "commands run inside the sandbox; run it without dangerouslyDisableSandbox")
	}
	return p.Bash(cwd, cmd)
}

// decideMCP checks the fields WithMCPPaths declared as paths the tool writes.
func (p *Policy) decideMCP(toolName string, fields []string, input shared.ToolInput, cwd string) Decision {
	for _, f := range fields {
		v, _ := input[f].(string)
		if v == "" {
			return deny(RuleMissingPath, "%s input has no %s string", toolName, f)
		}
		if d := p.WritePath(cwd, v); !d.Allow {
			return d
		}
	}
	return allow
}

// decideFile checks the paths a file tool names; ok is false for a read outside the roots that
// nothing forbids.
func (p *Policy) decideFile(toolName string, spec fileTool, input shared.ToolInput, cwd string) (d Decision, ok bool) {
	check := p.ReadPath
	if spec.write {
		check = p.WritePath
	}
	named, inRoots := false, true
	for _, f := range spec.fields {
		raw, present := input[f]
		if !present {
			continue
		}
		v, _ := raw.(string)
		if v == "" && !spec.optional {
			return deny(RuleMissingPath, "%s input has no %s string", toolName, f), true
		}
		if v == "" {
			continue
		}
		named = true
		if d := check(cwd, v); !d.Allow {
			return d, true
		}
		inRoots = inRoots && p.inRoots(cwd, v)
	}
	switch {
	case !named && !spec.optional:
		return deny(RuleMissingPath, "%s input has no %s string", toolName, spec.fields[0]), true
	case !named:
		if d := check(cwd, "."); !d.Allow {
			return d, true
		}
		inRoots = p.inRoots(cwd, ".")
	}
	if toolName == "Glob" {
		d, in := p.decideGlob(input, cwd)
		if !d.Allow {
			return d, true
		}
		inRoots = inRoots && in
	}
	if !spec.write && !inRoots {
		// A read outside the roots that nothing forbids: the policy grants nothing beyond its
		// roots, so the CLI's own permission rules decide.
		return allow, false
	}
	return allow, true
}

// decideGlob checks the directory a Glob pattern climbs to (an absolute pattern, ~ or ..), and
// reports whether it is inside the roots.
func (p *Policy) decideGlob(input shared.ToolInput, cwd string) (Decision, bool) {
	pat, _ := input["pattern"].(string)
	if pat == "" || !filepath.IsAbs(pat) && !strings.HasPrefix(pat, "~") && !strings.Contains(pat, "..") {
		return allow, true
	}
	base, _ := input["path"].(string)
	if base == "" {
		base = cwd
	} else if !filepath.IsAbs(base) {
		base = filepath.Join(cwd, base)
	}
	if d := p.ReadPath(base, globPrefix(pat)); !d.Allow {
		return d, false
	}
	return allow, p.inRoots(base, globPrefix(pat))
}

// globPrefix returns the directory part of pattern before its first glob character.
func globPrefix(pattern string) string {
	i := strings.IndexAny(pattern, "*?[{")
	if i < 0 {
		return pattern
	}
	dir := filepath.Dir(pattern[:i])
	if strings.Contains(pattern[i:], "..") {
		return "/" // a .. after a glob can reach anything
	}
	return dir
}

// inRoots reports whether path, from cwd, resolves inside the write or read roots.
func (p *Policy) inRoots(cwd, path string) bool {
	real, err := p.resolve(cwd, path)
	return err == nil && (p.underAny(real, p.realWrite) || p.underAny(real, p.realRead))
}
