// Package hooks is the SDK's hook engine: everything a hook request means, between the line the
// transport decoded (claude/parser) and the answer it writes.
//
//   - engine.go: the Engine holds the Go handlers of each event (compiled matchers, timeouts) and
//     what the CLI must be told of them (Events, CLIMatcher, ChainTimeout).
//   - chain.go: Serve runs the handlers a request's matchers pick, in order, on the caller's
//     goroutine, under each handler's fail-closed deadline (a context.AfterFunc), with panics
//     recovered; merge.go folds their answers into one.
//   - normalize.go, raw.go, answer.go, deny.go: each answer is read once (Normalize), checked for
//     its event (an *OutputError), and encoded as the CLI reads it (Answer); denial is an
//     event's fail-closed answer.
//   - scope.go: scoped hooks (RegisterScoped), copy-on-write snapshots; async.go: the background
//     phase of async answers; progress.go: hook progress lines.
//   - callback.go, registration.go: the callback ids and the hooks of the CLI's initialize request
//     (Registration, with the CLI timeout rule CLITimeout, written once).
//
// The transport (claude/subprocess) sees the engine through its small HookServer interface; the
// session (claude/v2) builds the engine from its options and composes it with the transport.
// Observers read each run's decision from the engine's report (HandlerRun.Decision), and the
// transport a chain's from its Result (Result.Decision), never from the handler's answer again.
// A new hook event touches three packages: its types in claude/shared (with the first CLI that
// sends it, HookEvent.FirstCLIVersion), its decoding in claude/parser, and its answer's reading
// here.
package hooks
