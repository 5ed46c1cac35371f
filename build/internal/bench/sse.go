package main

import (
	"bufio"
	"io"
	"strings"
)

// sseEvent is one event of a text/event-stream.
type sseEvent struct {
	// name is the event's type: its "event:" field, "message" without one.
	name string
	// data is its "data:" lines joined by newlines.
	data string
}

// sseReader reads the events of a text/event-stream as a browser's
// EventSource dispatches them: fields up to a blank line make one event;
// comment lines (":"), "id:" and "retry:" are skipped; a block without
// data dispatches nothing; an event cut off by the end of the stream is
// dropped.
type sseReader struct {
	r *bufio.Reader
}

func newSSEReader(r io.Reader) *sseReader { return &sseReader{r: bufio.NewReader(r)} }

// next returns the next event, or the read error (io.EOF at the end of
// the stream).
func (s *sseReader) next() (sseEvent, error) {
	var name string
	var data []string
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return sseEvent{}, err
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" {
			if data == nil {
				name = ""
				continue
			}
			if name == "" {
				name = "message"
			}
			return sseEvent{name: name, data: strings.Join(data, "\n")}, nil
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			name = value
		case "data":
			data = append(data, value)
		}
	}
}
