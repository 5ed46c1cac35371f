package serve

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/glossary"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// TestPairStatus: under the frames, /_pair/ says a current translation
// is current with the day it was marked; after the original is edited,
// that it is stale, with the original's changed and added blocks
// highlighted and the removed ones listed, from the copy of the original
// as marked; without that copy, that it is missing and where the history
// is: in the language the view speaks, its path's (ja, ko) or the site's
// first.
func TestPairStatus(t *testing.T) {
	s, ts, root := newTestServer(t)
	const ja, ko = "content/ja/cka/05-ha-cluster.md", "content/ko/cka/05-ha-cluster.md"
	src := []byte(readFile(t, root, ja))
	orig, diags := source.ParsePage(ja, source.Normalize(src))
	if orig == nil {
		t.Fatal(diags)
	}
	hash := translation.Hash(orig)
	marked, err := translation.Mark([]byte(readFile(t, root, ko)), "2026-11-02", hash)
	must(t, err)
	writeFile(t, root, ko, string(marked))
	store := translation.Store{Fs: afero.NewBasePathFs(afero.NewOsFs(), root), Dir: ".kakehashi-cache/originals"}
	must(t, store.Save(hash, orig.Src))
	must(t, s.Rebuild(context.Background(), []string{ko}))

	c := ts.Client()
	code, body := get(t, c, ts.URL+"/_pair/ja/cka/05-ha-cluster/")
	if code != 200 || !strings.Contains(body, `<p class="current">韓国語: 最新 (記録: 2026-11-02)`) {
		t.Fatalf("current: %d\n%s", code, body)
	}

	// Edit the original: a paragraph rewritten, one added, one removed.
	paras := strings.Split(string(src), "\n\n")
	removed := paras[3]
	g, ds := glossary.Load(context.Background(), afero.NewOsFs(), filepath.Join(root, "content", glossary.File), []string{"ja", "ko"})
	if g == nil || ds.Err() != nil {
		t.Fatalf("the course's glossary: %v", ds)
	}
	paras[2] = "書き直した段落です。"
	paras = append(paras[:3], paras[4:]...)
	paras = append(paras, "追加した段落です。\n")
	writeFile(t, root, ja, strings.Join(paras, "\n\n"))
	must(t, s.Rebuild(context.Background(), []string{ja}))
	_, body = get(t, c, ts.URL+"/_pair/ko/cka/05-ha-cluster/")
	for _, want := range []string{
		`<p class="stale">한국어: 갱신 필요. <code>content/ko/cka/05-ha-cluster.md</code> 파일을 기록한 뒤(2026-11-02) `,
		`에 <code>content/ja/cka/05-ha-cluster.md</code> 파일이 바뀌었습니다.</p>`,
		`<p>기록한 뒤 바뀐 원문(일본어)의 블록:</p>`,
		`<div class="changed"><p>변경 (`,
		`<pre lang="ja">書き直した段落です。</pre>`,
		`<div class="added"><p>추가 (`,
		`<pre lang="ja">追加した段落です。</pre>`,
		`<p>기록한 뒤 삭제됨:</p>`,
		// The course's glossary terms are marked in the blocks.
		`<div class="removed"><pre lang="ja">` + string(markTerms(g, firstLine(removed), "ja")),
		`바뀌지 않은 블록 `,
		`<code>kakehashi translations mark content/ko/cka/05-ha-cluster.md</code>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("stale: no %q in\n%s", want, body[strings.Index(body, "<footer"):])
		}
	}

	// Without the copy: the history is in git.
	must(t, os.RemoveAll(filepath.Join(root, ".kakehashi-cache", "originals")))
	_, body = get(t, c, ts.URL+"/_pair/cka/05-ha-cluster/")
	for _, want := range []string{
		`<p class="stale">韓国語: 要更新。`,
		`記録したときの原文が <code>.kakehashi-cache/originals</code> にありません。別のマシンで記録したか、キャッシュを消したあとのため`,
		`原文の履歴は <code>git log -p content/ja/cka/05-ha-cluster.md</code> で見られます。`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no copy: no %q in %s", want, body[strings.Index(body, "<footer"):])
		}
	}
	if strings.Contains(body, `class="changed"`) {
		t.Error("no copy: blocks shown")
	}

	// An unmarked translation says how to mark it.
	writeFile(t, root, ko, strings.Replace(string(marked), "translated: 2026-11-02 "+hash+"\n", "", 1))
	must(t, s.Rebuild(context.Background(), []string{ko}))
	if _, body = get(t, c, ts.URL+"/_pair/cka/05-ha-cluster/"); !strings.Contains(body, `<p class="unmarked">韓国語: 未記録。`) {
		t.Errorf("unmarked: %s", body)
	}
}

// TestPairFromLastBuild: /_pair/ tells the translations as the build
// being served read them, not as the sources are now: an edit of the
// original shows once it is rebuilt, not before, and no request reads the
// sources.
func TestPairFromLastBuild(t *testing.T) {
	s, ts, root := newTestServer(t)
	const ja, ko = "content/ja/cka/05-ha-cluster.md", "content/ko/cka/05-ha-cluster.md"
	src := readFile(t, root, ja)
	orig, diags := source.ParsePage(ja, source.Normalize([]byte(src)))
	if orig == nil {
		t.Fatal(diags)
	}
	marked, err := translation.Mark([]byte(readFile(t, root, ko)), "2026-11-02", translation.Hash(orig))
	must(t, err)
	writeFile(t, root, ko, string(marked))
	must(t, s.Rebuild(context.Background(), []string{ko}))
	const current = `<div class="note" data-lang="ko" data-state="current">`
	c := ts.Client()
	if _, body := get(t, c, ts.URL+"/_pair/cka/05-ha-cluster/"); !strings.Contains(body, current) {
		t.Fatalf("after marking: no %q in\n%s", current, body)
	}

	// The original edited on disk, not rebuilt yet: still as built.
	writeFile(t, root, ja, strings.Replace(src, "\n\n", "\n\n書き直した段落です。\n\n", 3))
	for range 3 {
		if _, body := get(t, c, ts.URL+"/_pair/ko/cka/05-ha-cluster/"); !strings.Contains(body, current) || strings.Contains(body, `data-state="stale"`) {
			t.Fatalf("before the rebuild: /_pair/ read the edited source:\n%s", body)
		}
	}
	must(t, s.Rebuild(context.Background(), []string{ja}))
	if _, body := get(t, c, ts.URL+"/_pair/ko/cka/05-ha-cluster/"); !strings.Contains(body, `data-state="stale"`) {
		t.Fatalf("after the rebuild: not stale:\n%s", body)
	}

	// A build that fails keeps the last good build's translations.
	writeFile(t, root, ja, strings.Replace(src, "part: 5\n", "part: [5\n", 1))
	if err := s.Rebuild(context.Background(), []string{ja}); err == nil {
		t.Fatal("broken front matter built")
	}
	if _, body := get(t, c, ts.URL+"/_pair/ko/cka/05-ha-cluster/"); !strings.Contains(body, `data-state="stale"`) {
		t.Fatalf("after a failed build: not as the last good build:\n%s", body)
	}

	// The original back as marked while a template is broken; then only
	// the template is fixed: the next good build has the original's edit.
	const layout = "themes/default/layouts/article.html"
	good := readFile(t, root, layout)
	writeFile(t, root, ja, src)
	writeFile(t, root, layout, good+"{{")
	if err := s.Rebuild(context.Background(), []string{ja, layout}); err == nil {
		t.Fatal("a broken template built")
	}
	writeFile(t, root, layout, good)
	must(t, s.Rebuild(context.Background(), []string{layout}))
	if _, body := get(t, c, ts.URL+"/_pair/ko/cka/05-ha-cluster/"); !strings.Contains(body, current) {
		t.Fatalf("after the template was fixed: the original's edit is missing:\n%s", body)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestPairIndexLater: a rebuild leaves the pair index to be made when
// /_pair/ is first asked for, and the index made then, after edits of
// the content and of the UI strings, is a fresh server's.
func TestPairIndexLater(t *testing.T) {
	s, ts, root := newTestServer(t)
	const ja = "content/ja/cka/05-ha-cluster.md"
	c := ts.Client()
	if code, _ := get(t, c, ts.URL+"/_pair/"); code != 200 {
		t.Fatalf("/_pair/: %d", code)
	}
	writeFile(t, root, ja, strings.Replace(readFile(t, root, ja), `title: "`, `title: "新 `, 1))
	must(t, s.Rebuild(context.Background(), []string{ja}))
	if l := s.cur.Load().pairs; l == nil {
		t.Fatal("the rebuild left no pair index to make")
	} else if <-l.ready; l.make == nil || l.idx != nil {
		t.Fatal("the rebuild made the pair index")
	}
	const strs = "i18n/ja.toml"
	writeFile(t, root, strs, strings.Replace(readFile(t, root, strs), `pair_filter_all = "すべて"`, `pair_filter_all = "全部"`, 1))
	must(t, s.Rebuild(context.Background(), []string{strs}))
	writeFile(t, root, ja, readFile(t, root, ja)+"\n追加した段落です。\n")
	must(t, s.Rebuild(context.Background(), []string{ja}))
	_, got := get(t, c, ts.URL+"/_pair/")
	if l := s.cur.Load().pairs; l.idx == nil {
		t.Fatal("/_pair/ answered without the index")
	}

	fresh, err := New(context.Background(), Options{Root: root})
	must(t, err)
	fts := httptest.NewServer(fresh)
	defer func() { fresh.Close(); fts.Close() }()
	_, want := get(t, fts.Client(), fts.URL+"/_pair/")
	if got != want {
		t.Errorf("the index after the edits differs from a fresh server's:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(got, "新 ") || !strings.Contains(got, "全部") {
		t.Errorf("the index does not show the edited title and string:\n%s", got)
	}
}
