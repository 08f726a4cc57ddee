package claudetest

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// Request is one recorded POST /v1/messages request.
type Request struct {
	// Index is the 0-based position of the request in its list
	// (Requests or SideRequests).
	Index int
	// Header is a copy of the request headers.
	Header http.Header
	// Body is the raw request body.
	Body []byte
	// Model is the requested model, echoed in the answer.
	Model string
	// System is the system prompt, text blocks joined with "\n".
	System string
	// Messages is the conversation sent to the model.
	Messages []Message
	// Tools lists the names of the tools offered to the model.
	Tools []string

	stream bool // the request asked for a streamed answer
}

// Message is one conversation message of a request.
type Message struct {
	// Role is "user" or "assistant".
	Role string
	// Content holds the content blocks; a string content becomes one text block.
	Content []Block
}

// Block is a content block of a message: the SDK's one content-block type, shared.ContentBlock,
// decoded from the request the CLI sent. A tool_result's text is its ContentText.
type Block = shared.ContentBlock

// Contains reports whether s occurs in the raw request body or, so that
// JSON escaping does not matter, in the decoded system prompt, text blocks
// or tool_result texts.
func (r Request) Contains(s string) bool {
	if bytes.Contains(r.Body, []byte(s)) || strings.Contains(r.System, s) {
		return true
	}
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if strings.Contains(b.Text, s) || strings.Contains(b.ContentText(), s) {
				return true
			}
		}
	}
	return false
}

// ToolResults returns every tool_result block of the conversation, in order.
func (r Request) ToolResults() []Block {
	var out []Block
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" {
				out = append(out, b)
			}
		}
	}
	return out
}

// LastToolResult returns the last tool_result block of the conversation.
func (r Request) LastToolResult() (Block, bool) {
	rs := r.ToolResults()
	if len(rs) == 0 {
		return Block{}, false
	}
	return rs[len(rs)-1], true
}

// wireRequest is the part of a Messages API request body that is decoded.
type wireRequest struct {
	Model    string           `json:"model"`
	System   jsontext.Value   `json:"system"`
	Messages []wireMessage    `json:"messages"`
	Tools    []jsontext.Value `json:"tools"`
	Stream   bool             `json:"stream"`
}

type wireMessage struct {
	Role    string         `json:"role"`
	Content jsontext.Value `json:"content"`
}

// decodeRequest parses a request body. hasTools reports whether the body
// carries a non-empty "tools" array (a main-loop request).
func decodeRequest(r *http.Request, body []byte) (req Request, hasTools bool, err error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, false, err
	}
	req = Request{
		Header: r.Header.Clone(),
		Body:   body,
		Model:  w.Model,
		System: textOf(w.System),
		stream: w.Stream,
	}
	for _, m := range w.Messages {
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: blocksOf(m.Content)})
	}
	for _, t := range w.Tools {
		var named struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(t, &named)
		req.Tools = append(req.Tools, named.Name)
	}
	return req, len(w.Tools) > 0, nil
}

// blocksOf decodes message content: a string becomes one text block.
func blocksOf(raw jsontext.Value) []Block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []Block{{Type: "text", Text: s}}
	}
	var blocks []Block
	_ = json.Unmarshal(raw, &blocks)
	return blocks
}

// textOf joins the text of a string or a block array.
func textOf(raw jsontext.Value) string {
	if len(raw) == 0 {
		return ""
	}
	var parts []string
	for _, b := range blocksOf(raw) {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
