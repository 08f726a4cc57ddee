package v2

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// The hook inputs the SDK makes itself (SessionStart before the CLI starts, SessionEnd at Close),
// filled as the CLI fills its own.

// runSessionStart runs the SDK's SessionStart hooks (source startup, or resume) and returns their
// additionalContext.
func (s *Session) runSessionStart(ctx context.Context, resumed bool) string {
	source := "startup"
	if resumed {
		source = "resume"
	}
	in := &shared.SessionStartHookInput{Source: source}
	in.Model = s.fillSynthetic(&in.BaseHookInput, shared.HookEventSessionStart)
	res := s.x.Run(ctx, in, "sdk-session-start")
	return additionalContext(shared.HookEventSessionStart, res.Output)
}

// sessionIDFromCLI asks the CLI for its session id (the "Session ID" row of get_status).
func (s *Session) sessionIDFromCLI(ctx context.Context) (string, error) {
	raw, err := s.t.Request(ctx, getStatusRequest{})
	if err != nil {
		return "", err
	}
	var st struct {
		Sections []struct {
			Rows []struct {
				Label string `json:"label"`
				Value string `json:"value"`
			} `json:"rows"`
		} `json:"sections"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return "", err
	}
	for _, sec := range st.Sections {
		for _, r := range sec.Rows {
			if r.Label == "Session ID" {
				return r.Value, nil
			}
		}
	}
	return "", errors.New("v2: get_status has no Session ID")
}

// fillSynthetic fills the base of an input the SDK produces itself, labelled sdk_synthesized, as
// the CLI fills its own: transcript_path, permission_mode and the model (returned, for the events
// whose input has it) from the CLI's latest system/init; before the CLI has sent one (the
// SessionStart that runs before the CLI starts, a SessionEnd without a turn), from the options the
// CLI is started with and the CLI's transcript location (transcriptPathFor).
func (s *Session) fillSynthetic(b *shared.BaseHookInput, e shared.HookEvent) (model string) {
	s.idMu.Lock()
	id, f := s.id, s.cliInit
	s.idMu.Unlock()
	if f == (initFacts{}) {
		f = initFacts{model: s.o.model, permissionMode: string(s.o.permissionMode)}
		if f.permissionMode == "" {
			f.permissionMode = string(PermissionModeDefault)
		}
	}
	if f.transcriptPath == "" {
		f.transcriptPath = s.transcriptPathFor(id)
	}
	b.SessionID = id
	b.TranscriptPath = f.transcriptPath
	b.Cwd = s.cwd
	b.HookEventName = e
	b.PermissionMode = f.permissionMode
	b.Extra = map[string]jsontext.Value{"sdk_synthesized": jsontext.Value("true")}
	return f.model
}

func additionalContext(e shared.HookEvent, out shared.HookOutput) string {
	so, ok := shared.AsSync(out)
	if !ok {
		return ""
	}
	switch v := so.HookSpecificOutput.(type) {
	case *shared.SessionStartOutput:
		return v.AdditionalContext
	case *shared.ContextOutput:
		return v.AdditionalContext
	}
	return ""
}

// initFacts is what a system/init message says about the session, as the CLI's own hook inputs
// carry it.
type initFacts struct {
	model, permissionMode, transcriptPath string
}

// initFactsOf reads a system/init message. The transcript lies beside the project's auto-memory
// directory (memory_paths.auto, "<config>/projects/<project>/memory/"), named after the session:
// "<config>/projects/<project>/<session id>.jsonl", the CLI's transcript_path.
func initFactsOf(m *shared.SystemMessage) initFacts {
	f := initFacts{model: m.Model, permissionMode: m.PermissionMode}
	var paths struct {
		MemoryPaths struct {
			Auto string `json:"auto"`
		} `json:"memory_paths"`
	}
	if json.Unmarshal(m.Raw, &paths) == nil && paths.MemoryPaths.Auto != "" && m.SessionID != "" {
		dir := filepath.Dir(filepath.Clean(paths.MemoryPaths.Auto))
		f.transcriptPath = filepath.Join(dir, m.SessionID+".jsonl")
	}
	return f
}

// transcriptPathFor returns where CLI 2.1.330 keeps the transcript of session id in the session's
// project, before the CLI has said so (system/init): "<config>/projects/<project>/<id>.jsonl",
// <config> being the CLI's config directory (cliConfigDir) and <project> the key of the working
// directory's real path (sessions.ProjectKey). "" when it cannot be known (no HOME).
func (s *Session) transcriptPathFor(id string) string {
	config := cliConfigDir(s.o.baseEnv, s.o.env)
	if config == "" || id == "" {
		return ""
	}
	return filepath.Join(config.ProjectDir(s.cwd), id+".jsonl")
}
