package build

import (
	"bytes"
	"path"
	"sync"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/js"
)

// assetMinifier shrinks the theme's stylesheets and scripts as they are
// published (the theme's sources stay readable), remembering each result
// by its input so that rebuilds do not redo it.
type assetMinifier struct {
	m    *minify.M
	mu   sync.Mutex
	done map[string][]byte // input bytes → minified
}

func newAssetMinifier() *assetMinifier {
	m := minify.New()
	m.Add("text/css", &css.Minifier{})
	m.Add("text/javascript", &js.Minifier{})
	return &assetMinifier{m: m, done: map[string][]byte{}}
}

// minify returns data minified when p is a stylesheet or a script, and
// data itself otherwise or when the minifier cannot parse it.
func (a *assetMinifier) minify(p string, data []byte) []byte {
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
