package v2

import (
	"log/slog"
	"time"
)

// WithCLIPath sets the CLI binary. Default: $CLAUDE_CLI_PATH, else "claude" on PATH.
func WithCLIPath(path string) Option {
	return setOption("WithCLIPath", func(o *config) { o.cliPath = path })
}

// WithWrapper runs the CLI through a command of the user's: the process started is argv[0] with
// argv[1:], then the CLI's path and arguments, e.g. WithWrapper("docker", "exec", "-i", "box") or
// WithWrapper("ssh", "host"), or a sandbox wrapper script that ends with `exec "$@"`. The wrapper
// gets the session's working directory and environment, and must pass stdin, stdout and stderr
// through. It runs in its own process group like the CLI would, and Close ends that group, so a
// wrapper that execs (or keeps its children in its group) is ended with everything it started;
// what it starts elsewhere (a container, a remote host) is the wrapper's to end when its stdin
// closes. With a wrapper the CLI path is not looked up locally: it is WithCLIPath as given, or
// "claude". Default: none, the CLI is started directly.
func WithWrapper(argv ...string) Option {
	return setOption("WithWrapper", func(o *config) { o.wrapper = append([]string(nil), argv...) })
}

// WithCwd sets the CLI's working directory (the project). Default: the current directory.
func WithCwd(dir string) Option { return setOption("WithCwd", func(o *config) { o.cwd = dir }) }

// WithAdditionalDirs gives the agent more directories (--add-dir). Default: none.
func WithAdditionalDirs(dirs ...string) Option {
	return setOption("WithAdditionalDirs", func(o *config) { o.additionalDirs = append(o.additionalDirs, dirs...) })
}

// WithEnv adds KEY=VALUE variables to the CLI's environment, over the inherited ones. Default:
// none added. CLAUDECODE is always removed so the CLI also starts inside a Claude Code session.
func WithEnv(kv ...string) Option {
	return setOption("WithEnv", func(o *config) { o.env = append(o.env, kv...) })
}

// WithBaseEnv replaces the inherited environment (os.Environ()) as the base of the CLI's
// environment with the KEY=VALUE variables kv (none: an empty base), as WithEnv takes them;
// WithEnv's are added on top. Default: os.Environ().
func WithBaseEnv(kv ...string) Option {
	return setOption("WithBaseEnv", func(o *config) { o.baseEnv = append([]string{}, kv...) })
}

// WithExtraArgs appends raw CLI arguments, after the SDK's own, as given: unlike the values of the
// other options (each passed as "--flag=value", so that the CLI cannot read one as a flag), these
// are read by the CLI as flags. Never pass untrusted text here. A flag an option sets with the
// SDK's checks (the setting sources, the permission mode and its bypass switch, who answers
// permission prompts, the system prompt, the model, ...) is refused, naming the option; so is
// --bare with WithCommandHooks or WithPromptHooks, whose hooks it would skip. Default: none.
func WithExtraArgs(args ...string) Option {
	return setOption("WithExtraArgs", func(o *config) { o.extraArgs = append(o.extraArgs, args...) })
}

// WithLogger sets the logger. Default: slog.Default(). The SDK never logs tool inputs or
// environment values.
func WithLogger(l *slog.Logger) Option {
	return setOption("WithLogger", func(o *config) { o.logger = l })
}

// WithStderr calls fn with each line the CLI writes on stderr. Default: the SDK keeps a tail for
// errors and discards the rest.
func WithStderr(fn func(line string)) Option {
	return setOption("WithStderr", func(o *config) { o.onStderr = fn })
}

// WithDebugFile writes the CLI's debug log to the file at path (--debug-file, which turns debug
// logging on; the official SDKs' debugFile), creating or appending to it. The log holds the
// CLI's internals (settings, hook and tool decisions, API calls), not prompts' secrets by design,
// but treat it as sensitive. Default: no debug log (WithStderr receives it on stderr instead).
func WithDebugFile(path string) Option {
	return setOption("WithDebugFile", func(o *config) { o.debugFile = path })
}

// WithMaxLineSize bounds one line of the CLI's output. Default: 100 MiB.
func WithMaxLineSize(n int) Option {
	return setOption("WithMaxLineSize", func(o *config) { o.maxLineSize = n })
}

// WithCloseGrace sets how long Close waits for the CLI after closing its stdin, and after SIGTERM.
// Default: 2 s.
func WithCloseGrace(d time.Duration) Option {
	return setOption("WithCloseGrace", func(o *config) { o.closeGrace = d })
}

// WithRequestTimeout bounds the SDK's control requests (initialize, interrupt, set_model, ...).
// Default: 60 s.
func WithRequestTimeout(d time.Duration) Option {
	return setOption("WithRequestTimeout", func(o *config) { o.requestTimeout = d })
}
