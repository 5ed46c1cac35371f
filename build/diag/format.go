package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// jsonDiagnostic is one diagnostic of WriteJSON (kakehashi check --format json). File and
// Message are escaped as the text form is (diag.Escape): JSON would carry
// a terminal escape or a bidirectional control intact, and a tool that
// prints the message would pass it on to its terminal.
type jsonDiagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// WriteJSON writes the list as an indented JSON array of objects with
// file, line, col, severity ("error" or "warning"), code and message.
func (l List) WriteJSON(w io.Writer) error {
	out := make([]jsonDiagnostic, 0, len(l))
	for _, d := range l {
		out = append(out, jsonDiagnostic{File: Escape(d.Path), Line: d.Line, Col: d.Col, Severity: severityName(d), Code: d.Code, Message: Escape(d.Msg)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// severityName is how the machine formats name a diagnostic's severity.
func severityName(d Diagnostic) string {
	if d.Severity == Warning {
		return "warning"
	}
	return "error"
}

// WriteGitHub writes workflow commands that GitHub Actions shows as
// annotations on the lines they name. The path and the message are
// escaped as the text form is (diag.Escape), then encoded as workflow
// commands need: a line break or a "::" of the content cannot end the
// command and start another.
func (l List) WriteGitHub(w io.Writer) error {
	for _, d := range l {
		var props []string
		if d.Path != "" {
			props = append(props, "file="+ghProperty(Escape(d.Path)))
		}
		if d.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", d.Line))
		}
		if d.Col > 0 {
			props = append(props, fmt.Sprintf("col=%d", d.Col))
		}
		props = append(props, "title="+ghProperty("kakehashi "+d.Code))
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", severityName(d), strings.Join(props, ","), ghData(Escape(d.Msg))); err != nil {
			return err
		}
	}
	return nil
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
