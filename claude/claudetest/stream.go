package claudetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// message is a Messages API response message.
type message struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Model        string         `json:"model"`
	Content      []contentBlock `json:"content"`
	StopReason   *string        `json:"stop_reason"`
	StopSequence *string        `json:"stop_sequence"`
	Usage        usage          `json:"usage"`
}

// contentBlock is a response content block (text or tool_use).
type contentBlock struct {
	Type  string          `json:"type"`
	Text  *string         `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

type usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// buildMessage turns a reply into a complete response message.
func buildMessage(id, model string, bodyLen int, r Reply) message {
	stop := r.stopReason()
	m := message{
		ID: id, Type: "message", Role: "assistant", Model: model,
		Content:    []contentBlock{},
		StopReason: &stop,
		Usage:      usage{InputTokens: estimateTokens(bodyLen)},
	}
	out := 0
	if r.Text != "" {
		text := r.Text
		m.Content = append(m.Content, contentBlock{Type: "text", Text: &text})
		out += estimateTokens(len(text))
	}
	for _, tu := range r.ToolUses {
		in := inputJSON(tu.Input)
		m.Content = append(m.Content, contentBlock{Type: "tool_use", ID: tu.ID, Name: tu.Name, Input: in})
		out += estimateTokens(len(in)) + 10
	}
	m.Usage.OutputTokens = max(out, 1)
	if r.InputTokens > 0 {
		m.Usage.InputTokens = r.InputTokens
	}
	if r.OutputTokens > 0 {
		m.Usage.OutputTokens = r.OutputTokens
	}
	return m
}

// inputJSON marshals a tool input; nil or unmarshalable input becomes {}.
func inputJSON(v any) json.RawMessage {
	if v == nil {
		return json.RawMessage("{}")
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return json.RawMessage("{}")
	}
	return b
}

// sseWriter writes server-sent events and flushes after each one.
type sseWriter struct {
	w http.ResponseWriter
	f http.Flusher
}

func (s sseWriter) event(name string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, b)
	if s.f != nil {
		s.f.Flush()
	}
}

// streamMessage writes m as the Messages API event stream.
func streamMessage(w http.ResponseWriter, m message) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("request-id", "req_fake")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	s := sseWriter{w: w, f: f}

	start := m
	start.Content = []contentBlock{}
	start.StopReason = nil
	start.Usage.OutputTokens = 1
	s.event("message_start", map[string]any{"type": "message_start", "message": start})
	s.event("ping", map[string]string{"type": "ping"})

	for i, b := range m.Content {
		switch b.Type {
		case "text":
			empty := ""
			s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": contentBlock{Type: "text", Text: &empty}})
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]string{"type": "text_delta", "text": *b.Text}})
		case "tool_use":
			s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": contentBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: json.RawMessage("{}")}})
			for _, part := range splitHalf(string(b.Input)) {
				s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]string{"type": "input_json_delta", "partial_json": part}})
			}
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}

	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": *m.StopReason, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": m.Usage.OutputTokens}})
	s.event("message_stop", map[string]string{"type": "message_stop"})
}

// splitHalf splits s in two chunks on a rune boundary (one chunk if short).
func splitHalf(s string) []string {
	if len(s) < 4 {
		return []string{s}
	}
	i := len(s) / 2
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return []string{s[:i], s[i:]}
}
