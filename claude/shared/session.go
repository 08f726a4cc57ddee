package shared

import (
	"context"
	"time"
)

// CommandHookOptions configure a command hook (v2.CommandHandler). The zero value is ready to use.
type CommandHookOptions struct {
	// Shell runs the command; default ["sh", "-c"].
	Shell []string
	// Dir is the command's working directory; default the input's cwd.
	Dir string
	// Env is added to the inherited environment.
	Env []string
	// OutputLimit bounds stdout and stderr each (default 1 MiB); the rest is
	// discarded and the output marked as cut.
	OutputLimit int
	// Progress, if set, gets each line the command writes, as it comes ("stdout" or "stderr"),
	// one call at a time. Independently of it, the lines go to the hook's progress reporter (ReportHookProgress)
	// when the session reports hook events.
	Progress func(stream, line string)
}

// CanUseToolFunc decides a permission prompt (a can_use_tool request). An error or a panic denies.
type CanUseToolFunc func(ctx context.Context, req *CanUseTool) (*PermissionResult, error)

// RoundTrip is one CLI request the transport answered, for Config.OnRoundTrip.
type RoundTrip struct {
	// RequestID is the request's id (for a spec-framed hook_event, its request_id or a key
	// made from its tool_use_id).
	RequestID string
	// Subtype is "hook_callback", "can_use_tool", "hook_event" (the spec framing), or the subtype
	// of a request the transport refused with an error.
	Subtype string
	// Event is the hook event of a hook request, else "".
	Event HookEvent
	// Read is when the request's line had been read from the CLI's stdout, before decoding it.
	Read time.Time
	// Decoded is when the line had been decoded into a typed message.
	Decoded time.Time
	// Answered is when the answer had been decided (the hook chain ended, the permission callback
	// returned), before it was encoded and written: from Decoded to Answered is the dispatch,
	// the handlers included.
	Answered time.Time
	// Written is when the write of the answer to the CLI's stdin returned.
	Written time.Time
}

// Stats counts what the reader skipped.
type Stats struct {
	Lines          int64
	NoiseLines     int64 // not JSON: skipped
	OversizedLines int64
	DecodeErrors   int64
}
