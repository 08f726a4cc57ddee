// Package project reads and checks the files a repository puts in front of the Claude Code CLI:
// its settings (.claude/settings.json, .claude/settings.local.json), its skills, commands and
// agents (.claude/skills, .claude/commands, .claude/agents), its memory files (CLAUDE.md and the
// others the CLI loads) and .mcp.json. The SDK runs Check before the CLI starts, for a session
// that opted in to the repository's settings (v2.WithTrustedProject, or setting sources that name
// the project): a repository is hostile until the program says otherwise, and even then nothing
// in it may run code on the host, redirect the API or its key, grant a permission, or pull a file
// from outside the project into the model's context.
//
// Every check is an allowlist: a key, a frontmatter field or an environment variable the package
// does not know to be harmless is refused, with the file, the key and the fix (*Error). What the
// package cannot read the way the CLI reads it (unparsable JSON, frontmatter that is not plain
// "key: value" lines) is refused too.
package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Error is one refusal: File (an absolute path) holds Key, which would make the CLI run, read or
// grant something the program did not choose.
type Error struct {
	// File is the file that holds the key, an absolute path.
	File string
	// Key names what was refused inside the file: a settings key path such as
	// "hooks.SessionStart[0].hooks[0]" or "env.ANTHROPIC_BASE_URL", a frontmatter field such as
	// "frontmatter hooks", or "" when the file itself is refused (a link).
	Key string
	// Reason says what the key would let the repository do.
	Reason string
	// Fix says how to start the session anyway.
	Fix string
}

// Error reports the file, the key, the reason and the fix.
func (e *Error) Error() string {
	where := e.File
	if e.Key != "" {
		where += ": " + e.Key
	}
	return fmt.Sprintf("%s: %s; %s", where, e.Reason, e.Fix)
}

// Scope is what the CLI will load from the repository, and so what Check reads.
type Scope struct {
	// Dir is the session's working directory, an absolute path: the CLI reads memory files there
	// and in the directories above it, and skills, commands and agents there and below.
	Dir string
	// ConfigRoot is where the CLI reads the project's settings and .claude trees instead of Dir
	// (v2.WithProjectConfigRoot); "" is Dir.
	ConfigRoot string
	// Home is the user's home directory: the walk up from Dir stops below it (the user's own
	// ~/.claude is not the repository's). "" is os.UserHomeDir.
	Home string
	// Project and Local are whether the CLI loads .claude/settings.json and
	// .claude/settings.local.json (and with Project, the memory files, skills, commands and
	// agents; with Local, CLAUDE.local.md).
	Project, Local bool
}

// Check reads what scope says the CLI will load and returns every refusal, joined (each an
// *Error), or nil. It follows no symbolic link.
func Check(scope Scope) error {
	if scope.Home == "" {
		scope.Home, _ = os.UserHomeDir()
	}
	root := scope.ConfigRoot
	if root == "" {
		root = scope.Dir
	}
	var errs []error
	if scope.Project {
		errs = append(errs, checkSettingsFile(filepath.Join(root, ".claude", "settings.json"))...)
	}
	if scope.Local {
		errs = append(errs, checkSettingsFile(filepath.Join(root, ".claude", "settings.local.json"))...)
	}
	if scope.Project || scope.Local {
		errs = append(errs, checkTree(scope, root)...)
	}
	return errors.Join(errs...)
}

// Refusals returns the *Error values of an error Check returned.
func Refusals(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		if e, ok := err.(*Error); ok {
			out = append(out, e)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}
