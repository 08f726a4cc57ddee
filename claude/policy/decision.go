package policy

import "fmt"

// The names of the built-in rules a Decision can name.
const (
	RuleAllowed        = "allowed"          // nothing objects
	RuleInvalidPolicy  = "invalid-policy"   // the policy itself cannot judge (Err)
	RuleOutsideRoots   = "write-outside"    // a write outside the write roots
	RuleReadOutside    = "read-outside"     // a read outside the read roots
	RuleProtected      = "protected-path"   // a write to a protected path
	RuleDenyRead       = "deny-read"        // a read of a credentials path
	RuleUnresolvable   = "unresolvable"     // a path the analysis cannot know before the command runs
	RuleUnparsable     = "unparsable"       // a command line the shell parser rejects
	RuleTooComplex     = "too-complex"      // beyond the analysis's bounds (length, depth, globs)
	RuleNestedCode     = "inline-code"      // code of another language given inline (python -c, node -e)
	RuleNotListed      = "not-listed"       // Strict: a program not in the list
	RuleMissingPath    = "missing-path"     // a file tool's input names no path
	RuleRecursiveRoot  = "rm-root"          // a recursive delete of a root, an ancestor of one, or a dir holding a protected path
	RuleSymlinkOutside = "link-outside"     // a link pointing outside the write roots
	RuleUnknownCommand = "unknown-command"  // the program's name cannot be known before the command runs
	RuleUnknownProgram = "unknown-program"  // a program the policy does not model, or one that runs the project's code (make, go test, a script), without kernel confinement
	RuleUnknownOption  = "unknown-option"   // an option or subcommand the program's model does not know, without kernel confinement
	RuleShellEval      = "shell-evaluation" // a shell option or special variable that changes how the shell evaluates (shopt, PS4, BASH_ENV, arithmetic on data)
	RuleEnvironment    = "environment"      // a variable given to programs that the policy does not know to be harmless (GIT_SSH_COMMAND, LD_PRELOAD)
)

// Decision is a policy's verdict on one tool call.
type Decision struct {
	// Allow reports whether the call may run.
	Allow bool
	// Rule names the rule that decided: RuleAllowed, a built-in rule's name, or a Rule's Name.
	Rule string
	// Reason says, for the model, what was refused and what to do instead. Empty when allowed.
	Reason string
}

// String returns "allow" or "deny (rule): reason".
func (d Decision) String() string {
	if d.Allow {
		return "allow"
	}
	return fmt.Sprintf("deny (%s): %s", d.Rule, d.Reason)
}

// Message is the text the hook gives the model for a denial: the rule's name and the reason.
func (d Decision) Message() string {
	return fmt.Sprintf("policy: denied by rule %q: %s", d.Rule, d.Reason)
}

var allow = Decision{Allow: true, Rule: RuleAllowed}

func deny(rule, format string, args ...any) Decision {
	return Decision{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// Event is what WithDecisionLog's function receives.
type Event struct {
	Mode Mode
	// SessionID is the session's, ToolUseID the tool call's ("" for a skill's shell command).
	SessionID, ToolUseID string
	ToolName             string
	Cwd                  string
	// Subject is the command line (Bash) or the path the decision is about.
	Subject string
	// Skill is the skill or slash command whose embedded shell command was decided
	// (PreSkillShellCommand); "" for a tool call.
	Skill    string
	Decision Decision
}
