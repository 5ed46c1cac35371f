package search

// Index builds lang's index: from the pages the Feed tokenized while they
// rendered, or, on a nil Feed, from docs, tokenized now (docs is called
// only then). It waits for the Feed (Done), and may be called for each
// language, at once.
func (f *Feed) Index(lang string, docs func() []Doc, opts Options) []byte {
	ix := f.Done()
	if ix == nil {
		ix = &Indexer{}
		ix.AddAll(docs())
	}
	idx, _ := ix.Build(lang, opts)
	return idx
}
