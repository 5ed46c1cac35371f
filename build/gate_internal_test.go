package build

import (
	"reflect"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/render"
)

// TestPreparedAssets: the assets of a build whose static files and
// highlight stylesheet are the last build's are taken as they are, and
// made again, as render.PrepareAssets makes them, when either changed.
func TestPreparedAssets(t *testing.T) {
	min := render.NewMinifier()
	made := func(css string) []render.StaticFile {
		return []render.StaticFile{{Path: "/css/main.css", Data: []byte(css)}, {Path: "/js/site.js", Data: []byte("let x = 1;\n")}}
	}
	var a preparedAssets
	steps := []struct {
		name  string
		made  []render.StaticFile
		css   string
		taken bool
	}{
		{"first", made("body { color: red; }"), ".chroma {}", false},
		{"the same, read again", made("body { color: red; }"), ".chroma {}", true},
		{"a stylesheet edited", made("body { color: blue; }"), ".chroma {}", false},
		{"the highlight style changed", made("body { color: blue; }"), ".chroma { color: red }", false},
		{"a file more", append(made("body { color: blue; }"), render.StaticFile{Path: "/css/extra.css", Data: []byte("p {}")}), ".chroma { color: red }", false},
	}
	var last render.AssetBundle
	for _, st := range steps {
		got := a.prepare(min, st.made, []byte(st.css), nil, false)
		want := render.PrepareAssets(min, st.made, []byte(st.css), nil, false)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", st.name, got, want)
		}
		if taken := last.Assets != nil && reflect.ValueOf(got.Assets).Pointer() == reflect.ValueOf(last.Assets).Pointer(); taken != st.taken {
			t.Errorf("%s: the last assets taken: %v, want %v", st.name, taken, st.taken)
		}
		last = got
	}
}
