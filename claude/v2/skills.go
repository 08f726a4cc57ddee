package v2

import (
	"strings"
	"unicode"
)

// WithSkills enables only the named skills for the main session, as the official SDKs' skills
// option with a list does: the CLI lists only these to the model (the initialize request's
// skills allowlist), its Skill tool refuses any other ("Skill x is not in this session's skills
// allowlist"), and each listed one may run without a permission prompt (the rule Skill(name) is
// added to WithAllowedTools's). WithSkills() with no name hides every skill. A name is the skill's
// directory or SKILL.md name (.claude/skills/<name>/SKILL.md of a setting source, see
// WithSettingSources), or "plugin:skill" for a plugin's skill (WithPluginDirs). Calling it again
// adds names.
//
// It is a filter of what the model is offered, not a sandbox: an unlisted skill's files stay
// readable to the Read and Bash tools. Subagents are not filtered (see AgentDefinition.Skills).
// Enabling a skill grants what its SKILL.md grants: once the model has run it, the tools of its
// allowed-tools run without a permission prompt (TestRealCLI_SkillAllowedTools); hooks still
// decide, a PreToolUse deny holds.
// Default: no allowlist and no rule: the CLI lists every skill it discovers, and CLI 2.1.330 runs
// a skill unasked unless its SKILL.md names allowed-tools; such a skill then needs a permission
// (WithAllowedTools, WithCanUseTool, a hook or settings), without which it is denied. A name must
// not be empty, "*", start with "/", end in ":*", or hold surrounding spaces, parentheses,
// commas, backslashes or control characters: such a name could never match a skill, or would be
// read as another permission rule. It excludes WithAllSkills.
func WithSkills(names ...string) Option {
	return setOption("WithSkills", func(o *config) {
		o.skillNames = append(o.skillNames, names...)
		if o.skillNames == nil {
			o.skillNames = []string{}
		}
		o.skillsSet = true
		for _, n := range names {
			o.allowedTools = append(o.allowedTools, "Skill("+n+")") // checkSkills checks n
		}
	})
}

// WithAllSkills enables every skill the CLI discovers (the official SDKs' skills "all"): they
// are all listed to the model and may run without a permission prompt (the rule Skill is added to
// WithAllowedTools's, which also takes skills out of WithCanUseTool's hands; hooks still run).
// Default: off (see WithSkills). It excludes WithSkills.
func WithAllSkills() Option {
	return setOption("WithAllSkills", func(o *config) {
		o.allSkills = true
		o.allowedTools = append(o.allowedTools, "Skill")
	})
}

// badSkillName says why name cannot be a skill of WithSkills, or "".
func badSkillName(name string) string {
	switch {
	case strings.TrimSpace(name) == "":
		return "empty name"
	case name != strings.TrimSpace(name):
		return "surrounding spaces (the Skill tool trims the name it is called with)"
	case name == "*" || strings.HasSuffix(name, ":*"):
		return "no wildcards: name each skill, or use WithAllSkills"
	case strings.HasPrefix(name, "/"):
		return "a skill's name, not its slash command"
	case strings.ContainsAny(name, "(),\\\ufeff"):
		return "parentheses, commas, backslashes and byte-order marks would change the permission rule Skill(name)"
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "control character"
	}
	return ""
}
