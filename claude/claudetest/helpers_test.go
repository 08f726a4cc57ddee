package claudetest_test

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// event is one parsed server-sent event.
type event struct {
	Name string
	Data jsontext.Value
}

// parseSSE reads "event: X\ndata: Y\n\n" records until EOF.
func parseSSE(t *testing.T, r io.Reader) []event {
	t.Helper()
	var out []event
	var cur event
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Name != "" {
				out = append(out, cur)
			}
			cur = event{}
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.Data = jsontext.Value(strings.TrimPrefix(line, "data: "))
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur.Name != "" {
		t.Fatalf("unterminated event %q", cur.Name)
	}
	return out
}

// body builds a request body; tools=true makes it a main-loop request.
func body(stream, tools bool, messages ...any) map[string]any {
	b := map[string]any{"model": "claude-test", "max_tokens": 100, "stream": stream,
		"messages": messages}
	if tools {
		b["tools"] = []any{map[string]any{"name": "Bash", "input_schema": map[string]any{}}}
	}
	if len(messages) == 0 {
		b["messages"] = []any{map[string]any{"role": "user", "content": "hi"}}
	}
	return b
}

// post sends v as JSON to url+path and returns the response.
func post(t *testing.T, url, path string, v any) *http.Response {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// result is a model answer reassembled from a stream or a JSON message.
type result struct {
	ID         string
	Model      string
	StopReason string
	Blocks     []block
}

type block struct {
	Type  string
	Text  string
	ID    string
	Name  string
	Input string // compact JSON
}

// assemble rebuilds the message from stream events, checking their order.
func assemble(t *testing.T, events []event) result {
	t.Helper()
	var res result
	var names []string
	for _, e := range events {
		names = append(names, e.Name)
		var d struct {
			Type    string `json:"type"`
			Index   int    `json:"index"`
			Message struct {
				ID    string `json:"id"`
				Model string `json:"model"`
			} `json:"message"`
			ContentBlock struct {
				Type string `json:"type"`
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"content_block"`
			Delta struct {
				Type        string `json:"type"`
				Text        string `json:"text"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatalf("event %s: %v", e.Name, err)
		}
		if d.Type != e.Name {
			t.Errorf("event %q carries type %q", e.Name, d.Type)
		}
		switch e.Name {
		case "message_start":
			res.ID, res.Model = d.Message.ID, d.Message.Model
		case "content_block_start":
			if d.Index != len(res.Blocks) {
				t.Errorf("content_block_start index %d, want %d", d.Index, len(res.Blocks))
			}
			res.Blocks = append(res.Blocks, block{Type: d.ContentBlock.Type, ID: d.ContentBlock.ID, Name: d.ContentBlock.Name})
		case "content_block_delta":
			b := &res.Blocks[d.Index]
			switch d.Delta.Type {
			case "text_delta":
				b.Text += d.Delta.Text
			case "input_json_delta":
				b.Input += d.Delta.PartialJSON
			}
		case "message_delta":
			res.StopReason = d.Delta.StopReason
		}
	}
	if len(names) < 2 || names[0] != "message_start" || names[len(names)-1] != "message_stop" ||
		names[len(names)-2] != "message_delta" {
		t.Errorf("event order %q", names)
	}
	for i := range res.Blocks {
		res.Blocks[i].Input = compact(t, res.Blocks[i].Input)
	}
	return res
}

// compact normalises a JSON text ("" stays "").
func compact(t *testing.T, s string) string {
	t.Helper()
	if s == "" {
		return ""
	}
	v := jsontext.Value(s)
	if err := v.Compact(); err != nil {
		t.Fatalf("invalid JSON %q: %v", s, err)
	}
	return string(v)
}
