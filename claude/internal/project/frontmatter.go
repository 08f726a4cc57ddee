package project

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// kind is what a markdown file of the repository's .claude tree is to the CLI.
type kind int

const (
	kindSkill   kind = iota // .claude/skills/<name>/SKILL.md
	kindCommand             // .claude/commands/**.md
	kindAgent               // .claude/agents/**.md
)

func (k kind) String() string { return [...]string{"skill", "command", "agent"}[k] }

// skillFields are the frontmatter fields of a skill or command that grant nothing: what the CLI
// itself calls capability frontmatter (allowed-tools, hooks, model, shell) is refused, with any
// field this list does not know.
var skillFields = []string{
	"name", "description", "when_to_use", "argument-hint", "arguments", "disable-model-invocation",
	"user-invocable", "version", "license", "metadata", "context", "agent", "paths", "effort",
}

// agentFields are the frontmatter fields of an agent that grant nothing; "permissionMode" and
// "memory" are allowed with a value of agentValues. "hooks" and "mcpServers" are refused: they
// run code when the agent starts.
var agentFields = []string{
	"name", "description", "tools", "disallowedTools", "model", "color", "effort", "skills",
	"maxTurns", "isolation", "background", "initialPrompt", "permissionMode", "memory",
}

// agentValues are the values allowed for an agent's permissionMode (one that asks as much as
// the default or more) and memory (not the user's own directory, where one session could write
// what another agent of that name reads).
var agentValues = map[string][]string{
	"permissionMode": defaultModes,
	"memory":         {"project", "local"},
}

// frontmatterRE is CLI 2.1.332's own: from a first line of "---" to the next "---", anywhere.
var frontmatterRE = regexp.MustCompile(`(?s)^---\s*\n(.*?)---\s*\n?`)

// topKeyRE is a top-level "key: value" line of plain YAML.
var topKeyRE = regexp.MustCompile(`^([A-Za-z0-9_-]+)[ \t]*:(?:[ \t]+(.*))?$`)

// fixFrontmatter is the fix for a refused skill, command or agent.
const fixFrontmatter = "remove the field (or the shell line) from the file, or leave the project's files out (drop v2.WithTrustedProject) and give skills and agents from a root the program trusts (v2.WithPluginDirs) or in Go (v2.WithAgents)"

// checkMarkdown checks a skill, command or agent file: its frontmatter fields against the
// allowlist of its kind, and (skills and commands) that it runs no shell command when it loads.
func checkMarkdown(path string, k kind, text string) []error {
	refuse := func(key, reason string) error {
		return &Error{File: path, Key: key, Reason: reason, Fix: fixFrontmatter}
	}
	text = strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r\n", "\n")
	var errs []error
	if m := frontmatterRE.FindStringSubmatch(text); m != nil {
		fields, bad := frontmatterFields(m[1])
		if bad != "" {
			return []error{refuse("frontmatter", fmt.Sprintf("the line %q is not a plain \"key: value\" field, so the SDK cannot tell what the CLI would read from it", bad))}
		}
		allowed := skillFields
		if k == kindAgent {
			allowed = agentFields
		}
		for _, f := range sortedKeys(fields) {
			v := strings.Trim(strings.TrimSpace(fields[f]), `"'`)
			switch {
			case !slices.Contains(allowed, f):
				errs = append(errs, refuse("frontmatter "+f, whyField(k, f)))
			case agentValues[f] != nil && !slices.Contains(agentValues[f], v):
				errs = append(errs, refuse("frontmatter "+f, fmt.Sprintf("value %q: only %s are taken from a repository", v, strings.Join(agentValues[f], ", "))))
			}
		}
		text = text[len(m[0]):]
	} else if strings.HasPrefix(strings.TrimLeft(text, " \t"), "---") {
		return []error{refuse("frontmatter", "a frontmatter without its closing \"---\"")}
	}
	if k != kindAgent && (strings.Contains(text, "!`") || strings.Contains(text, "```!")) {
		errs = append(errs, refuse("shell command (!`...`)", fmt.Sprintf("the CLI runs a %s's shell commands on the host when the %s loads", k, k)))
	}
	return errs
}

// whyField says what a refused frontmatter field would do.
func whyField(k kind, f string) string {
	switch f {
	case "hooks":
		return fmt.Sprintf("the CLI registers a %s's hooks when it runs: a command on the host, or a PreToolUse hook that rewrites a tool call after the program's guards approved it", k)
	case "allowed-tools":
		return "its tools would run without asking the program's permission callback (v2.WithCanUseTool)"
	case "mcpServers":
		return "the CLI starts the agent's MCP servers on the host"
	case "shell":
		return "it chooses the shell the skill's commands run in"
	case "model":
		return "the CLI counts a skill's model as a capability it grants"
	}
	return fmt.Sprintf("not a %s field the SDK knows to be harmless (the allowlist is in claude/internal/project/frontmatter.go)", k)
}

// frontmatterFields reads frontmatter as top-level "key: value" lines; a line that continues a
// value (indented, or a "- " item) belongs to the key before it. It returns the first line that is
// neither, or a key given twice, as bad.
func frontmatterFields(fm string) (fields map[string]string, bad string) {
	fields = map[string]string{}
	seen := false
	for _, line := range strings.Split(fm, "\n") {
		switch {
		case strings.TrimSpace(line) == "", strings.HasPrefix(line, "#"):
			continue
		case seen && (line[0] == ' ' || line[0] == '\t' || line == "-" || strings.HasPrefix(line, "- ")):
			continue
		}
		m := topKeyRE.FindStringSubmatch(line)
		if m == nil {
			return nil, line
		}
		if _, dup := fields[m[1]]; dup {
			return nil, line
		}
		fields[m[1]], seen = m[2], true
	}
	return fields, ""
}
