package build_test

import (
	"bytes"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

const (
	jaSched = "content/ja/cka/03-scheduling/index.md"
	koSched = "content/ko/cka/03-scheduling/index.md"
)

// bundles lays out testdata/sites/bundles.txtar with its images, which
// txtar cannot hold: flow.png (40×30) and img/node.jpg (16×8) in the
// Japanese folder only, anim.gif (5×5) in both (the Korean one 6×6),
// volume.webp (300×2) in part 4's Japanese folder, and static/img/site.png
// (12×4).
func bundles(t *testing.T, opts ...sitetest.Option) *sitetest.Site {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sites", "bundles.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	s := sitetest.New(t, string(b), opts...)
	s.WriteFile("content/ja/cka/03-scheduling/flow.png", pngOf(t, 40, 30)).
		WriteFile("content/ja/cka/03-scheduling/img/node.jpg", encoded(t, 16, 8, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) })).
		WriteFile("content/ja/cka/03-scheduling/anim.gif", encoded(t, 5, 5, func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, m, nil) })).
		WriteFile("content/ko/cka/03-scheduling/anim.gif", encoded(t, 6, 6, func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, m, nil) })).
		WriteFile("content/ja/cka/04-storage/volume.webp", string(webpHeader(300, 2))).
		WriteFile("static/img/site.png", pngOf(t, 12, 4))
	return s
}

func pngOf(t *testing.T, w, h int) string {
	return encoded(t, w, h, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) })
}

func encoded(t *testing.T, w, h int, enc func(*bytes.Buffer, image.Image) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := enc(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// webpHeader is a lossless WebP of w×h pixels, its header only: what its
// size is read from (golang.org/x/image has no WebP encoder).
func webpHeader(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14
	le := func(n uint32) []byte { return []byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)} }
	b := append([]byte("RIFF"), le(18)...)
	b = append(b, "WEBPVP8L"...)
	b = append(b, le(5)...)
	return append(b, 0x2f, byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24), 0)
}

// TestSiteBundles: a page folder is the page its folder names, its files
// are published beside it, its Korean twin uses the Japanese files it
// lacks (published once, linked relative), and every image gets its size
// and, but for the first, lazy loading.
func TestSiteBundles(t *testing.T) {
	s := bundles(t).Build()
	s.AssertExists("ja/cka/03-scheduling/index.html", "ko/cka/03-scheduling/index.html",
		"ja/cka/03-scheduling/flow.png", "ja/cka/03-scheduling/img/node.jpg", "ja/cka/03-scheduling/notes.txt",
		"ja/cka/03-scheduling/logo.svg", "ko/cka/03-scheduling/logo.svg", "ko/cka/03-scheduling/anim.gif",
		"ja/cka/storage/index.html", "ja/cka/storage/volume.webp", "img/site.png").
		AssertAbsent("ko/cka/03-scheduling/flow.png", "ko/cka/03-scheduling/img/node.jpg", "ko/cka/storage/volume.webp",
			"ja/cka/03-scheduling/index.md", "ja/cka/04-storage/index.html").
		AssertContains("ja/cka/03-scheduling/index.html",
			`<img src="flow.png" alt="スケジューラーの流れ" width="40" height="30">`,
			`<img src="img/node.jpg" alt="ノード" title="ノードの図" width="16" height="8" loading="lazy" decoding="async">`,
			`<img src="anim.gif" alt="動き" width="5" height="5" loading="lazy" decoding="async">`,
			`<img src="logo.svg" alt="ロゴ" width="120" height="40" loading="lazy" decoding="async">`,
			`<img src="../../../img/site.png" alt="" width="12" height="4" loading="lazy" decoding="async">`).
		AssertContains("ko/cka/03-scheduling/index.html",
			`<img src="../../../ja/cka/03-scheduling/flow.png" alt="스케줄러 흐름" width="40" height="30">`,
			`<img src="../../../ja/cka/03-scheduling/img/node.jpg" alt="노드" title="노드 그림" width="16" height="8" loading="lazy" decoding="async">`,
			`<img src="anim.gif" alt="움직임" width="6" height="6" loading="lazy" decoding="async">`,
			`<img src="logo.svg" alt="로고" width="64" height="32" loading="lazy" decoding="async">`).
		AssertContains("ja/cka/storage/index.html", `<img src="volume.webp" alt="ボリューム" width="300" height="2">`).
		AssertContains("ko/cka/storage/index.html", `<img src="../../../ja/cka/storage/volume.webp" alt="볼륨" width="300" height="2">`).
		AssertWarnings(jaSched + `:16:19: warning: image "/img/site.png" has no alt text: say what it shows, for readers who cannot see it`)
	if got, want := s.File("ja/cka/03-scheduling/flow.png"), pngOf(t, 40, 30); got != want {
		t.Errorf("flow.png is not the file of the page folder")
	}
}

// TestSiteBundleFirstFigure: a figure before every markdown image is the
// page's first image, loaded eagerly, and the markdown image after it lazily.
func TestSiteBundleFirstFigure(t *testing.T) {
	bundles(t).Replace(jaSched, "最初の図：\n", "{{< figure src=\"anim.gif\" alt=\"前\" >}}\n\n最初の図：\n").Build().
		AssertContains("ja/cka/03-scheduling/index.html",
			`<img src="anim.gif" alt="前" width="5" height="5">`,
			`<img src="flow.png" alt="スケジューラーの流れ" width="40" height="30" loading="lazy" decoding="async">`)
}

// TestSiteBundleErrors: a missing image is an error at its position in
// the markdown, as is a relative image on a page that is no page folder;
// a folder holds one page; a file name that cannot be published is an
// error at its path.
func TestSiteBundleErrors(t *testing.T) {
	bundles(t).Remove("content/ja/cka/03-scheduling/img/node.jpg").
		BuildFails(jaSched+`:12:1: image "img/node.jpg" not found: no file content/ja/cka/03-scheduling/img/node.jpg`,
			koSched+`:12:1: image "img/node.jpg" not found: no file content/ko/cka/03-scheduling/img/node.jpg nor content/ja/cka/03-scheduling/img/node.jpg`)
	bundles(t).Replace(jaSched, `{{< figure src="anim.gif"`, `{{< figure src="anime.gif"`, "![ロゴ](logo.svg)", "![ロゴ](/img/logo.svg)").
		BuildFails(jaSched+`:14:12: image "anime.gif" not found: no file content/ja/cka/03-scheduling/anime.gif`,
			jaSched+`:16:1: image "/img/logo.svg" not found: no file static/img/logo.svg in the site or its theme`)
	bundles(t).WriteFile("content/ja/about.md", "---\ntitle: 概要\n---\n本文 ![図](x.png)\n").
		BuildFails(`content/ja/about.md:4:4: image "x.png" not found: only a page folder (content/ja/about/index.md) holds files beside its page; or put the image in static/ and write "/x.png"`)
	bundles(t).Append("content/ja/_index.md", "\n![ロゴ](logo.png)\n").
		BuildFails(`content/ja/_index.md:6:1: image "logo.png" not found: the files beside an _index.md are not published; put the image in static/ and write "/logo.png"`)
	bundles(t).WriteFile("content/ja/cka/03-scheduling/extra.md", "---\ntitle: 余分\n---\n").
		BuildFails("content/ja/cka/03-scheduling/extra.md: a page folder holds one page, index.md: this page is inside the folder of " + jaSched + "; move it beside that folder")
	bundles(t).WriteFile("content/ja/cka/03-scheduling/index.html", "<p>x</p>").
		BuildFails("content/ja/cka/03-scheduling/index.html: a page folder cannot hold index.html: the page " + jaSched + " is published there")
	bundles(t).WriteFile("content/ja/cka/03-scheduling/ bad.png", pngOf(t, 1, 1)).
		BuildFails(`content/ja/cka/03-scheduling/ bad.png: this file name cannot be published: " bad.png" starts or ends with a space`)
	bundles(t).WriteFile("content/ja/cka/03-scheduling/flow.png", "not a png").
		BuildFails(jaSched+`:8:1: image "flow.png" cannot be read: content/ja/cka/03-scheduling/flow.png: image: unknown format`,
			koSched+`:8:1: image "flow.png" cannot be read: content/ja/cka/03-scheduling/flow.png: image: unknown format`)
}

// TestSiteBundleIncremental: an edited image rebuilds the pages that show
// it, with its new size, as a fresh build would.
func TestSiteBundleIncremental(t *testing.T) {
	s := bundles(t).Build()
	s.WriteFile("content/ja/cka/03-scheduling/flow.png", pngOf(t, 80, 60)).Build().
		AssertChanged("ja/cka/03-scheduling/index.html", "ko/cka/03-scheduling/index.html", "ja/cka/03-scheduling/flow.png").
		AssertContains("ja/cka/03-scheduling/index.html", `<img src="flow.png" alt="スケジューラーの流れ" width="80" height="60">`).
		AssertContains("ko/cka/03-scheduling/index.html", `width="80" height="60">`).
		AssertFresh()
	s.WriteFile("static/img/site.png", pngOf(t, 24, 8)).Build().
		AssertContains("ja/cka/03-scheduling/index.html", `alt="" width="24" height="8"`).
		AssertFresh()
}

// TestSiteBundlesInExport: in an export the images keep their relative
// URLs, which file:// opens, and so do the theme's own (favicon.svg).
func TestSiteBundlesInExport(t *testing.T) {
	s := bundles(t, sitetest.WithOptions(func(o *build.Options) { o.ExplicitIndex = true })).Build()
	s.AssertContains("ko/cka/03-scheduling/index.html", `<img src="../../../ja/cka/03-scheduling/flow.png"`, `<img src="../../../img/site.png" alt="사이트"`,
		`<link rel="icon" href="../../../favicon.svg" type="image/svg+xml">`, `<img src="../../../favicon.svg" alt="" width="24" height="24">`).
		AssertExists("favicon.svg", "img/site.png", "ja/cka/03-scheduling/flow.png")
	if !strings.Contains(s.File("ja/cka/03-scheduling/index.html"), `<img src="flow.png"`) {
		t.Error("the export's image is not relative to the page")
	}
}
