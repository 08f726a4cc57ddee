package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// RunPrompt sends prompt on s and prints the turn to w as it streams: the model's text, each tool
// call (summarised by Summary), the first line of each tool result, and the final result. It
// returns the turn's result; a failed or refused one (is_error, an error subtype, Refusals, as
// Session.Run) is returned with a *v2.ResultError.
func RunPrompt(ctx context.Context, s *v2.Session, prompt string, w io.Writer) (*shared.ResultMessage, error) {
	fmt.Fprintf(w, "user: %s\n", prompt)
	for m, err := range s.Query(ctx, prompt) {
		if err != nil {
			return nil, err
		}
		switch v := m.(type) {
		case *shared.AssistantMessage:
			for _, b := range v.Message.Content {
				switch b.Type {
				case "text":
					fmt.Fprintf(w, "assistant: %s\n", Abbrev(b.Text, 200))
				case "tool_use":
					var in shared.ToolInput
					_ = json.Unmarshal(b.Input, &in)
					fmt.Fprintf(w, "assistant: calls %s %s\n", b.Name, Summary(b.Name, in))
				}
			}
		case *shared.UserMessage:
			for _, b := range v.Blocks {
				if b.Type != "tool_result" {
					continue
				}
				status := "ok"
				if b.IsError {
					status = "error"
				}
				fmt.Fprintf(w, "tool result (%s): %s\n", status, Abbrev(b.ContentText(), 120))
			}
		case *shared.ResultMessage:
			fmt.Fprintf(w, "result: %s\n", Abbrev(v.Result, 200))
			if v.IsError || v.Subtype != v2.ResultSuccess || len(v.Refusals) > 0 {
				for _, r := range v.Refusals {
					fmt.Fprintf(w, "refused: %s\n", r)
				}
				return v, &v2.ResultError{Result: v}
			}
			return v, nil
		}
	}
	return nil, v2.ErrUnexpectedExit
}

// Summary abbreviates a tool input for one line of output: the command of a Bash call, the path of
// a file tool, else the compact JSON, cut to 100 bytes.
func Summary(tool string, in shared.ToolInput) string {
	for _, k := range []string{"command", "file_path", "notebook_path", "path", "pattern", "url"} {
		if s := in.String(k); s != "" {
			return Abbrev(s, 100)
		}
	}
	if len(in) == 0 {
		return ""
	}
	b, _ := json.Marshal(in)
	return Abbrev(string(b), 100)
}

// Abbrev returns the first line of s, cut to at most n bytes (on a rune boundary) with "..." when
// anything was left out.
func Abbrev(s string, n int) string {
	s = strings.TrimSpace(s)
	line, _, more := strings.Cut(s, "\n")
	if len(line) > n {
		cut := n
		for cut > 0 && !isRuneStart(line[cut]) {
			cut--
		}
		return line[:cut] + "..."
	}
	if more {
		return line + " ..."
	}
	return line
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
