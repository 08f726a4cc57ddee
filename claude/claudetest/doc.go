// Package claudetest is a scripted fake of the Anthropic Messages API for tests
// that drive the real Claude Code CLI without network access.
//
// Point the CLI at it with ANTHROPIC_BASE_URL=srv.URL(). Every POST to
// /v1/messages that carries a "tools" array is a main-loop request: it
// consumes the next Reply of the script (or is answered by a ReplyFunc) and is
// recorded in Requests. A request without "tools" is a side query (session
// title, summary, ...): it gets a short text answer, does not consume the
// script, and is recorded in SideRequests. When the script runs out, main-loop
// requests are answered with TextReply("done").
//
// Replies are streamed as server-sent events in the Messages API order when
// the request says "stream":true, and returned as one JSON message otherwise.
// /v1/messages/count_tokens answers {"input_tokens":N}; any other path gets a
// 404 error in the Anthropic error shape.
//
// The Claude Code CLI 2.1.330 calls only POST /v1/messages?beta=true, with
// "stream":true, on every turn. It retries failed requests by itself (an HTTP
// 400 up to 6 attempts, a 5xx with backoff), and each attempt consumes a
// scripted reply: use Repeat to make an error stick.
//
// A Model is safe for concurrent use.
package claudetest
