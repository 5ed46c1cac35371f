package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// event is one message of the event stream /_kakehashi/events.
type event struct {
	// Name is "ok" (sent on connect when the build is good), "reload",
	// "css" or "error".
	Name string
	// Version identifies the build the event is about.
	Version string
	// Paths are the changed stylesheets of a css event, site-absolute.
	Paths []string
	// Swap maps the old hashed name of each fingerprinted stylesheet of a
	// css event to its new one, site-absolute ("/css/main.3f2a1c9e.css"
	// → "/css/main.77b0e412.css").
	Swap map[string]string
	// Errors are the diagnostics of an error event.
	Errors diag.List
}

// diagnostic is a diagnostic as the browser overlay receives it.
type diagnostic struct {
	Path         string   `json:"path"`
	Line         int      `json:"line"`
	Col          int      `json:"col"`
	Msg          string   `json:"msg"`
	Header       string   `json:"header"`
	Source       string   `json:"source,omitempty"`
	Context      []string `json:"context,omitempty"`
	ContextStart int      `json:"contextStart,omitempty"`
}

// Encode writes the event in the text/event-stream format.
func (e event) Encode() []byte {
	payload := struct {
		Version string            `json:"version"`
		Paths   []string          `json:"paths,omitempty"`
		Swap    map[string]string `json:"swap,omitempty"`
		Errors  []diagnostic      `json:"errors,omitempty"`
	}{Version: e.Version, Paths: e.Paths, Swap: e.Swap}
	for _, d := range e.Errors {
		payload.Errors = append(payload.Errors, diagnostic{
			Path: d.Path, Line: d.Line, Col: d.Col, Msg: d.Msg, Header: d.Header(),
			Source: d.Source, Context: d.Context, ContextStart: d.ContextStart,
		})
	}
	data, _ := json.Marshal(payload) // plain strings and numbers only
	return fmt.Appendf(nil, "event: %s\ndata: %s\n\n", e.Name, data)
}

// hub fans events out to the connected event streams.
type hub struct {
	mu      sync.Mutex
	clients map[chan []byte]bool
	state   event // sent to each new client: "ok" or "error"
	closed  bool
	done    chan struct{}
}

func newHub() *hub {
	return &hub{clients: map[chan []byte]bool{}, done: make(chan struct{})}
}

// subscribe adds a client whose channel already holds the current state.
func (h *hub) subscribe() (chan []byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, false
	}
	ch := make(chan []byte, 16)
	ch <- h.state.Encode()
	h.clients[ch] = true
	return ch, true
}

func (h *hub) unsubscribe(ch chan []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.clients[ch] {
		delete(h.clients, ch)
		close(ch)
	}
}

// publish records the state new clients get and sends ev (when its Name
// is set) to every client. A client too slow to take it is dropped; its
// browser reconnects and gets the current state.
func (h *hub) publish(state, ev event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.state = state
	if ev.Name == "" || h.closed {
		return
	}
	msg := ev.Encode()
	for ch := range h.clients {
		select {
		case ch <- msg:
		default:
			delete(h.clients, ch)
			close(ch)
		}
	}
}

// close ends every stream and refuses new ones.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	close(h.done)
	for ch := range h.clients {
		delete(h.clients, ch)
		close(ch)
	}
}

// count is the number of connected streams.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

// serveEvents streams events to one client until it leaves or the server
// shuts down, with a comment line every heartbeat to keep proxies and the
// connection alive. The stream outlives the server's timeouts; each
// message must be taken within writeTimeout, else the client is dropped
// (its browser reconnects).
func (h *hub) serveEvents(w http.ResponseWriter, r *http.Request, heartbeat, writeTimeout time.Duration) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch, ok := h.subscribe()
	if !ok {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	defer h.unsubscribe(ch)
	// The server's write timeout would end the stream: each message gets
	// a deadline of its own instead. (A ResponseWriter without deadlines,
	// a test's recorder, has none to move.)
	rc := http.NewResponseController(w)
	send := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if !send([]byte("retry: 1000\n\n")) {
		return
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-h.done:
			return
		case msg, ok := <-ch:
			if !ok || !send(msg) {
				return
			}
		case <-tick.C:
			if !send([]byte(": ping\n\n")) {
				return
			}
		}
	}
}
