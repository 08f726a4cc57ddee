package v2_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// minimalPDF is a one-page PDF.
var minimalPDF = []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 3 3]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")

// promptBlocks returns the blocks other than text of the user messages of the first model
// request, as the CLI sent them.
func promptBlocks(t *testing.T, env *realEnv) []map[string]any {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string           `json:"role"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(firstRequest(t, env).Body, &body, json.RejectUnknownMembers(false)); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var out []map[string]any
	for _, m := range body.Messages {
		for _, c := range m.Content {
			if m.Role == "user" && c["type"] != "text" {
				out = append(out, c)
			}
		}
	}
	return out
}

// An image given by URL and a PDF document given by its bytes reach the model's request as the
// Messages API shapes them: CLI 2.1.330 passes both through unchanged (the API, not the CLI,
// fetches the URL and reads the PDF).
func TestRealCLI_ContentBlockShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		block shared.ContentBlock
		want  map[string]any
	}{
		{"image url", v2.ImageURLBlock("https://example.com/cat.png?size=1"),
			map[string]any{"type": "image", "source": map[string]any{"type": "url", "url": "https://example.com/cat.png?size=1"}}},
		{"pdf document", v2.DocumentBlock("application/pdf", minimalPDF, "spec"),
			map[string]any{"type": "document", "title": "spec", "source": map[string]any{
				"type": "base64", "media_type": "application/pdf", "data": base64.StdEncoding.EncodeToString(minimalPDF)}}},
		{"untitled pdf", v2.DocumentBlock("application/pdf", minimalPDF, ""),
			map[string]any{"type": "document", "source": map[string]any{
				"type": "base64", "media_type": "application/pdf", "data": base64.StdEncoding.EncodeToString(minimalPDF)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := textEnv(t, "seen")
			var res *shared.ResultMessage
			for m, err := range env.session(t).QueryContent(testCtx(t), v2.TextBlock("look"), tc.block) {
				if err != nil {
					t.Fatal(err)
				}
				if r, ok := m.(*shared.ResultMessage); ok {
					res = r
				}
			}
			if res == nil || res.IsError || res.Result != "seen" {
				t.Fatalf("result %+v", res)
			}
			if diff := cmp.Diff([]map[string]any{tc.want}, promptBlocks(t, env)); diff != "" {
				t.Errorf("blocks the model got (-want +got):\n%s", diff)
			}
		})
	}
}

// SendContent rejects, before anything reaches the CLI, a block the Messages API would refuse
// only after the turn started: the session goes on, and the next valid prompt is the first the
// model sees.
func TestRealCLI_ContentBlockRejected(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "first answer")
	s := env.session(t)
	for _, tc := range []struct {
		name  string
		block shared.ContentBlock
		want  string
	}{
		{"text document as base64", v2.DocumentBlock("text/plain", []byte("REJECTED-1"), ""), `media type "text/plain"`},
		{"word document", v2.DocumentBlock("application/msword", []byte("REJECTED-2"), ""), `media type "application/msword"`},
		{"empty pdf", v2.DocumentBlock("application/pdf", nil, ""), "no data"},
		{"image url without scheme", v2.ImageURLBlock("example.com/REJECTED-3.png"), "not an http or https URL"},
		{"file url", v2.ImageURLBlock("file:///etc/REJECTED-4"), "not an http or https URL"},
		{"empty url", v2.ImageURLBlock(""), "not an http or https URL"},
		{"document url", shared.ContentBlock{Type: "document", Source: &shared.BlockSource{Type: "url", URL: "https://example.com/REJECTED-5.pdf"}}, `source type "url"`},
		{"tiff image", v2.ImageBlock("image/tiff", pngPixel), `media type "image/tiff"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.SendContent(testCtx(t), v2.TextBlock("REJECTED-TEXT"), tc.block)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("SendContent: %v, want an error containing %q", err, tc.want)
			}
		})
	}
	res, err := s.Run(testCtx(t), "VALID-PROMPT")
	if err != nil || res.Result != "first answer" {
		t.Fatalf("Run after the rejections: %+v, %v", res, err)
	}
	if got := env.requestsContaining("REJECTED"); len(got) != 0 {
		t.Errorf("requests %v carry a rejected prompt", got)
	}
}
