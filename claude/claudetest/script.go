package claudetest

import (
	"fmt"
	"os"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// scriptFile is the content of a script file.
type scriptFile struct {
	Replies []scriptEntry `json:"replies"`
}

// scriptEntry is one reply of a script file: Reply's members, plus
// RetryAfter as a Go duration string.
type scriptEntry struct {
	Reply
	RetryAfter string `json:"retry_after,omitzero"`
}

// LoadScript reads the script file name and returns its replies, in order,
// for NewModel:
//
//	replies, err := claudetest.LoadScript("testdata/incident.json")
//	if err != nil {
//		t.Fatal(err)
//	}
//	model := claudetest.NewModel(replies...)
//
// A script file is a JSON object with one member, "replies": an array with one
// object per main-loop answer, in the order the CLI asks for them. Each entry
// has the members of Reply's JSON names, all optional:
//
//	{"replies": [
//	  {"text": "Listing.", "tool_uses": [{"id": "toolu_01", "name": "Bash", "input": {"command": "ls"}}],
//	   "input_tokens": 1200, "output_tokens": 40},
//	  {"status": 529, "error_message": "Overloaded"},
//	  {"status": 429, "error_message": "Slow down.", "retry_after": "1s"},
//	  {"text": "All done."}
//	]}
//
// "text" is the text block, "tool_uses" the tool calls ("input" is any JSON
// value, loaded as a compact jsontext.Value with its members in file order), "status" and "error_message" make an HTTP error
// answer, "retry_after" is a Go duration ("1.5s"), and "input_tokens",
// "output_tokens", "cache_creation_input_tokens" and
// "cache_read_input_tokens" are the usage figures (zero means estimated for
// input and output, zero for the cache). An unknown member, a duplicate key
// or a status outside 400..599 is an error: a typo must not change a test
// silently. Side queries (requests without tools) are not in the script: the
// Model answers them itself.
func LoadScript(name string) ([]Reply, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("claudetest: reading script: %w", err)
	}
	var f scriptFile
	rawInput := json.UnmarshalFunc(func(b []byte, tu *ToolUse) error {
		var w struct {
			ID    string         `json:"id"`
			Name  string         `json:"name"`
			Input jsontext.Value `json:"input"`
		}
		if err := json.Unmarshal(b, &w, json.RejectUnknownMembers(true)); err != nil {
			return err
		}
		*tu = ToolUse{ID: w.ID, Name: w.Name}
		if len(w.Input) > 0 {
			if err := w.Input.Compact(); err != nil {
				return err
			}
			tu.Input = w.Input
		}
		return nil
	})
	if err := json.Unmarshal(b, &f, json.RejectUnknownMembers(true), json.WithUnmarshalers(rawInput)); err != nil {
		return nil, fmt.Errorf("claudetest: script %s: %w", name, err)
	}
	if f.Replies == nil {
		return nil, fmt.Errorf("claudetest: script %s: no \"replies\" array", name)
	}
	replies := make([]Reply, len(f.Replies))
	for i, e := range f.Replies {
		r := e.Reply
		if r.Status != 0 && (r.Status < 400 || r.Status > 599) {
			return nil, fmt.Errorf("claudetest: script %s: reply %d: status %d is not an HTTP error status", name, i, r.Status)
		}
		if e.RetryAfter != "" {
			d, err := time.ParseDuration(e.RetryAfter)
			if err != nil || d < 0 {
				return nil, fmt.Errorf("claudetest: script %s: reply %d: retry_after %q is not a duration such as \"1.5s\"", name, i, e.RetryAfter)
			}
			r.RetryAfter = d
		}
		replies[i] = r
	}
	return replies, nil
}

// saveScript writes replies to the script file name (see LoadScript for the
// format), indented, creating or truncating it with mode 0644. A tool input
// that does not marshal to JSON is an error.
func saveScript(name string, replies []Reply) error {
	f := scriptFile{Replies: make([]scriptEntry, len(replies))}
	for i, r := range replies {
		f.Replies[i].Reply = r
		if r.RetryAfter != 0 {
			f.Replies[i].RetryAfter = r.RetryAfter.String()
		}
	}
	b, err := json.Marshal(f, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return fmt.Errorf("claudetest: encoding script: %w", err)
	}
	if err := os.WriteFile(name, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("claudetest: writing script: %w", err)
	}
	return nil
}
