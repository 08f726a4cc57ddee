package shared

import (
	"errors"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
)

// The content block types of CLI 2.1.330's model messages (ContentBlock.Type).
const (
	BlockText             = "text"
	BlockThinking         = "thinking"
	BlockRedactedThinking = "redacted_thinking"
	BlockToolUse          = "tool_use"
	BlockToolResult       = "tool_result"
	// BlockServerToolUse is a call of a tool the API runs itself (web_search, web_fetch, code
	// execution): ID, Name and Input as for tool_use. No permission prompt or hook sees it.
	BlockServerToolUse = "server_tool_use"
	// BlockWebSearchToolResult is the API's answer to a web_search server_tool_use: ToolUseID
	// and Content (WebSearchResults decodes it).
	BlockWebSearchToolResult = "web_search_tool_result"
)

// WebSearchResult is one hit of a web_search_tool_result block.
type WebSearchResult struct {
	Type             string `json:"type"` // "web_search_result"
	URL              string `json:"url"`
	Title            string `json:"title"`
	EncryptedContent string `json:"encrypted_content,omitempty"`
	PageAge          string `json:"page_age,omitempty"`
}

// WebSearchError is the error a web_search_tool_result block carries instead of hits: ErrorCode
// is the API's ("max_uses_exceeded", "too_many_requests", "invalid_tool_input", "unavailable",
// "query_too_long").
type WebSearchError struct {
	ErrorCode string `json:"error_code"`
}

// Error describes the failed search.
func (e *WebSearchError) Error() string { return "shared: web search failed: " + e.ErrorCode }

// ErrNotWebSearchResult is WebSearchResults's error for a block of another type.
var ErrNotWebSearchResult = errors.New("shared: not a web_search_tool_result block")

// WebSearchResults decodes a web_search_tool_result block's hits. A search that failed is a
// *WebSearchError; a block of another type is ErrNotWebSearchResult.
func (b ContentBlock) WebSearchResults() ([]WebSearchResult, error) {
	if b.Type != BlockWebSearchToolResult {
		return nil, ErrNotWebSearchResult
	}
	if len(b.Content) > 0 && b.Content.Kind() == '{' {
		var e WebSearchError
		if err := jsonv2.Unmarshal(b.Content, &e); err != nil {
			return nil, fmt.Errorf("shared: web_search_tool_result error: %w", err)
		}
		return nil, &e
	}
	var hits []WebSearchResult
	if err := jsonv2.Unmarshal(b.Content, &hits); err != nil {
		return nil, fmt.Errorf("shared: web_search_tool_result content: %w", err)
	}
	return hits, nil
}
