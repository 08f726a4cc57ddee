package claudetest_test

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// wireUsage is the usage object of an answer.
type wireUsage struct {
	In         int `json:"input_tokens"`
	Out        int `json:"output_tokens"`
	CacheWrite int `json:"cache_creation_input_tokens"`
	CacheRead  int `json:"cache_read_input_tokens"`
}

// Reply.InputTokens and OutputTokens replace the estimated usage, and the cache figures are sent
// as given, in a JSON answer and in a stream (message_start for the input and cache figures,
// message_delta for all of them, as the API does).
func TestReplyUsage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply claudetest.Reply
		fixed *wireUsage // nil: estimated (small, non-zero), no cache
	}{
		{"estimated", claudetest.TextReply("hi"), nil},
		{"given", claudetest.Reply{Text: "hi", InputTokens: 200000, OutputTokens: 7000}, &wireUsage{200000, 7000, 0, 0}},
		{"with cache", claudetest.Reply{Text: "hi", InputTokens: 12, OutputTokens: 30, CacheCreationInputTokens: 500, CacheReadInputTokens: 90000},
			&wireUsage{12, 30, 500, 90000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := claudetest.NewModel(tc.reply, tc.reply)
			defer srv.Close()
			var m struct {
				Usage wireUsage `json:"usage"`
			}
			if err := json.UnmarshalRead(post(t, srv.URL(), "/v1/messages", body(false, true)).Body, &m); err != nil {
				t.Fatal(err)
			}
			got := m.Usage
			var start, delta wireUsage
			for _, ev := range parseSSE(t, post(t, srv.URL(), "/v1/messages", body(true, true)).Body) {
				var d struct {
					Message struct {
						Usage wireUsage `json:"usage"`
					} `json:"message"`
					Usage wireUsage `json:"usage"`
				}
				if err := json.Unmarshal(ev.Data, &d); err != nil {
					t.Fatalf("%s: %v", ev.Name, err)
				}
				switch ev.Name {
				case "message_start":
					start = d.Message.Usage
				case "message_delta":
					delta = d.Usage
				}
			}
			streamed := wireUsage{start.In, delta.Out, start.CacheWrite, start.CacheRead}
			if tc.fixed == nil {
				if got.In <= 0 || got.In >= 1000 || got.Out <= 0 || got.Out >= 1000 || got.CacheRead != 0 || got.CacheWrite != 0 {
					t.Errorf("estimated usage %+v", got)
				}
				return
			}
			if diff := cmp.Diff([]wireUsage{*tc.fixed, *tc.fixed, *tc.fixed}, []wireUsage{got, streamed, delta}); diff != "" {
				t.Errorf("usage, JSON, streamed, message_delta (-want +got):\n%s", diff)
			}
		})
	}
}
