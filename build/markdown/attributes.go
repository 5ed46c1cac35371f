package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// allowedAttributes are the only attributes an attribute block in content
// (goldmark's `{#id .class}` after a heading) may set: they name and style
// an element and give a page no behaviour. Anything else — data-*
// attributes a theme script might read, event handlers, style, src — is
// an error, so that content can never configure or load a script.
var allowedAttributes = map[string]bool{"id": true, "class": true}

// filterAttributes removes from each heading every attribute but id and
// class, reporting each at its position in the attribute block, and turns
// an id or class whose value is not a string (`{id=3}`, `{class=[a]}`)
// into an error too. src is the markdown body the headings' segments
// point into. Content sets no behaviour: nothing else ever reaches the
// HTML.
func filterAttributes(hs []*ast.Heading, src []byte, env *Env) {
	for _, h := range hs {
		attrs := h.Attributes()
		if len(attrs) == 0 {
			continue
		}
		block, blockOff := attributeBlock(h, src)
		var keep []ast.Attribute
		for _, a := range attrs {
			name := string(a.Name)
			off := attributeOffset(block, blockOff, a.Name, h)
			switch {
			case !allowedAttributes[strings.ToLower(name)]:
				env.Report(diag.Error, off, "heading: attribute %q is not allowed: an attribute block sets only {#id} and {.class}", name)
			case !isText(a.Value):
				env.Report(diag.Error, off, "heading: attribute %q must be a quoted string, not %s", name, describeValue(a.Value))
			case name != strings.ToLower(name):
				// ID= and Class= would be the same attribute twice once
				// the browser lower-cases them.
				env.Report(diag.Error, off, "heading: attribute %q must be written %q", name, strings.ToLower(name))
			default:
				keep = append(keep, a)
			}
		}
		if len(keep) == len(attrs) {
			continue
		}
		h.RemoveAttributes()
		for _, a := range keep {
			h.SetAttribute(a.Name, a.Value)
		}
	}
}

// isText reports whether v is an attribute value goldmark parsed from a
// string or a bare word.
func isText(v any) bool {
	switch v.(type) {
	case []byte, string:
		return true
	}
	return false
}

func describeValue(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64, int, int64:
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}

// attributeBlock returns the text of h's attribute block, the `{...}` that
// ends its line, and the block's offset in src; ("", -1) when it cannot be
// found (a setext heading's block ends its last text line as well).
func attributeBlock(h *ast.Heading, src []byte) (string, int) {
	lines := h.Lines()
	if lines.Len() == 0 {
		return "", -1
	}
	last := lines.At(lines.Len() - 1)
	start := max(min(last.Start, len(src)), 0)
	end := bytes.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += start
	}
	open := bytes.LastIndexByte(src[start:end], '{')
	if open < 0 {
		return "", -1
	}
	return string(src[start+open : end]), start + open
}

// attributeOffset is the offset in the body of name inside the attribute
// block, or the heading's start when it cannot be told.
func attributeOffset(block string, blockOff int, name []byte, h *ast.Heading) int {
	if blockOff >= 0 {
		for i := 0; ; {
			j := strings.Index(block[i:], string(name))
			if j < 0 {
				return blockOff
			}
			j += i
			before, after := block[j-1], byte('}')
			if k := j + len(name); k < len(block) {
				after = block[k]
			}
			if strings.IndexByte("{ \t", before) >= 0 && strings.IndexByte("= \t}", after) >= 0 {
				return blockOff + j
			}
			i = j + 1
		}
	}
	if lines := h.Lines(); lines.Len() > 0 {
		return lines.At(0).Start
	}
	return 0
}
