package v2

import (
	"context"

	"github.com/go-json-experiment/json"
)

// FileCheckpointingEnv is the variable, set to "true" in the CLI's environment, that turns on the
// CLI's file checkpoints for SDK sessions (CLI 2.1.330 keeps none for them otherwise).
const FileCheckpointingEnv = "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"

// WithFileCheckpointing makes the CLI keep a copy of each file before its tools change it, so that
// RewindFiles can restore them (it sets FileCheckpointingEnv=true in the CLI's environment). The
// CLI checkpoints the changes of its file tools (Write, Edit, NotebookEdit), not those of shell
// commands; the copies are kept under the CLI's config directory (file-history/<session id>).
// CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING=1 in the environment turns it off again. Default: off.
func WithFileCheckpointing() Option {
	return setOption("WithFileCheckpointing", func(o *config) { o.fileCheckpointing = true })
}

// RewindResult is the CLI's answer to a rewind of files.
type RewindResult struct {
	// CanRewind reports whether the files can be (with a dry run) or were restored.
	CanRewind bool `json:"canRewind"`
	// Error says why not, when CanRewind is false.
	Error string `json:"error,omitempty"`
	// FilesChanged lists the files the rewind changes (or changed), as absolute paths.
	FilesChanged []string `json:"filesChanged,omitempty"`
	// Insertions and Deletions count the lines the rewind adds and removes.
	Insertions int `json:"insertions,omitempty"`
	Deletions  int `json:"deletions,omitempty"`
}

// rewindFilesRequest is the rewind_files control request.
type rewindFilesRequest struct {
	UserMessageID string `json:"user_message_id"`
	DryRun        bool   `json:"dry_run,omitempty"`
}

// RewindFiles restores the files that the CLI's file tools changed since the user message whose
// uuid is userMessageID (a prompt of this session, as sessions.Dir.Messages reads it back) to
// their state at that message: files changed after it get their contents back, files made after
// it are removed. The session needs WithFileCheckpointing. With dryRun, nothing changes and the
// result says what would. When the CLI cannot rewind (no checkpoint for that message,
// checkpointing off), a dry run returns CanRewind false and the reason in Error, and a rewind
// returns the CLI's refusal as an error (a *shared.ControlError). Call it between turns.
func (s *Session) RewindFiles(ctx context.Context, userMessageID string, dryRun bool) (RewindResult, error) {
	raw, err := s.t.Request(ctx, rewindFilesRequest{UserMessageID: userMessageID, DryRun: dryRun})
	if err != nil {
		return RewindResult{}, err
	}
	var r RewindResult
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &r); err != nil {
			return RewindResult{}, err
		}
	}
	return r, nil
}
