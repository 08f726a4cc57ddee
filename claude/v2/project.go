package v2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/internal/project"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// A session's repository is hostile until the program says otherwise: by default the CLI loads
// the user's settings only (--setting-sources=user) and the session's own MCP servers only
// (--strict-mcp-config), so that nothing in the working directory (.claude/settings.json,
// .claude/settings.local.json, .mcp.json, CLAUDE.md, .claude/skills, .claude/agents,
// .claude/commands, plugins enabled there) reaches the CLI. WithTrustedProject loads the
// repository's settings and files after the SDK checked them (claude/internal/project);
// WithTrustedProjectMemory passes its memory files as text. See docs/RELIABILITY.md, "Untrusted
// repositories".

// ErrUntrustedProject is wrapped by CreateSession's error when the program loads the repository's
// settings (WithTrustedProject, or WithSettingSources naming SettingSourceProject or
// SettingSourceLocal) and a file there would make the CLI run code, redirect the API or its key,
// grant a permission, or read a file outside the project. Each refusal is a *ProjectFileError
// (errors.As), naming the file, the key and the fix. The CLI has not started.
var ErrUntrustedProject = errors.New("v2: the repository's files would run or grant what the program did not choose")

// ProjectFileError is one refusal of a repository's file: File holds Key, which would let the
// repository do Reason; Fix says how to start the session anyway.
type ProjectFileError = project.Error

// WithTrustedProject loads the repository's settings as the CLI would by default: the user's,
// the project's (.claude/settings.json) and the local (.claude/settings.local.json) settings,
// and with them the repository's memory files (CLAUDE.md and the others the CLI reads), skills,
// commands and agents (from the working directory, or WithProjectConfigRoot's directory).
//
// The SDK checks those files before the CLI starts, and CreateSession fails with
// ErrUntrustedProject when any of them holds what a repository must not decide: a hook of any
// event or type; an env key outside a short allowlist of limits and switches (ANTHROPIC_BASE_URL,
// proxies, BASH_ENV, CLAUDE_CODE_SHELL_PREFIX ... are refused); a credential or header helper;
// plugins; a permission allow rule, an escalating defaultMode or additionalDirectories; a skill
// or command with frontmatter hooks, allowed-tools, model or shell, or a shell line (!`cmd`); an
// agent with hooks, mcpServers or an escalating permissionMode; a memory file, skill or rule that
// is a symbolic link, or imports a file outside the project. A skill the model calls later is
// checked again, with the whole tree, before it runs (a PreToolUse hook on Skill): one written
// mid-session is refused the same way.
//
// The risk, in one sentence: the repository's instructions, skills and agents steer the model,
// so the session's guards (WithPolicy, WithHooks, WithCanUseTool, WithSandbox) must hold on their
// own. Default: off; the repository's files are not loaded (WithTrustedProjectMemory passes its memory).
func WithTrustedProject() Option {
	return setOption("WithTrustedProject", func(o *config) { o.trustedProject = true })
}

// WithTrustedProjectMemory passes the repository's memory files to the model as text, read by the SDK
// and appended to the system prompt: CLAUDE.md, .claude/CLAUDE.md and the markdown files under
// .claude/rules of the working directory, each a regular file inside it (a symbolic link, even
// to a file inside, is an error), at most 64 KiB each and 256 KiB together. Imports (@path) are
// not followed, rules' paths frontmatter is not applied (every rule is passed), and files of the
// directories above the working directory are not read. Default: off. It excludes loading the
// project's settings (WithTrustedProject), where the CLI reads the memory files itself.
func WithTrustedProjectMemory() Option {
	return setOption("WithTrustedProjectMemory", func(o *config) { o.projectMemory = true })
}

// WithoutStrictMCPConfig lets the CLI add MCP servers from its own configuration to the
// session's: the user's (~/.claude.json) and, with the project's settings loaded, the
// repository's .mcp.json; the SDK refuses to start (ErrUntrustedProject) when that .mcp.json
// names a server, which the CLI would start on the host. Default: off: the CLI runs the session's
// MCP servers only (--strict-mcp-config); give the others with WithMCPStdioServer and its kin.
func WithoutStrictMCPConfig() Option {
	return setOption("WithoutStrictMCPConfig", func(o *config) { o.looseMCP = true })
}

// effectiveSources is the --setting-sources the CLI gets: WithSettingSources's; without it the
// user's only, or all three with WithTrustedProject or WithProjectConfigRoot.
func (o *config) effectiveSources() []SettingSource {
	switch {
	case o.sourcesSet:
		return o.settingSources
	case o.trustedProject || o.configRoot != "":
		return []SettingSource{SettingSourceUser, SettingSourceProject, SettingSourceLocal}
	}
	return []SettingSource{SettingSourceUser}
}

// projectScope is what the CLI will load from the repository.
func (o *config) projectScope(cwd string) project.Scope {
	src := o.effectiveSources()
	return project.Scope{Dir: cwd, ConfigRoot: o.configRoot,
		Project: slices.Contains(src, SettingSourceProject), Local: slices.Contains(src, SettingSourceLocal)}
}

// prepareProject runs before the CLI starts: it checks the repository's files the CLI will load
// and appends WithTrustedProjectMemory's files to the system prompt.
func (s *Session) prepareProject(o *config) error {
	cwd, err := sessionDir(o)
	if err != nil {
		return err
	}
	scope := o.projectScope(cwd)
	if o.trustedProject && o.sourcesSet && !scope.Project && !scope.Local {
		return errors.New("v2: WithTrustedProject and WithSettingSources without SettingSourceProject or SettingSourceLocal contradict each other")
	}
	if o.projectMemory && scope.Project {
		return errors.New("v2: WithTrustedProjectMemory excludes loading the project's settings (WithTrustedProject, WithProjectConfigRoot, SettingSourceProject): the CLI then reads the memory files itself, after the SDK checked them")
	}
	if err := project.Check(scope); err != nil {
		return untrusted(err, startRefused)
	}
	if err := project.CheckPluginDirs(cwd, []string{cwd, o.configRoot}, o.pluginDirs); err != nil {
		return untrusted(err, startRefused)
	}
	if o.looseMCP {
		if err := project.CheckMCPConfig(filepath.Join(firstNonBlank(o.configRoot, cwd), ".mcp.json")); err != nil {
			return untrusted(err, startRefused)
		}
	}
	if o.projectMemory {
		files, err := project.ReadMemory(cwd)
		if err != nil {
			return fmt.Errorf("v2: WithTrustedProjectMemory: %w", err)
		}
		var b strings.Builder
		for _, f := range files {
			fmt.Fprintf(&b, "Contents of %s (the project's instructions, read by the SDK):\n\n%s\n\n", f.Path, strings.TrimSpace(f.Text))
		}
		if text := strings.TrimSpace(b.String()); text != "" {
			if o.appendSystemPrompt != "" {
				o.appendSystemPrompt += "\n\n"
			}
			o.appendSystemPrompt += text
		}
	}
	return nil
}

// startRefused is untrusted's when for CreateSession.
const startRefused = "CreateSession did not start the CLI"

// untrusted wraps project.Check's refusals in ErrUntrustedProject, one per line, after when.
func untrusted(err error, when string) error {
	refusals := project.Refusals(err)
	lines := make([]string, 0, len(refusals))
	for _, r := range refusals {
		lines = append(lines, "  - "+r.Error())
	}
	return fmt.Errorf("%w (%s):\n%s%w", ErrUntrustedProject, when, strings.Join(lines, "\n"), wrapOnly{err})
}

// wrapOnly carries an error for errors.As without printing it again.
type wrapOnly struct{ err error }

func (w wrapOnly) Error() string { return "" }
func (w wrapOnly) Unwrap() error { return w.err }

// sessionDir is the session's working directory, absolute.
func sessionDir(o *config) (string, error) {
	dir := o.cwd
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return "", fmt.Errorf("v2: the working directory: %w", err)
		}
	}
	return filepath.Abs(dir)
}

// skillRecheck is the PreToolUse hook on Skill of a session that loads the project's files: the
// CLI discovers skills while the session runs (a tool may write one), and registers a skill's
// frontmatter hooks when the skill runs, so the SDK checks the repository's files again, before
// the skill loads, and denies the call when a refusal turns up. ok is false when the session does
// not load the project's files.
func (o *config) skillRecheck() (h shared.HookConfig, ok bool) {
	cwd, err := sessionDir(o)
	if err != nil {
		return h, false
	}
	scope := o.projectScope(cwd)
	if !scope.Project {
		return h, false
	}
	return shared.HookConfig{Matcher: "Skill", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
		if err := project.Check(scope); err != nil {
			return shared.Deny(untrusted(err, "the SDK refused the skill before it loaded").Error()), nil
		}
		return nil, nil
	})}, true
}

// withHook returns a copy of hooks with h added to event e's.
func withHook(hooks shared.Hooks, e shared.HookEvent, h shared.HookConfig) shared.Hooks {
	out := make(shared.Hooks, len(hooks)+1)
	for k, v := range hooks {
		out[k] = v
	}
	out[e] = append(append([]shared.HookConfig(nil), out[e]...), h)
	return out
}
