package cli_test

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/internal/fakeapi"
)

func TestProbe(t *testing.T) {
	if os.Getenv("PROBE") == "" {
		t.Skip()
	}
	var replies []fakeapi.Reply
	switch os.Getenv("PROBE") {
	case "err400":
		replies = []fakeapi.Reply{fakeapi.ErrorReply(400, "fake error"), fakeapi.TextReply("second")}
	case "err500":
		replies = []fakeapi.Reply{fakeapi.ErrorReply(500, "fake 500"), fakeapi.TextReply("second")}
	case "text":
		replies = []fakeapi.Reply{fakeapi.TextReply("hello there")}
	}
	srv := fakeapi.New(replies...)
	defer srv.Close()
	p := startCLI(t, srv, t.TempDir())
	p.send(userMessage("say hi"))
	for {
		l := p.next()
		t.Logf("stdout %s: %.300s", l.Type, l.Raw)
		if l.Type == "result" {
			break
		}
	}
	p.finish()
	t.Logf("paths %q", srv.Paths())
	for _, r := range append(srv.Requests(), srv.SideRequests()...) {
		var m map[string]json.RawMessage
		json.Unmarshal(r.Body, &m)
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Logf("req %d path=%s model=%s stream=%v tools=%v keys=%v", r.Index, r.Path, r.Model, r.Stream, r.Tools, keys)
		for k, v := range r.Header {
			t.Logf("  header %s: %.200v", k, v)
		}
		t.Logf("  system %.300q", r.System)
		for _, k := range []string{"max_tokens", "thinking", "metadata", "tool_choice", "temperature", "context_management", "output_config"} {
			if v, ok := m[k]; ok {
				t.Logf("  %s=%.300s", k, v)
			}
		}
		for _, msg := range r.Messages {
			b, _ := json.Marshal(msg.Content)
			t.Logf("  msg %s %.400s", msg.Role, b)
		}
	}
	t.Logf("stderr: %s", p.stderr.String())
}
