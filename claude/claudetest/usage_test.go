package claudetest_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// Reply.InputTokens and OutputTokens replace the estimated usage, in a JSON answer and in a
// stream's message_start and message_delta.
func TestReplyUsage(t *testing.T) {
	type usage struct {
		In, Out int
	}
	for _, tc := range []struct {
		name  string
		reply claudetest.Reply
		fixed *usage // nil: estimated (small, non-zero)
	}{
		{"estimated", claudetest.TextReply("hi"), nil},
		{"given", claudetest.Reply{Text: "hi", InputTokens: 200000, OutputTokens: 7000}, &usage{200000, 7000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := claudetest.NewModel(tc.reply, tc.reply)
			defer srv.Close()
			var m struct {
				Usage struct {
					In  int `json:"input_tokens"`
					Out int `json:"output_tokens"`
				} `json:"usage"`
			}
			if err := json.NewDecoder(post(t, srv.URL(), "/v1/messages", body(false, true)).Body).Decode(&m); err != nil {
				t.Fatal(err)
			}
			got := usage{m.Usage.In, m.Usage.Out}
			var streamed usage
			for _, ev := range parseSSE(t, post(t, srv.URL(), "/v1/messages", body(true, true)).Body) {
				var d struct {
					Message struct {
						Usage struct {
							In int `json:"input_tokens"`
						} `json:"usage"`
					} `json:"message"`
					Usage struct {
						Out int `json:"output_tokens"`
					} `json:"usage"`
				}
				_ = json.Unmarshal(ev.Data, &d)
				switch ev.Name {
				case "message_start":
					streamed.In = d.Message.Usage.In
				case "message_delta":
					streamed.Out = d.Usage.Out
				}
			}
			if tc.fixed == nil {
				if got.In <= 0 || got.In >= 1000 || got.Out <= 0 || got.Out >= 1000 {
					t.Errorf("estimated usage %+v", got)
				}
				return
			}
			if diff := cmp.Diff([]usage{*tc.fixed, *tc.fixed}, []usage{got, streamed}); diff != "" {
				t.Errorf("usage, JSON and streamed (-want +got):\n%s", diff)
			}
		})
	}
}
