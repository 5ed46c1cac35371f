package sitetest

import (
	"os"
	"path/filepath"
	"testing"
)

// LargeMark is written at the middle of each of LargeFiles' files, so
// that a copy that drops or moves a piece shows.
const LargeMark = "kakehashi"

// LargeFilePaths are the files LargeFiles makes large: one beside a page,
// one in static/.
var LargeFilePaths = []string{"content/ja/cka/01-intro/movie.mp4", "static/docs/slides.pdf"}

// LargeFiles is a one-part site on disk whose page folder holds a file of
// size bytes and whose static/ holds another (LargeFilePaths), both
// sparse, taking no room on the disk, with LargeMark at size/2 when it
// fits twice.
func LargeFiles(t testing.TB, size int64, opts ...Option) *Site {
	t.Helper()
	s := New(t, `
-- content/series/cka.yaml --
id: cka
title: {ja: CKA, ko: CKA}
parts:
  - number: 1
    title: {ja: はじめに, ko: 소개}
    state: published
-- content/ja/cka/01-intro/index.md --
---
title: はじめに
series: cka
part: 1
---
動画は [こちら](movie.mp4)、資料は [こちら](/docs/slides.pdf)。
-- content/ko/cka/01-intro/index.md --
---
title: 소개
series: cka
part: 1
---
본문입니다.
-- static/docs/slides.pdf --
%PDF
`, append([]Option{OnDisk()}, opts...)...)
	for _, p := range LargeFilePaths {
		f, err := os.OpenFile(filepath.Join(s.Root(), filepath.FromSlash(p)), os.O_WRONLY|os.O_CREATE, 0o644)
		if err == nil {
			err = f.Truncate(size)
		}
		if err == nil && size >= 2*int64(len(LargeMark)) {
			_, err = f.WriteAt([]byte(LargeMark), size/2)
		}
		if err == nil {
			err = f.Close()
		} else {
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}
