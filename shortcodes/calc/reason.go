package calc

import (
	"sort"
	"strings"

	"github.com/kakehashi-dev/kakehashi/i18n/particle"
)

// Reason is a message as data: a stable code and named arguments. Widgets
// show it with Text in the page's language; tests compare codes.
type Reason struct {
	Code string            `json:"code"`
	Args map[string]string `json:"args,omitempty"`
}

// R builds a Reason from a code and key/value pairs.
func R(code string, kv ...string) Reason {
	r := Reason{Code: code}
	for i := 0; i+1 < len(kv); i += 2 {
		if r.Args == nil {
			r.Args = map[string]string{}
		}
		r.Args[kv[i]] = kv[i+1]
	}
	return r
}

// Text renders the reason in lang, one of the languages the catalogue is
// written in ("ja", "ko", "en"), English for any other. Placeholders
// {name} in the template are replaced by the argument of that name. A
// particle marker such as {이/가} or {으로/로} (a Korean template's
// particle after a placeholder) becomes the form that fits the text
// before it, chosen by package particle. An unknown code renders as the
// code followed by its arguments, so nothing is ever lost.
func (r Reason) Text(lang string) string {
	t := template(r.Code, lang)
	if t == "" {
		return r.fallback()
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			b.WriteString(t)
			break
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			b.WriteString(t)
			break
		}
		b.WriteString(t[:i])
		key := t[i+1 : i+j]
		if v, ok := r.Args[key]; ok {
			b.WriteString(v)
		} else if particle.IsPair(key) {
			b.WriteString(particle.Choose(b.String(), key))
		} else {
			b.WriteString(t[i : i+j+1])
		}
		t = t[i+j+1:]
	}
	return b.String()
}

func (r Reason) fallback() string {
	keys := make([]string, 0, len(r.Args))
	for k := range r.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(r.Code)
	for _, k := range keys {
		b.WriteString(" ")
		b.WriteString(k)
		b.WriteString("=")
		b.WriteString(r.Args[k])
	}
	return b.String()
}

// String is the English text.
func (r Reason) String() string { return r.Text("en") }

// CodeEmpty is the code of an input error for a value not entered yet:
// an empty string where a number or a required text goes (a cleared form
// field). A widget shows it as a prompt, not as an error.
const CodeEmpty = "err.empty"

// InputError is an invalid input: the field at fault (as named in the JS
// API, e.g. "members" or "certSANs[1]") and why, as a Reason. The
// reason's text says what to enter, without naming the field, so that a
// widget can put the field's visible label before it (FieldText).
type InputError struct {
	Field  string
	Reason Reason
}

var _ error = (*InputError)(nil)

// Error is the English text, prefixed by the field.
func (e *InputError) Error() string { return e.Text("en") }

// Text is the localized text, prefixed by the field as the JS API names
// it: the error of the API's result.
func (e *InputError) Text(lang string) string {
	return e.Field + ": " + e.Reason.Text(lang)
}

// Empty reports whether the value is only not entered yet (CodeEmpty).
func (e *InputError) Empty() bool { return e.Reason.Code == CodeEmpty }

// Key is the name of the field at fault without its index or path:
// "certSANs" for "certSANs[1]", "endpoint" for "endpoint.address". It is
// what a widget finds the field's visible label by.
func (e *InputError) Key() string {
	if i := strings.IndexAny(e.Field, ".["); i >= 0 {
		return e.Field[:i]
	}
	return e.Field
}

// FieldText is the localized text with label, the field's visible label,
// before it as format says ("{label}: {text}", a UI string); without a
// label, the text alone. No field name of the API shows in it.
func (e *InputError) FieldText(lang, label, format string) string {
	text := e.Reason.Text(lang)
	if label == "" || !strings.Contains(format, "{text}") {
		return text
	}
	return strings.NewReplacer("{label}", label, "{text}", text).Replace(format)
}

func inputErr(field, code string, kv ...string) *InputError {
	return &InputError{Field: field, Reason: R(code, kv...)}
}
