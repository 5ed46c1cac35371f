package search

import (
	"runtime"
	"sync"
)

// Feed tokenizes pages for the indexes while the build is still rendering
// others, on goroutines of its own that take up the time the render
// workers spend waiting for the disk; it keeps each page's terms, never
// its text. A cold build, which will surely write every index, uses one;
// a build that may reuse them takes the terms of the pages that did not
// change from its caches instead.
type Feed struct {
	ix   Indexer
	docs chan Doc
	wg   sync.WaitGroup
	once sync.Once
}

// NewFeed starts a Feed, one tokenizing goroutine per processor. It must
// be ended with Done.
func NewFeed() *Feed {
	f := &Feed{docs: make(chan Doc, 64)}
	for range runtime.GOMAXPROCS(0) {
		f.wg.Go(func() {
			for d := range f.docs {
				f.ix.Add(d)
			}
		})
	}
	return f
}

// Add queues a page; on a nil Feed it does nothing.
func (f *Feed) Add(d Doc) {
	if f != nil {
		f.docs <- d
	}
}

// Terms returns the terms of the page of lang at url, once every queued
// page is tokenized (Done); a nil Feed has none.
func (f *Feed) Terms(lang, url string) (Terms, bool) {
	if f == nil {
		return Terms{}, false
	}
	return f.Done().Terms(lang, url)
}

// Done waits for every queued page and returns the Indexer holding them,
// or nil for a nil Feed. It may be called more than once, from any
// goroutine; Add must not be called after it.
func (f *Feed) Done() *Indexer {
	if f == nil {
		return nil
	}
	f.once.Do(func() {
		close(f.docs)
		f.wg.Wait()
	})
	return &f.ix
}
