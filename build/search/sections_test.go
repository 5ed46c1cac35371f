package search

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A fragment says where each heading's text is in its text, in code
// points, so that the search box can link a section's matches to it.
func TestFragmentSections(t *testing.T) {
	d := Doc{
		Lang: "ja", URL: "/ja/cka/03-etcd/", Title: "etcd",
		// "構成" is in the prose before its heading: the heading is found
		// only as a whole run, after the one before it.
		Text:       "前書き 構成 です。\n構成\netcd の構成を説明します。\nバックアップ手順\netcdctl snapshot save を使います。\n見つからない見出し？\n末尾",
		Headings:   "構成\nバックアップ手順\n本文にない見出し\n末尾\n",
		HeadingIDs: "kousei\nbackup\nmissing\nend\n",
		Code:       "etcdctl snapshot save 末尾",
	}
	files, _ := Files("ja", []Doc{d}, Options{})
	idx, err := Load("ja", reader(files))
	if err != nil {
		t.Fatal(err)
	}
	ids, offs, lens := idx.Sections(0)
	if want := []string{"kousei", "backup", "end"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("section ids %q, want %q", ids, want)
	}
	rs := []rune(idx.pages[0].text)
	heads := []string{"構成", "バックアップ手順", "末尾"}
	for i, h := range heads {
		if got := string(rs[offs[i] : offs[i]+lens[i]]); got != h {
			t.Errorf("section %s at %d+%d is %q, want %q", ids[i], offs[i], lens[i], got, h)
		}
	}
	// "構成" first stands in the preface at code point 4; its heading is
	// the later run.
	if offs[0] == strings.Index(string(rs), "構成") {
		t.Errorf("the heading 構成 was taken from the preface (%d)", offs[0])
	}
	// 末尾 is found in the prose, never in the code after it.
	prose := len([]rune(collapse(d.Text)))
	if offs[2]+lens[2] > prose {
		t.Errorf("末尾 at %d, past the prose (%d code points)", offs[2], prose)
	}
	// The code after the prose is in no section: a last [offset] says
	// where the prose ends.
	if got := idx.pages[0].text; !strings.HasSuffix(got, " etcdctl snapshot save 末尾") {
		t.Fatalf("text %q", got)
	}
	for p, b := range files {
		if strings.Contains(p, "/p-") && !strings.Contains(string(b), `,[`+strconv.Itoa(prose)+`]]`) {
			t.Errorf("%s does not end its sections at the prose's end (%d): %s", p, prose, b)
		}
	}
	// A page without headings has no "sec" at all.
	files, _ = Files("ja", []Doc{{Lang: "ja", URL: "/ja/x/", Title: "x", Text: "本文"}}, Options{})
	for p, b := range files {
		if strings.Contains(p, "/p-") && strings.Contains(string(b), `"sec"`) {
			t.Errorf("%s has sections: %s", p, b)
		}
	}
}

// Load refuses sections out of order or outside the text.
func TestLoadChecksSections(t *testing.T) {
	for _, sec := range [][]sectionAt{{{off: 3, n: 1, id: "a"}, {off: 1, n: 1, id: "b"}}, {{off: 0, n: 99, id: "a"}}, {{off: 0, n: 1, id: ""}}} {
		files, _ := Files("ja", []Doc{{Lang: "ja", URL: "/ja/x/", Title: "x", Text: "本文です"}}, Options{})
		for p := range files {
			if strings.Contains(p, "/p-") {
				name := strings.TrimSuffix(strings.TrimPrefix(p, DataDir("ja")+"p-"), ".js")
				files[p] = fragmentScript("ja", name, "/ja/x/", "x", 0, "本文です", sec)
			}
		}
		if _, err := Load("ja", reader(files)); err == nil {
			t.Errorf("Load took sections %+v", sec)
		}
	}
}
