package claudetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Recorder is a reverse proxy on 127.0.0.1 to a Messages API that records
// the model's main-loop answers as Replies, to turn a real session into a
// script file that a Model replays offline.
//
// Point the CLI at it with ANTHROPIC_BASE_URL=rec.URL() and keep the user's
// ANTHROPIC_API_KEY (or other credentials): every request is passed to the
// upstream API unchanged, headers included, and the answer is passed back as
// it streams. A POST /v1/messages with a "tools" array (a main-loop request,
// as the Model counts them) has its answer decoded into a Reply: the text
// (text blocks joined with "\n"), the tool_use blocks with their inputs as
// sent, the usage figures, or, for an error answer, the status, message and
// retry-after. Side queries and other paths are passed through and not
// recorded: a Model answers them itself. Thinking blocks, server tools and
// citations are not recorded. Replies are kept in the order the requests
// arrived, which is the order in which a Model hands out its script.
//
// Nothing of the requests is recorded: no headers (the API key never reaches
// a script file), no prompts, no tool results.
//
// The command claude/claudetest/cmd/record runs a Recorder from a shell. A
// Recorder is safe for concurrent use.
type Recorder struct {
	ts    *httptest.Server
	proxy *httputil.ReverseProxy

	mu      sync.Mutex
	answers []*answer     // one per main-loop request, in arrival order
	ended   int           // answers that ended (recorded or not)
	changed chan struct{} // closed and replaced when an answer ends
}

// answer is one recorded main-loop answer; err is set when it could not be
// decoded (cut short, malformed).
type answer struct {
	reply Reply
	err   error
}

// NewRecorder starts a Recorder in front of the Messages API at upstream, a
// base URL such as "https://api.anthropic.com" (the default when upstream is
// empty). It is an error if upstream is not an absolute http or https URL.
// Close the Recorder when done.
func NewRecorder(upstream string) (*Recorder, error) {
	if upstream == "" {
		upstream = "https://api.anthropic.com"
	}
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("claudetest: recorder upstream %q is not an http(s) base URL", upstream)
	}
	rec := &Recorder{changed: make(chan struct{}), proxy: &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			// Let the transport ask for gzip and undo it, so that the answer is
			// recorded (and passed on) decoded.
			pr.Out.Header.Del("Accept-Encoding")
		},
	}}
	rec.ts = httptest.NewServer(http.HandlerFunc(rec.serve))
	return rec, nil
}

// URL returns the base URL, e.g. "http://127.0.0.1:41234", for ANTHROPIC_BASE_URL.
func (rec *Recorder) URL() string { return rec.ts.URL }

// recorderCloseGrace is how long Close lets answers in flight finish before it cuts them.
const recorderCloseGrace = 2 * time.Second

// Close shuts the Recorder down: it stops taking requests, lets the answers in flight finish for
// up to two seconds (an answer that Wait counted may still be writing its last bytes to the
// client), then closes every client connection. It returns when every request has ended. The
// recorded replies stay readable.
func (rec *Recorder) Close() {
	done := make(chan struct{})
	go func() { // ends when every request has: at the latest once the connections are cut below
		rec.ts.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(recorderCloseGrace):
		rec.ts.CloseClientConnections()
		<-done
	}
}

// Replies returns the main-loop answers recorded so far, in the order of
// their requests. An answer that could not be recorded (the stream was cut
// short, or did not decode) is left out, and the error says which.
func (rec *Recorder) Replies() ([]Reply, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []Reply
	var errs []error
	for i, a := range rec.answers {
		if a.err != nil {
			errs = append(errs, fmt.Errorf("claudetest: main-loop answer %d not recorded: %w", i, a.err))
			continue
		}
		out = append(out, a.reply)
	}
	return out, errors.Join(errs...)
}

// Wait blocks until n main-loop answers have ended (recorded, or not: see Replies) or ctx is
// done, and then returns ctx's error. Call Replies or Save after it.
func (rec *Recorder) Wait(ctx context.Context, n int) error {
	for {
		rec.mu.Lock()
		ended, changed := rec.ended, rec.changed
		rec.mu.Unlock()
		if ended >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Save writes the recorded replies to the script file name (see LoadScript).
// When some answer could not be recorded, Save still writes the others and
// returns the error of Replies.
func (rec *Recorder) Save(name string) error {
	replies, rerr := rec.Replies()
	if err := saveScript(name, replies); err != nil {
		return err
	}
	return rerr
}

func (rec *Recorder) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		rec.proxy.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "claudetest: recorder: reading the request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var probe struct {
		Tools []jsontext.Value `json:"tools"`
	}
	if json.Unmarshal(body, &probe) != nil || len(probe.Tools) == 0 {
		rec.proxy.ServeHTTP(w, r)
		return
	}
	a := &answer{err: errors.New("no answer")}
	rec.mu.Lock()
	rec.answers = append(rec.answers, a)
	rec.mu.Unlock()

	tw := &teeWriter{ResponseWriter: w}
	// The proxy panics with http.ErrAbortHandler when the client goes away
	// mid-stream: decode what came in any case.
	defer func() {
		reply, err := decodeAnswer(tw.status, w.Header(), tw.buf.Bytes())
		rec.mu.Lock()
		a.reply, a.err = reply, err
		rec.ended++
		close(rec.changed)
		rec.changed = make(chan struct{})
		rec.mu.Unlock()
	}()
	rec.proxy.ServeHTTP(tw, r)
}

// teeWriter passes an answer on and keeps a copy of its status and body.
type teeWriter struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
}

func (t *teeWriter) WriteHeader(code int) {
	if t.status == 0 {
		t.status = code
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(b []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	t.buf.Write(b)
	return t.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController (which the proxy uses) flush each event.
func (t *teeWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// decodeAnswer turns a Messages API answer (an error, an event stream or a
// JSON message) into a Reply.
func decodeAnswer(status int, h http.Header, body []byte) (Reply, error) {
	switch {
	case status == 0:
		return Reply{}, errors.New("no answer")
	case status != http.StatusOK:
		var e errorBody
		if err := json.Unmarshal(body, &e); err != nil {
			return Reply{}, fmt.Errorf("HTTP %d with a body that is not an API error: %w", status, err)
		}
		return Reply{Status: status, ErrorMessage: e.Error.Message, RetryAfter: retryAfter(h)}, nil
	case strings.HasPrefix(h.Get("Content-Type"), "text/event-stream"):
		return decodeStream(body)
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return Reply{}, fmt.Errorf("decoding the message: %w", err)
	}
	return replyOf(m)
}

// retryAfter reads the retry-after-ms or retry-after (seconds) header; zero
// when there is none.
func retryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	if s, err := strconv.ParseFloat(h.Get("retry-after"), 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	return 0
}

// decodeStream reassembles a streamed answer: message_start, then per
// content block a content_block_start, its deltas (text_delta,
// input_json_delta; others are skipped) and content_block_stop, then
// message_delta and message_stop. An "error" event is an error reply with
// the status of its error type. A stream without message_stop is an error.
func decodeStream(body []byte) (Reply, error) {
	var d streamDecoder
	for n, data := range sseData(body) {
		var ev streamEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			return Reply{}, fmt.Errorf("event %d: %w", n, err)
		}
		if ev.Type == "error" {
			if ev.Error == nil {
				return Reply{}, fmt.Errorf("event %d: error event without error", n)
			}
			return Reply{Status: statusOf(ev.Error.Type), ErrorMessage: ev.Error.Message}, nil
		}
		if err := d.add(ev); err != nil {
			return Reply{}, fmt.Errorf("event %d: %w", n, err)
		}
	}
	if !d.stopped {
		return Reply{}, errors.New("the stream ended before message_stop")
	}
	return replyOf(d.m)
}

// streamDecoder is the message a stream has built so far.
type streamDecoder struct {
	m       message
	stopped bool // message_stop arrived
}

// add applies one event (not "error") to the message.
func (d *streamDecoder) add(ev streamEvent) error {
	switch ev.Type {
	case "message_start":
		if ev.Message == nil {
			return errors.New("message_start without message")
		}
		d.m = *ev.Message
		d.m.Content = nil
	case "content_block_start":
		if ev.Index == nil || ev.ContentBlock == nil || *ev.Index != len(d.m.Content) {
			return errors.New("content_block_start out of order")
		}
		b := *ev.ContentBlock
		if b.Type == "tool_use" {
			b.Input = nil // the deltas carry the input; the start has {}
		}
		d.m.Content = append(d.m.Content, b)
	case "content_block_delta":
		if ev.Index == nil || *ev.Index < 0 || *ev.Index >= len(d.m.Content) || ev.Delta == nil {
			return errors.New("content_block_delta for no block")
		}
		addDelta(&d.m.Content[*ev.Index], ev.Delta)
	case "message_delta":
		d.messageDelta(ev)
	case "message_stop":
		d.stopped = true
	}
	return nil
}

// addDelta appends a text_delta or input_json_delta to b; other deltas are skipped.
func addDelta(b *contentBlock, delta *streamDelta) {
	switch delta.Type {
	case "text_delta":
		t := ""
		if b.Text != nil {
			t = *b.Text
		}
		t += delta.Text
		b.Text = &t
	case "input_json_delta":
		b.Input = append(b.Input, delta.PartialJSON...)
	}
}

// messageDelta records the stop reason and the usage a message_delta carries (the input and
// cache counts only when it gives them).
func (d *streamDecoder) messageDelta(ev streamEvent) {
	if ev.Delta != nil && ev.Delta.StopReason != "" {
		stop := ev.Delta.StopReason
		d.m.StopReason = &stop
	}
	u := ev.Usage
	if u == nil {
		return
	}
	d.m.Usage.OutputTokens = u.OutputTokens
	if u.InputTokens > 0 {
		d.m.Usage.InputTokens = u.InputTokens
	}
	if u.CacheCreationInputTokens > 0 {
		d.m.Usage.CacheCreationInputTokens = u.CacheCreationInputTokens
	}
	if u.CacheReadInputTokens > 0 {
		d.m.Usage.CacheReadInputTokens = u.CacheReadInputTokens
	}
}

// sseData returns the data of each server-sent event of body, in order
// (several data lines of one event joined with "\n").
func sseData(body []byte) []jsontext.Value {
	var out []jsontext.Value
	var cur []string
	for line := range strings.Lines(string(body)) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(cur) > 0 {
				out = append(out, jsontext.Value(strings.Join(cur, "\n")))
			}
			cur = nil
			continue
		}
		if d, ok := strings.CutPrefix(line, "data:"); ok {
			cur = append(cur, strings.TrimPrefix(d, " "))
		}
	}
	if len(cur) > 0 {
		out = append(out, jsontext.Value(strings.Join(cur, "\n")))
	}
	return out
}

// replyOf turns a complete message into a Reply.
func replyOf(m message) (Reply, error) {
	r := Reply{
		InputTokens:              m.Usage.InputTokens,
		OutputTokens:             m.Usage.OutputTokens,
		CacheCreationInputTokens: m.Usage.CacheCreationInputTokens,
		CacheReadInputTokens:     m.Usage.CacheReadInputTokens,
	}
	var texts []string
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			if b.Text != nil && *b.Text != "" {
				texts = append(texts, *b.Text)
			}
		case "tool_use":
			in := b.Input
			if len(bytes.TrimSpace(in)) == 0 {
				in = jsontext.Value("{}")
			}
			if !in.IsValid() {
				return Reply{}, fmt.Errorf("tool_use %s: input is not valid JSON: %.80q", b.ID, in)
			}
			r.ToolUses = append(r.ToolUses, ToolUse{ID: b.ID, Name: b.Name, Input: in})
		}
	}
	r.Text = strings.Join(texts, "\n")
	return r, nil
}
