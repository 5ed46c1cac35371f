package translation

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

var (
	yamlKeyRe   = regexp.MustCompile(`^(?:translated|"translated"|'translated')[ \t]*:(?:[ \t]|\r?\n|$)`)
	tomlKeyRe   = regexp.MustCompile(`^[ \t]*(?:translated|"translated"|'translated')[ \t]*=`)
	tomlTableRe = regexp.MustCompile(`^[ \t]*\[`)
	jsonKeyRe   = regexp.MustCompile(`"translated"[ \t\r\n]*:[ \t\r\n]*"(?:[^"\\]|\\.)*"`)
	jsonOpenRe  = regexp.MustCompile(`^[ \t\r\n]*\{([ \t]*\r?\n)?([ \t]*)("|\})`)
)

// Mark returns src, the text of a translation's file, with its front
// matter's "translated:" field saying date (2026-12-01) and hash (Hash of
// the original): the existing field's line is replaced in place, or the
// line is added after the last field (in TOML, before the first [table]).
// Every other byte of src is kept, the body, the other fields, comments,
// a byte order mark and Windows line ends included; a file without front
// matter gets a YAML one holding only the field. In front matter written
// as a JSON object the "translated" member's value is replaced, or the
// member is added first. A src already saying
// date and hash is returned as it is. The result is parsed again, and an
// edit that would not read back as date and hash (front matter written in
// a way Mark does not follow) is an error, leaving the file to edit by
// hand.
func Mark(src []byte, date, hash string) ([]byte, error) {
	want := date + " " + hash
	if _, _, err := source.ParseTranslated(want); err != nil {
		return nil, err
	}
	bom := []byte{}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		bom, src = src[:3], src[3:]
	}
	if jsonOpenRe.Match(src) {
		return check(bom, src, markJSON(src, want), want)
	}
	lines := splitLines(src)
	eol := "\n"
	if len(lines) > 0 && bytes.HasSuffix(lines[0], []byte("\r\n")) {
		eol = "\r\n"
	}
	kind := ""
	if len(lines) > 0 {
		switch string(bytes.TrimRight(lines[0], " \t\r\n")) {
		case "---":
			kind = "yaml"
		case "+++":
			kind = "toml"
		}
	}
	var out [][]byte
	if kind == "" {
		out = append([][]byte{[]byte("---" + eol), []byte("translated: " + want + eol), []byte("---" + eol)}, lines...)
	} else {
		delim := string(bytes.TrimRight(lines[0], " \t\r\n"))
		end := -1
		for i := 1; i < len(lines); i++ {
			if string(bytes.TrimRight(lines[i], " \t\r\n")) == delim {
				end = i
				break
			}
		}
		if end < 0 {
			return nil, fmt.Errorf("the front matter opened with %q is never closed", delim)
		}
		line := "translated: " + want
		keyRe := yamlKeyRe
		limit := end // fields are before this line
		if kind == "toml" {
			line = `translated = "` + want + `"`
			keyRe = tomlKeyRe
			for i := 1; i < end; i++ {
				if tomlTableRe.Match(lines[i]) {
					limit = i
					break
				}
			}
		}
		from, to := -1, -1 // the lines to replace
		for i := 1; i < limit; i++ {
			if keyRe.Match(lines[i]) {
				from, to = i, i+1
				// A YAML value may go on in the lines indented under it.
				for kind == "yaml" && to < end && len(lines[to]) > 0 && (lines[to][0] == ' ' || lines[to][0] == '\t') && len(bytes.TrimSpace(lines[to])) > 0 {
					to++
				}
				break
			}
		}
		if from < 0 {
			from = limit
			for from > 1 && len(bytes.TrimSpace(lines[from-1])) == 0 {
				from--
			}
			to = from
		}
		le := "\n"
		if bytes.HasSuffix(lines[from-1], []byte("\r\n")) {
			le = "\r\n"
		}
		out = append(out, lines[:from]...)
		out = append(out, []byte(line+le))
		out = append(out, lines[to:]...)
	}
	return check(bom, src, bytes.Join(out, nil), want)
}

// markJSON writes want into the JSON object that opens src: over the
// value of its "translated" member, or as a first member, on a line of
// its own indented as the next one when the object spans lines.
func markJSON(src []byte, want string) []byte {
	value := `"translated": "` + want + `"`
	m := jsonOpenRe.FindSubmatchIndex(src)
	end := bodyEnd(src)
	if loc := jsonKeyRe.FindIndex(src[:end]); loc != nil {
		return append(append(append([]byte{}, src[:loc[0]]...), value...), src[loc[1]:]...)
	}
	at := m[6] // the first member, or the object's end
	switch {
	case src[at] == '}':
	case m[2] >= 0: // the members start on lines of their own
		eol := "\n"
		if bytes.HasSuffix(src[m[2]:m[3]], []byte("\r\n")) {
			eol = "\r\n"
		}
		value += "," + eol + string(src[m[4]:m[5]])
	default:
		value += ", "
	}
	return append(append(append([]byte{}, src[:at]...), value...), src[at:]...)
}

// bodyEnd is where src's front matter ends, or len(src) when it does not
// parse.
func bodyEnd(src []byte) int {
	if pg, _ := source.ParsePage("", source.Normalize(src)); pg != nil && pg.BodyStart > 0 && pg.BodyStart <= len(src) {
		return pg.BodyStart
	}
	return len(src)
}

// check returns res, the edited src, behind bom, once it reads back with
// want as its translated field.
func check(bom, src, res []byte, want string) ([]byte, error) {
	res = append(bytes.Clone(bom), res...)
	if bytes.Equal(res[len(bom):], src) {
		return append(bom, src...), nil
	}
	pg, diags := source.ParsePage("", source.Normalize(res))
	if err := diags.Err(); err != nil || pg == nil {
		why := "it does not parse"
		if errs := diags.Errors(); len(errs) > 0 {
			why = errs[0].Header()
		}
		return nil, fmt.Errorf("writing %q there would break the front matter (%s): write it by hand", "translated: "+want, why)
	}
	if got := pg.Meta.Translated.String(); got != want {
		return nil, fmt.Errorf("cannot find where to write %q in this front matter (after the edit it reads %q): write it by hand", "translated: "+want, got)
	}
	return res, nil
}

// splitLines splits src into lines, each keeping its line end.
func splitLines(src []byte) [][]byte {
	var lines [][]byte
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			lines = append(lines, src)
			break
		}
		lines = append(lines, src[:i+1])
		src = src[i+1:]
	}
	return lines
}
