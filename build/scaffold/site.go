package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// SiteOptions are the choices of a new site.
type SiteOptions struct {
	// Date is the day its pages are dated; the zero time is today.
	Date time.Time
	// Ignore are folders of the site, slash-separated, its .gitignore
	// leaves out of the repository besides the build's output and
	// kakehashi's cache: the default folders of the command's exports.
	Ignore []string
}

// PlanSite plans a bilingual starter site in the folder dir of fsys,
// which must be missing or empty: kakehashi.toml, a .gitignore, a series
// with part 1 published and part 2 planned, part 1 and a home page in
// Japanese and Korean. It builds as it is, the Korean pages marked up to
// date with the Japanese ones. A dir that names no folder, or one that
// is not empty, is refused with a UsageError.
func PlanSite(ctx context.Context, fsys afero.Fs, dir string, opts SiteOptions) (*Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(dir) == "" {
		return nil, refuse("the folder name %q is empty; name a new folder", dir)
	}
	switch info, err := fsys.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case !info.IsDir():
		return nil, refuse("%s exists and is not a folder", dir)
	default:
		entries, err := afero.ReadDir(fsys, dir)
		if err != nil {
			return nil, err
		}
		if len(entries) > 0 {
			return nil, refuse("%s is not empty; choose a new folder or an empty one", dir)
		}
	}
	date := day(opts.Date)
	layout := build.DefaultLayout()
	gitignore := "/" + layout.Output + "/\n"
	for _, d := range opts.Ignore {
		gitignore += "/" + d + "/\n"
	}
	gitignore += "/" + layout.Cache + "/\n"
	langs, files := starterSite(date, gitignore)
	// The pages in the other languages are translations of the first
	// language's, and up to date with them: the site starts with no stale
	// translation.
	plan := &Plan{site: dir}
	for _, l := range langs[1:] {
		for i, f := range files {
			rest, ok := strings.CutPrefix(f.Path, "content/"+l+"/")
			if !ok {
				continue
			}
			for _, o := range files {
				if o.Path == "content/"+langs[0]+"/"+rest {
					text, orig, err := markTranslation(o.Text, f.Text, date)
					if err != nil {
						return nil, fmt.Errorf("%s: %v", f.Path, err)
					}
					files[i].Text = text
					plan.originals = append(plan.originals, orig)
				}
			}
		}
	}
	for _, f := range files {
		plan.Files = append(plan.Files, File{filepath.Join(dir, filepath.FromSlash(f.Path)), f.Text})
	}
	return plan, nil
}

// day is t as a page's date, today's for the zero time.
func day(t time.Time) string {
	if t.IsZero() {
		t = time.Now()
	}
	return t.Format(time.DateOnly)
}

// markTranslation returns the page text tr marked as up to date on date
// with its original, the page text orig.
func markTranslation(orig, tr, date string) (string, marked, error) {
	pg, diags := source.ParsePage("", []byte(orig))
	if err := diags.Err(); err != nil || pg == nil {
		return "", marked{}, fmt.Errorf("its original does not parse: %v", diags)
	}
	h := translation.Hash(pg)
	out, err := translation.Mark([]byte(tr), date, h)
	if err != nil {
		return "", marked{}, err
	}
	return string(out), marked{h, []byte(orig)}, nil
}

// starterSite is the bilingual starter: its languages, the original's
// first, as its kakehashi.toml lists them, and its files, their paths
// slash-separated under the site folder. date is the pages' date,
// gitignore the text of its .gitignore.
func starterSite(date, gitignore string) (langs []string, files []File) {
	return []string{"ja", "ko"}, []File{
		{"kakehashi.toml", `# The site's configuration. Command-line flags override it.

# The absolute URL the site is published under, used by canonical links,
# hreflang alternates, the sitemap and robots.txt. Set it to your own
# before publishing:
# baseURL = "https://example.org/"

# The site's languages; the first is the original of the translations.
languages = ["ja", "ko"]
theme = "default"

[title]
ja = "私のコース"
ko = "나의 코스"

[description]
ja = "日本語と韓国語で読める技術コースです。"
ko = "일본어와 한국어로 읽을 수 있는 기술 코스입니다."
`},
		{".gitignore", gitignore},
		{"content/series/course.yaml", `# The series: every part by number, its title in each language, and its
# state: published (its pages exist) or planned (shown as coming soon).
# "kakehashi new part course 2 next-step" publishes part 2.
id: course
title:
  ja: "はじめてのコース"
  ko: "첫 번째 코스"
description:
  ja: "kakehashi で作ったコースの見本です。記事を足して、自分のコースに育ててください。"
  ko: "kakehashi로 만든 코스의 견본입니다. 글을 더해 나만의 코스로 키워 보세요."
parts:
  - number: 1
    title: { ja: "はじめに", ko: "시작하며" }
    state: published
  - number: 2
    title: { ja: "次の一歩", ko: "다음 걸음" }
    state: planned
`},
		{"content/ja/_index.md", `---
title: "私のコース"
description: "日本語と韓国語で読める技術コースです。"
---

ようこそ。このサイトの記事は、すべて日本語と韓国語で読めます。ページ上部の言語切り替えから、同じ記事のもう一方の言語版に移動できます。
`},
		{"content/ko/_index.md", `---
title: "나의 코스"
description: "일본어와 한국어로 읽을 수 있는 기술 코스입니다."
---

환영합니다. 이 사이트의 모든 글은 일본어와 한국어로 읽을 수 있습니다. 페이지 위쪽의 언어 전환에서 같은 글의 다른 언어판으로 이동할 수 있습니다.
`},
		{"content/ja/course/01-intro.md", `---
title: "はじめに"
description: "このコースの進め方と、記事の書き方を紹介します。"
series: course
part: 1
date: ` + date + `
---

このコースへようこそ。この記事は ` + "`content/ja/course/01-intro.md`" + ` にあり、韓国語版は同じパスの ` + "`content/ko/course/01-intro.md`" + ` です。

## 記事を書く

記事は Markdown で書きます。コードブロックはハイライトされ、コマンドだけをコピーするボタンが付きます。

` + "```console\n$ kakehashi serve\n```" + `

次回は #2 で扱います。まだ準備中なので、リンクの代わりに「準備中」の印が表示されます。
`},
		{"content/ko/course/01-intro.md", `---
title: "시작하며"
description: "이 코스의 진행 방식과 글 쓰는 법을 소개합니다."
series: course
part: 1
date: ` + date + `
---

이 코스에 오신 것을 환영합니다. 이 글은 ` + "`content/ko/course/01-intro.md`" + `에 있고, 일본어판은 같은 경로의 ` + "`content/ja/course/01-intro.md`" + `입니다.

## 글 쓰기

글은 Markdown으로 씁니다. 코드 블록은 하이라이트되고, 명령어만 복사하는 버튼이 붙습니다.

` + "```console\n$ kakehashi serve\n```" + `

다음 내용은 #2에서 다룹니다. 아직 준비 중이라 링크 대신 '준비 중' 표시가 나타납니다.
`},
	}
}
