package shared

// ModelUsage is one model's totals in a result's ModelUsage and in v2's Usage (the TypeScript
// SDK's ModelUsage): every call made to that model during the session so far (the main loop,
// subagents, the CLI's own calls such as compaction), cumulative across turns. Token counts are
// the API's; CostUSD is the CLI's estimate, not a bill.
type ModelUsage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	// ThinkingTokens are already counted in OutputTokens; 0 when the CLI did not record them.
	ThinkingTokens           int64 `json:"thinkingTokens,omitempty"`
	CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
	// CacheCreationEphemeral5mInputTokens and CacheCreationEphemeral1hInputTokens split
	// CacheCreationInputTokens by the cache's lifetime, where the API said it.
	CacheCreationEphemeral5mInputTokens int64   `json:"cacheCreationEphemeral5mInputTokens,omitempty"`
	CacheCreationEphemeral1hInputTokens int64   `json:"cacheCreationEphemeral1hInputTokens,omitempty"`
	WebSearchRequests                   int64   `json:"webSearchRequests"`
	CostUSD                             float64 `json:"costUSD"`
	ContextWindow                       int64   `json:"contextWindow"`
	MaxOutputTokens                     int64   `json:"maxOutputTokens"`
	// CanonicalModel is the model id the CLI priced the calls by; Provider who served them
	// ("firstParty", "bedrock", "vertex", ...); CostBasis the price table ("list", "managed",
	// "unknown"). Each "" when the CLI did not say.
	CanonicalModel string `json:"canonicalModel,omitempty"`
	Provider       string `json:"provider,omitempty"`
	CostBasis      string `json:"costBasis,omitempty"`
}

// MessageOrigin says where a user message, or the turn a result ends, came from (the
// TypeScript SDK's SDKMessageOrigin): Kind "human" (a prompt; also what an absent origin means),
// "task-notification" (a background task finished and the CLI started a turn by itself), "peer"
// (another session), "channel" (an MCP channel server), "coordinator", "observer",
// "auto-continuation", ... The other fields belong to some kinds; a kind or field of a newer CLI
// is in the message's Raw.
type MessageOrigin struct {
	Kind string `json:"kind"`
	// Server is a channel's MCP server.
	Server string `json:"server,omitempty"`
	// From is a peer's or observer's address (sender-asserted, never authority); FromMode,
	// Name, FromSession, SenderTaskID and Body are the peer envelope's.
	From         string `json:"from,omitempty"`
	FromMode     string `json:"fromMode,omitempty"`
	Name         string `json:"name,omitempty"`
	FromSession  string `json:"fromSession,omitempty"`
	SenderTaskID string `json:"senderTaskId,omitempty"`
	Body         string `json:"body,omitempty"`
	// VerifiedPeerPid is the pid of the process that connected the peer message, read by the CLI
	// from the socket (0 when it could not verify it).
	VerifiedPeerPid int `json:"verifiedPeerPid,omitempty"`
	// Subkind, FireReason and RunID are a task notification's.
	Subkind    string `json:"subkind,omitempty"`
	FireReason string `json:"fireReason,omitempty"`
	RunID      string `json:"runId,omitempty"`
}
