package v2

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"iter"
	"net/url"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

// The blocks of a prompt (SendContent, QueryContent, SendStream) are shared.ContentBlock values
// made with TextBlock, ImageBlock, ImageURLBlock, DocumentBlock or TextDocumentBlock, sent as the
// Messages API shapes them.

// TextBlock is a text block.
func TextBlock(text string) shared.ContentBlock { return shared.ContentBlock{Type: "text", Text: text} }

// ImageBlock is an image given by its bytes; mediaType is "image/png", "image/jpeg", "image/gif"
// or "image/webp".
func ImageBlock(mediaType string, data []byte) shared.ContentBlock {
	return shared.ContentBlock{Type: "image", Source: &shared.BlockSource{Type: "base64", MediaType: mediaType, Data: base64.StdEncoding.EncodeToString(data)}}
}

// ImageURLBlock is an image the API fetches from url, an http or https URL (SendContent rejects
// any other). CLI 2.1.330 passes it to the API as given: the API, not the SDK or the CLI, fetches
// it, and a URL the API cannot fetch fails the turn with the API's error.
func ImageURLBlock(url string) shared.ContentBlock {
	return shared.ContentBlock{Type: "image", Source: &shared.BlockSource{Type: "url", URL: url}}
}

// DocumentBlock is a document given by its bytes: a PDF, mediaType "application/pdf", the only
// binary document the Messages API takes (SendContent rejects any other; a plain-text document
// is TextDocumentBlock). title may be "". CLI 2.1.330 passes it to the API as given.
func DocumentBlock(mediaType string, data []byte, title string) shared.ContentBlock {
	return shared.ContentBlock{Type: "document", Title: title, Source: &shared.BlockSource{Type: "base64", MediaType: mediaType, Data: base64.StdEncoding.EncodeToString(data)}}
}

// TextDocumentBlock is a plain-text document; title may be "".
func TextDocumentBlock(text, title string) shared.ContentBlock {
	return shared.ContentBlock{Type: "document", Title: title, Source: &shared.BlockSource{Type: "text", MediaType: "text/plain", Data: text}}
}

// mediaTypes are the media types the Messages API takes, by block type and source type: a
// base64 document is a PDF, a text document is text/plain.
var mediaTypes = map[[2]string]map[string]bool{
	{"image", "base64"}:    {"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true},
	{"document", "base64"}: {"application/pdf": true},
	{"document", "text"}:   {"text/plain": true},
}

// validateBlocks checks blocks before anything is sent: a malformed block would make the CLI's
// API request fail after the turn started.
func validateBlocks(blocks []shared.ContentBlock) error {
	if len(blocks) == 0 {
		return errors.New("v2: a prompt needs at least one block")
	}
	for i, b := range blocks {
		switch b.Type {
		case "text":
			if b.Text == "" {
				return fmt.Errorf("v2: block %d: empty text", i)
			}
			continue
		case "image", "document":
		default:
			return fmt.Errorf("v2: block %d: unknown type %q (use the v2 block constructors)", i, b.Type)
		}
		src := b.Source
		switch {
		case src == nil:
			return fmt.Errorf("v2: block %d: %s without a source", i, b.Type)
		case src.Type == "url" && b.Type == "image":
			if u, err := url.Parse(src.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				return fmt.Errorf("v2: block %d: image url %q: not an http or https URL the API can fetch", i, src.URL)
			}
		case mediaTypes[[2]string{b.Type, src.Type}] != nil:
			if !mediaTypes[[2]string{b.Type, src.Type}][src.MediaType] {
				return fmt.Errorf("v2: block %d: media type %q is not one the API takes for a %s of source %s", i, src.MediaType, b.Type, src.Type)
			}
			if src.Data == "" {
				return fmt.Errorf("v2: block %d: no data", i)
			}
		default:
			return fmt.Errorf("v2: block %d: source type %q is not one the API takes for a %s", i, src.Type, b.Type)
		}
	}
	return nil
}

// SendContent writes a prompt made of content blocks (text, images, documents). It does not wait
// for the answer: read it with Receive. Invalid blocks are an error and nothing is sent. Send is
// the shortcut for a prompt of text.
func (s *Session) SendContent(ctx context.Context, blocks ...shared.ContentBlock) error {
	if err := validateBlocks(blocks); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return callErr("SendContent", err)
	}
	return callErr("SendContent", s.sendUser(blocks))
}

// verbatimUserMessage is a user message with the client_composed flag of WithVerbatimPrompts.
type verbatimUserMessage struct {
	subprocess.UserMessage
	ClientComposed bool `json:"client_composed"`
}

// sendUser writes a user message with content (a string or blocks), marked client_composed with
// WithVerbatimPrompts.
func (s *Session) sendUser(content any) error {
	var err error
	if !s.o.verbatim {
		err = s.t.SendUser(content, "default")
	} else {
		err = s.t.WriteMessage(verbatimUserMessage{
			UserMessage:    subprocess.UserMessage{Type: "user", Message: subprocess.UserContent{Role: "user", Content: content}, SessionID: "default"},
			ClientComposed: true,
		})
	}
	if err == nil {
		s.inStep.sent() // instep.go: the prompt awaits its result
	}
	return err
}

// QueryContent is Query with a prompt of content blocks (SendContent).
func (s *Session) QueryContent(ctx context.Context, blocks ...shared.ContentBlock) iter.Seq2[shared.Message, error] {
	return s.query(ctx, "QueryContent", func() error { return s.SendContent(ctx, blocks...) })
}

// SendStream writes each prompt of prompts as it comes, a streaming input of user messages (the
// official SDKs' async iterable prompt): the CLI queues those that arrive while a turn runs and
// answers them in order. It returns when prompts ends, at the first invalid prompt (nothing of it
// is sent), or when ctx is done; read the answers with Receive, one result per prompt.
func (s *Session) SendStream(ctx context.Context, prompts iter.Seq[[]shared.ContentBlock]) error {
	for blocks := range prompts {
		if err := s.SendContent(ctx, blocks...); err != nil {
			return err
		}
	}
	return nil
}
