package cache

import (
	"context"
	"fmt"
	"sync"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// Dir is a site's persistent cache as the builds of one Builder use it:
// the folder Path on FS. It keeps the store of the parsed content open
// between builds, and saves it on a goroutine of its own.
type Dir struct {
	FS   afero.Fs
	Path string
	// Version is the program's version, which names the content store
	// when the binary has no build ID (Program).
	Version string

	content *Store
	saving  sync.WaitGroup
}

// contentName names the store of the parsed content: by the program that
// parsed it, which decides what a file parses to.
func (d *Dir) contentName() string {
	return fmt.Sprintf("content-%016x", Program(d.Version))
}

// Content is the store of the parsed content, opened on the first call;
// opened is true on that call only, for the caller to hand it to the
// loader once (source.Loader.Persist).
func (d *Dir) Content() (s *Store, opened bool) {
	if d.content != nil {
		return d.content, false
	}
	d.content = OpenStore(d.FS, d.Path, d.contentName())
	return d.content, true
}

// SaveContent saves the content store, when open, as keep and each say
// (Store.SaveWith), and removes the content stores of other programs, on
// a goroutine of its own: it is written while the output is committed and
// the rest of the cache saved. Wait waits for it.
func (d *Dir) SaveContent(keep func(key string) bool, each func(put func(key string, value []byte))) {
	if d.content == nil {
		return
	}
	d.saving.Go(func() {
		d.content.SaveWith(keep, each)
		RemoveStores(d.FS, d.Path, "content-", d.contentName())
	})
}

// Wait waits for the last SaveContent to be over.
func (d *Dir) Wait() { d.saving.Wait() }

// Hint is what the last build kept of the destination dest's listing
// (ReadHint).
func (d *Dir) Hint(dest string) *output.Hint { return ReadHint(d.FS, d.Path, dest) }

// Stamps are the site's inputs and the destination's files as they stood
// when a build began; nil maps when they could not be taken.
type Stamps struct{ In, Out map[string]Stamp }

// Unchanged stamps the site's inputs under roots of in (StampTree) and
// takes the destination's listing from stage. When both are exactly as
// the last build with the cache key key left them (Manifest.Same), it
// returns that build's manifest, and stage is kept from replacing the
// destination. Else the manifest is nil, and the stamps are for
// KeepManifest; nil stamps when they cannot be taken.
func (d *Dir) Unchanged(ctx context.Context, in afero.Fs, roots []string, stage *output.Staging, key uint64) (Stamps, *Manifest) {
	inStamps, err := StampTree(ctx, in, roots...)
	if err != nil {
		return Stamps{}, nil
	}
	out, err := stage.Listing()
	if err != nil {
		return Stamps{}, nil
	}
	s := Stamps{inStamps, out}
	m, ok := ReadManifest(d.FS, d.Path, key)
	if !ok || !m.Same(inStamps, out) {
		return s, nil
	}
	stage.Keep()
	return s, m
}

// KeepManifest leaves for the next build (of the cache key key) the
// stamps s of its inputs, taken before they were read, of the output
// folder as this build leaves it (stage), and its summary. A build that
// changed nothing (unchanged) keeps the destination as it is, unless it
// holds a file the build did not make (c.Extra), which the new output
// then drops: the result says whether the build is still unchanged. With
// stampless, the build's inputs were not all stamped (calculators
// compiled from sources outside the site): it leaves no manifest.
func (d *Dir) KeepManifest(key uint64, s Stamps, c *Cache, stage *output.Staging, unchanged bool, sum Summary, stampless bool) bool {
	if unchanged && s.Out != nil && c.Extra(s.Out, output.MarkerName) {
		unchanged = false
	}
	if unchanged {
		stage.Keep()
	} else {
		RemoveManifest(d.FS, d.Path, key) // the output is about to change
	}
	if s.In == nil || stampless {
		return unchanged
	}
	m := &Manifest{In: s.In, Summary: sum}
	if unchanged && s.Out != nil {
		m.Out = s.Out // the destination stays as it was stamped
		WriteManifest(d.FS, d.Path, key, m)
		return unchanged
	}
	stage.AfterCommit(func() {
		if out := stage.Files(); out != nil {
			m.Out = out
			WriteManifest(d.FS, d.Path, key, m)
		}
	})
	return unchanged
}

// KeepAfterCommit saves c with the files of stage once it is committed,
// with the listing hint of its folders for the next build (WriteHint).
func (d *Dir) KeepAfterCommit(c *Cache, stage *output.Staging) {
	stage.AfterCommit(func() {
		files := stage.Files()
		c.Save(files)
		var hint *output.Hint
		if dirs, taken := stage.Folders(); dirs != nil {
			hint = &output.Hint{Files: files, Dirs: dirs, Taken: taken}
		}
		WriteHint(d.FS, d.Path, stage.Dest(), hint)
	})
}
