package claudetest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
)

// SideText is the text answered to side queries (requests without tools).
const SideText = "Fake side answer."

// ReplyFunc computes the reply to a main-loop request. It may be called
// concurrently when the CLI sends parallel requests (e.g. subagents).
type ReplyFunc func(Request) Reply

// Model is a running fake Messages API on 127.0.0.1.
type Model struct {
	ts      *httptest.Server
	handler ReplyFunc
	sideH   ReplyFunc

	mu     sync.Mutex
	script []Reply
	next   int
	reqs   []Request
	side   []Request
	paths  []string
	msgSeq int
}

// NewModel starts a server that answers main-loop requests with replies, in
// order, then with TextReply("done").
func NewModel(replies ...Reply) *Model {
	return start(&Model{script: append([]Reply(nil), replies...)})
}

// SetSideHandler makes h answer side queries (requests without tools, such as the CLI's prompt
// hooks, which expect a JSON text like {"ok":false,"reason":"..."}). Nil restores SideText.
func (s *Model) SetSideHandler(h ReplyFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sideH = h
}

// NewModelFunc starts a server that answers each main-loop request with h.
// The request passed to h has its Index set and is already recorded.
func NewModelFunc(h ReplyFunc) *Model {
	return start(&Model{handler: h})
}

func start(s *Model) *Model {
	s.ts = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL returns the base URL, e.g. "http://127.0.0.1:41234", for ANTHROPIC_BASE_URL.
func (s *Model) URL() string { return s.ts.URL }

// Close shuts the server down, closing idle client connections.
func (s *Model) Close() {
	s.ts.CloseClientConnections()
	s.ts.Close()
}

// Requests returns the recorded main-loop requests (those with tools), in order.
func (s *Model) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// SideRequests returns the recorded side queries (requests without tools), in order.
func (s *Model) SideRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.side...)
}

// LastRequest returns the last main-loop request; ok is false if none came.
func (s *Model) LastRequest() (r Request, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		return Request{}, false
	}
	return s.reqs[len(s.reqs)-1], true
}

// requestPaths returns "METHOD /path?query" for every HTTP request received, in order.
func (s *Model) requestPaths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// Remaining returns how many scripted replies have not been used yet.
func (s *Model) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script) - s.next
}

func (s *Model) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.paths = append(s.paths, r.Method+" "+r.URL.RequestURI())
	s.mu.Unlock()

	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		body, _ := io.ReadAll(r.Body)
		writeJSON(w, http.StatusOK, map[string]int{"input_tokens": estimateTokens(len(body))})
	default:
		writeError(w, http.StatusNotFound, "claudetest: no route for "+r.Method+" "+r.URL.Path)
	}
}

func (s *Model) messages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "claudetest: reading body: "+err.Error())
		return
	}
	req, isMain, err := decodeRequest(r, body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "claudetest: invalid JSON body: "+err.Error())
		return
	}

	s.mu.Lock()
	s.msgSeq++
	msgID := fmt.Sprintf("msg_fake%04d", s.msgSeq)
	reply := TextReply(SideText)
	if isMain {
		req.Index = len(s.reqs)
		s.reqs = append(s.reqs, req)
		if s.handler == nil {
			reply = TextReply("done")
			if s.next < len(s.script) {
				reply = s.script[s.next]
				s.next++
			}
		}
	} else {
		req.Index = len(s.side)
		s.side = append(s.side, req)
	}
	sideH := s.sideH
	s.mu.Unlock()
	if !isMain && sideH != nil {
		reply = sideH(req)
	}
	if isMain && s.handler != nil {
		reply = s.handler(req)
	}

	if reply.isError() {
		if reply.RetryAfter > 0 {
			w.Header().Set("retry-after", strconv.FormatInt(int64((reply.RetryAfter+time.Second-1)/time.Second), 10))
			w.Header().Set("retry-after-ms", strconv.FormatInt(reply.RetryAfter.Milliseconds(), 10))
		}
		writeError(w, reply.Status, reply.ErrorMessage)
		return
	}
	model := req.Model
	if model == "" {
		model = "claude-fake"
	}
	m := buildMessage(msgID, model, len(body), reply)
	if req.stream {
		streamMessage(w, m)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// writeJSON writes v as a JSON response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_fake")
	w.WriteHeader(status)
	_ = json.MarshalWrite(w, v, json.Deterministic(true))
}

// writeError writes an error in the Anthropic error shape.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Type: "error", Error: apiError{Type: errorType(status), Message: msg}, RequestID: "req_fake"})
}

// errorBody is an error answer in the Anthropic error shape.
type errorBody struct {
	Type      string   `json:"type"`
	Error     apiError `json:"error"`
	RequestID string   `json:"request_id,omitzero"`
}

// estimateTokens is a rough token count for n bytes of text.
func estimateTokens(n int) int { return n/4 + 1 }
