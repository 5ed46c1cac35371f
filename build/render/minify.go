package render

import (
	"bytes"
	"path"
	"sync"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/js"
)

// Minifier shrinks the theme's stylesheets and scripts as they are
// published (the theme's sources stay readable), remembering each result
// by its input so that rebuilds do not redo it. It is safe for concurrent
// use.
type Minifier struct {
	m    *minify.M
	mu   sync.Mutex
	done map[string][]byte // input bytes → minified
}

// NewMinifier returns a Minifier for CSS and JavaScript.
func NewMinifier() *Minifier {
	m := minify.New()
	m.Add("text/css", &css.Minifier{})
	m.Add("text/javascript", &js.Minifier{})
	return &Minifier{m: m, done: map[string][]byte{}}
}

// Minify returns data minified when p is a stylesheet or a script, and
// data itself otherwise or when the minifier cannot parse it.
func (a *Minifier) Minify(p string, data []byte) []byte {
	var mime string
	switch path.Ext(p) {
	case ".css":
		mime = "text/css"
	case ".js":
		mime = "text/javascript"
	default:
		return data
	}
	a.mu.Lock()
	out, ok := a.done[string(data)]
	a.mu.Unlock()
	if ok {
		return out
	}
	var buf bytes.Buffer
	if err := a.m.Minify(mime, &buf, bytes.NewReader(data)); err != nil || buf.Len() >= len(data) {
		out = data
	} else {
		out = buf.Bytes()
	}
	a.mu.Lock()
	a.done[string(data)] = out
	a.mu.Unlock()
	return out
}
