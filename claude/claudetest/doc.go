// Package claudetest tests an agent built with this SDK offline, with no API key and no model's
// whims: the real Claude Code CLI runs real tools and fires the session's real hooks, while a
// scripted fake of the Anthropic Messages API (a Model) plays the model. It is to agents what
// net/http/httptest is to HTTP handlers. docs/TESTING.md is the guide.
//
// # A test
//
// NewEnv starts everything in one call: it finds the CLI (RequireCLI), makes a scratch HOME and an
// empty project directory, and starts the Model the test scripts. Run sends one prompt through a
// session with the test's options (hooks, permission callbacks, MCP tools); Session starts one for
// longer conversations. Everything is torn down when the test ends.
//
//	func TestGuard(t *testing.T) {
//		outside := filepath.Join(t.TempDir(), "escape.txt")
//		env := claudetest.NewEnv(t, func(project string) *claudetest.Model {
//			return claudetest.NewModel(
//				claudetest.ToolReply("toolu_01", "Write", map[string]any{"file_path": outside, "content": "x"}),
//				claudetest.TextReply("done"),
//			)
//		})
//		env.Run("write it", v2.WithAllowedTools("Write"),
//			v2.WithHook(shared.HookEventPreToolUse, "Write", myGuard(env.Project)))
//		if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
//			t.Errorf("the guard let the write through")
//		}
//	}
//
// What a test asserts on:
//   - files in the project directory (Env.Path);
//   - the tool calls the CLI reported, with their results (Env.ToolCalls: a denied call is an
//     error result carrying the reason);
//   - the decisions of the session's Go hooks (Env.Hooks);
//   - what the model was sent (Env.Model's Requests: did the hook's additionalContext reach it,
//     was the tool result an error);
//   - the turn's result (Run's *shared.ResultMessage, e.g. its permission_denials).
//
// ToolCalls and Hooks are plain values: compare them with go-cmp.
//
// # The CLI
//
// The tests run the CLI version this SDK is tested against (CLIVersion). Install it once per
// machine (needs npm):
//
//	go run github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/installcli
//
// FindCLI looks at $CLAUDE_CLI_PATH, a project-local .cache/claude-cli, that per-user install,
// then `claude` on PATH if it is CLIVersion. When it finds none, RequireCLI (and so NewEnv) skips
// the test, or fails it when CI=true, so that a CI job without the CLI fails instead of passing
// with every agent test skipped. To run sessions against a Model without an Env (a program, a
// benchmark), pass CLIEnv to v2.WithBaseEnv.
//
// # The Model
//
// A Model is an HTTP server on 127.0.0.1; point the CLI at it with ANTHROPIC_BASE_URL=URL() (Env
// and CLIEnv do). Every POST to /v1/messages that carries a "tools" array is a main-loop request:
// it consumes the next Reply of the script (or is answered by a ReplyFunc) and is recorded in
// Requests. A request without "tools" is a side query (session title, summary, ...): it gets a
// short text answer, does not consume the script, and is recorded in SideRequests. When the script
// runs out, main-loop requests are answered with TextReply("done").
//
// Replies are streamed as server-sent events in the Messages API order when the request says
// "stream":true, and returned as one JSON message otherwise. /v1/messages/count_tokens answers
// {"input_tokens":N}; any other path gets a 404 error in the Anthropic error shape.
//
// The Claude Code CLI 2.1.330 calls only POST /v1/messages?beta=true, with "stream":true, on every
// turn. It retries failed requests by itself (an HTTP 400 up to 6 attempts, a 5xx with backoff),
// and each attempt consumes a scripted reply: use Repeat to make an error stick.
//
// # Scripts, recordings and the simulator
//
// LoadScript reads a script from a JSON file, so that a test's model lives in its testdata. A
// Recorder, a reverse proxy in front of the real Messages API, writes a real session's answers into
// such a file (the command claude/claudetest/cmd/record runs one): an incident becomes a
// regression test that replays offline. For unit tests on machines without Node, package claudesim
// is a small CLI simulator that asks the same Model what to do (it is not the CLI: its package doc
// lists what it has); NewEnvWithCLI runs an Env on it.
//
// A Model and an Env are safe for concurrent use.
package claudetest
