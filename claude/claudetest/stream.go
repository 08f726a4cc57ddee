package claudetest

import (
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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

// contentBlock is a response content block (text or tool_use; other types
// are read and skipped).
type contentBlock struct {
	Type  string         `json:"type"`
	Text  *string        `json:"text,omitzero"`
	ID    string         `json:"id,omitzero"`
	Name  string         `json:"name,omitzero"`
	Input jsontext.Value `json:"input,omitzero"`
}

// usage is the token usage of an answer.
type usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// apiError is the error object of an error answer or an "error" event.
type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// streamEvent is the data of one server-sent event of a streamed answer,
// written by streamMessage and read by decodeStream. Its Type is the event
// name.
type streamEvent struct {
	Type         string        `json:"type"`
	Message      *message      `json:"message,omitzero"`
	Index        *int          `json:"index,omitzero"`
	ContentBlock *contentBlock `json:"content_block,omitzero"`
	Delta        *streamDelta  `json:"delta,omitzero"`
	Usage        *usage        `json:"usage,omitzero"`
	Error        *apiError     `json:"error,omitzero"`
}

// streamDelta is the delta of a content_block_delta or message_delta event.
type streamDelta struct {
	Type         string         `json:"type,omitzero"`
	Text         string         `json:"text,omitzero"`
	PartialJSON  string         `json:"partial_json,omitzero"`
	StopReason   string         `json:"stop_reason,omitzero"`
	StopSequence jsontext.Value `json:"stop_sequence,omitzero"`
}

// buildMessage turns a reply into a complete response message.
func buildMessage(id, model string, bodyLen int, r Reply) message {
	stop := r.stopReason()
	m := message{
		ID: id, Type: "message", Role: "assistant", Model: model,
		Content:    []contentBlock{},
		StopReason: &stop,
		Usage: usage{
			InputTokens:              estimateTokens(bodyLen),
			CacheCreationInputTokens: r.CacheCreationInputTokens,
			CacheReadInputTokens:     r.CacheReadInputTokens,
		},
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

// inputJSON marshals a tool input; nil, null or unmarshalable input becomes {}.
func inputJSON(v any) jsontext.Value {
	if v == nil {
		return jsontext.Value("{}")
	}
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil || string(b) == "null" {
		return jsontext.Value("{}")
	}
	return b
}

// sseWriter writes server-sent events and flushes after each one.
type sseWriter struct {
	w http.ResponseWriter
	f http.Flusher
}

func (s sseWriter) event(e streamEvent) {
	b, _ := json.Marshal(e, json.Deterministic(true))
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", e.Type, b)
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
	s.event(streamEvent{Type: "message_start", Message: &start})
	s.event(streamEvent{Type: "ping"})

	for i, b := range m.Content {
		switch b.Type {
		case "text":
			empty := ""
			s.event(streamEvent{Type: "content_block_start", Index: &i,
				ContentBlock: &contentBlock{Type: "text", Text: &empty}})
			s.event(streamEvent{Type: "content_block_delta", Index: &i,
				Delta: &streamDelta{Type: "text_delta", Text: *b.Text}})
		case "tool_use":
			s.event(streamEvent{Type: "content_block_start", Index: &i,
				ContentBlock: &contentBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: jsontext.Value("{}")}})
			for _, part := range splitHalf(string(b.Input)) {
				s.event(streamEvent{Type: "content_block_delta", Index: &i,
					Delta: &streamDelta{Type: "input_json_delta", PartialJSON: part}})
			}
		}
		s.event(streamEvent{Type: "content_block_stop", Index: &i})
	}

	s.event(streamEvent{Type: "message_delta",
		Delta: &streamDelta{StopReason: *m.StopReason, StopSequence: jsontext.Value("null")},
		Usage: &m.Usage})
	s.event(streamEvent{Type: "message_stop"})
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
