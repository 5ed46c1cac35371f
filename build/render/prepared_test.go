package render

import (
	"reflect"
	"testing"
)

// TestPreparedAssets: the assets of a build whose static files and
// highlight stylesheet are the last build's are taken as they are, and
// made again, as PrepareAssets makes them, when either changed.
func TestPreparedAssets(t *testing.T) {
	min := NewMinifier()
	made := func(css string) []StaticFile {
		return []StaticFile{{Path: "/css/main.css", Data: []byte(css)}, {Path: "/js/site.js", Data: []byte("let x = 1;\n")}}
	}
	var a PreparedAssets
	steps := []struct {
		name  string
		made  []StaticFile
		css   string
		taken bool
	}{
		{"first", made("body { color: red; }"), ".chroma {}", false},
		{"the same, read again", made("body { color: red; }"), ".chroma {}", true},
		{"a stylesheet edited", made("body { color: blue; }"), ".chroma {}", false},
		{"the highlight style changed", made("body { color: blue; }"), ".chroma { color: red }", false},
		{"a file more", append(made("body { color: blue; }"), StaticFile{Path: "/css/extra.css", Data: []byte("p {}")}), ".chroma { color: red }", false},
	}
	var last AssetBundle
	for _, st := range steps {
		got := a.Prepare(min, st.made, []byte(st.css), nil, false)
		want := PrepareAssets(min, st.made, []byte(st.css), nil, false)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", st.name, got, want)
		}
		if taken := last.Assets != nil && reflect.ValueOf(got.Assets).Pointer() == reflect.ValueOf(last.Assets).Pointer(); taken != st.taken {
			t.Errorf("%s: the last assets taken: %v, want %v", st.name, taken, st.taken)
		}
		last = got
	}
}
