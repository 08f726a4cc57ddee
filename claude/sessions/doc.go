// Package sessions reads and changes the sessions the Claude Code CLI stores on disk, without a
// running CLI: list a project's sessions (List, Stat), read a session's messages as the typed
// messages of the live stream (Messages, SubagentMessages, ReadMessages), and rename, tag, fork or
// delete one the way the CLI itself does (Rename, Tag, Fork, Delete).
//
// Where the CLI (2.1.330) keeps them, as docs/SESSIONS.md details:
//
//	$CLAUDE_CONFIG_DIR, else $HOME/.claude                  the config directory (Dir)
//	  projects/<key of the cwd>/<session id>.jsonl          one session's transcript
//	  projects/<key of the cwd>/<session id>/subagents/agent-<agent id>.jsonl
//
// The key of a working directory is the path with every character other than ASCII letters and
// digits replaced by '-' (ProjectKey). A transcript is JSON Lines, appended to as the session runs:
// user and assistant entries (the messages), and entries of other types (attachments, queue
// operations, titles, tags, API request records, ...) that Messages skips.
//
// Reading streams: a transcript is read line by line, never whole, so memory does not grow with
// its size. A line that cannot be read is yielded as a *LineError and reading goes on; a torn last
// line (a transcript still being written) ends the reading without an error.
//
// Stores keep copies of transcripts elsewhere: a Store takes the entries v2.WithSessionStore
// mirrors; a ReadableStore (FileStore, contrib/pgstore) also gives them back, for resuming a
// session on another machine (Dir.CopyFromStore, which v2.WithResume does), listing and reading
// its sessions (ListStore, StatStore, StoreMessages), and Dir.CopyToStore copies a local session
// into one. RenameInStore, TagInStore, ForkInStore and DeleteFromStore (a DeletableStore) change
// the sessions a store holds; a SummaryStore keeps a Summary per session (FoldSummary) so that
// ListStore does not load every transcript. Package storetest checks a store against the
// contract, and its Memory is a reference store.
//
// Nothing here locks: the CLI appends to a transcript while it runs, and so do Rename and Tag
// (one write each, as the CLI does). Fork and Delete are meant for sessions that are not running.
package sessions
