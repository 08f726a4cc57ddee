package v2

import (
	"context"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ServerInfo is what the CLI told the session at start (its initialize answer): the slash commands,
// agents, models and output styles it has, and the account it uses. Every member not here is in
// Raw.
type ServerInfo struct {
	Commands              []SlashCommand `json:"commands"`
	Agents                []AgentInfo    `json:"agents"`
	Models                []ModelInfo    `json:"models"`
	Account               AccountInfo    `json:"account"`
	OutputStyle           string         `json:"output_style"`
	AvailableOutputStyles []string       `json:"available_output_styles"`
	// Raw is the whole initialize answer (Info().Raw).
	Raw jsontext.Value `json:"-"`
}

// SlashCommand is a slash command or skill the CLI offers.
type SlashCommand struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint,omitempty"`
}

// AgentInfo is a subagent the CLI knows: its own, the setting sources', and WithAgents's.
type AgentInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Model       string `json:"model,omitempty"`
}

// ModelInfo is a model the CLI offers (the value SetModel takes).
type ModelInfo struct {
	Value                    string   `json:"value"`
	ResolvedModel            string   `json:"resolvedModel,omitempty"`
	DisplayName              string   `json:"displayName"`
	Description              string   `json:"description"`
	SupportsEffort           bool     `json:"supportsEffort,omitempty"`
	SupportedEffortLevels    []Effort `json:"supportedEffortLevels,omitempty"`
	SupportsAdaptiveThinking bool     `json:"supportsAdaptiveThinking,omitempty"`
}

// AccountInfo is how the CLI authenticates.
type AccountInfo struct {
	Email        string `json:"email,omitempty"`
	Organization string `json:"organization,omitempty"`
	TokenSource  string `json:"tokenSource,omitempty"`
	APIKeySource string `json:"apiKeySource,omitempty"`
	APIProvider  string `json:"apiProvider,omitempty"`
}

// ServerInfo decodes the CLI's initialize answer. Members of an unexpected type are an error; the
// answer stays in Info().Raw.
func (s *Session) ServerInfo() (ServerInfo, error) {
	si := ServerInfo{Raw: s.info.Raw}
	if err := json.Unmarshal(s.info.Raw, &si); err != nil {
		return si, fmt.Errorf("v2: initialize answer: %w", err)
	}
	return si, nil
}

// ContextUsage is the CLI's breakdown of the context window (its /context).
type ContextUsage struct {
	Categories []struct {
		Name       string `json:"name"`
		Tokens     int    `json:"tokens"`
		IsDeferred bool   `json:"isDeferred,omitempty"`
	} `json:"categories"`
	TotalTokens          int     `json:"totalTokens"`
	MaxTokens            int     `json:"maxTokens"`
	RawMaxTokens         int     `json:"rawMaxTokens"`
	Percentage           float64 `json:"percentage"`
	Model                string  `json:"model"`
	IsAutoCompactEnabled bool    `json:"isAutoCompactEnabled"`
	// Raw is the whole answer.
	Raw jsontext.Value `json:"-"`
}

// ContextUsageOptions are ContextUsage's arguments; the zero value asks for the full count.
type ContextUsageOptions struct {
	// Summary answers from the last response's usage and local estimates, without the
	// per-category token-count requests the full count makes to the API.
	Summary bool
}

// ContextUsage asks the CLI how full the context window is (get_context_usage).
func (s *Session) ContextUsage(ctx context.Context, opts ContextUsageOptions) (*ContextUsage, error) {
	req := getContextUsageRequest{}
	if opts.Summary {
		req.Detail = "summary"
	}
	raw, err := s.t.Request(ctx, req)
	if err != nil {
		return nil, err
	}
	u := &ContextUsage{Raw: raw}
	if err := json.Unmarshal(raw, u); err != nil {
		return u, fmt.Errorf("v2: get_context_usage answer: %w", err)
	}
	return u, nil
}

// StopTask stops a running background task (a background Bash command or subagent) by its id,
// the task_id of its system task_started message (stop_task). CLI 2.1.330 answers success for an
// id it does not know.
func (s *Session) StopTask(ctx context.Context, taskID string) error {
	_, err := s.t.Request(ctx, stopTaskRequest{TaskID: taskID})
	return err
}

// SetMaxThinkingTokens changes the thinking budget of the running session's next requests
// (set_max_thinking_tokens); 0 turns thinking off. display, unless "", also changes how thinking
// shows in the model's messages: ThinkingDisplaySummarized, ThinkingDisplayOmitted or
// ThinkingDisplayHighlights (the TypeScript SDK's thinkingDisplay argument).
func (s *Session) SetMaxThinkingTokens(ctx context.Context, n int, display ThinkingDisplay) error {
	if n < 0 {
		return fmt.Errorf("v2: SetMaxThinkingTokens(%d): negative", n)
	}
	switch display {
	case "", ThinkingDisplaySummarized, ThinkingDisplayOmitted, ThinkingDisplayHighlights:
	default:
		return fmt.Errorf("v2: SetMaxThinkingTokens: unknown display %q (want summarized, omitted or highlights)", display)
	}
	_, err := s.t.Request(ctx, setMaxThinkingTokensRequest{MaxTokens: n, Display: display})
	return err
}
