package page

import (
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// dividerSummary is the summary that src's summary divider gives it, as
// Hugo makes it (markdown.Summary): the plain text before the first
// <!--more-->; "" without one. Each loaded page's is made once
// (source.Page.Summarized): listings ask for it on every page that lists
// the page, and every build for every page (Assembler.StructureFP).
func (a *Assembler) dividerSummary(src *source.Page) string {
	return src.Summarized(func(src *source.Page) string {
		s, _ := markdown.Summary(src.Src[min(max(src.BodyStart, 0), len(src.Src)):])
		return s
	})
}

// summarize gives a page of the source src its summary and description
// as Hugo does: the summary is its front matter's, else what comes before
// its summary divider, else its description; a page without a
// description has the summary its divider gives it.
func (a *Assembler) summarize(src *source.Page, summary, description *string) {
	div := a.dividerSummary(src)
	if *summary == "" {
		*summary = div
	}
	if *description == "" {
		*description = div
	}
	if *summary == "" {
		*summary = *description
	}
}
