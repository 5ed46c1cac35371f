// Package scaffold makes new sites and new parts: PlanSite a bilingual
// starter site in a new folder, PlanPart a new part of a series, its page
// in every language of the site and its entry in the series file.
//
// It is not a stage of the pipeline (load → resolve → markdown → assemble
// → template → write): it writes an author's source files, not a build's
// output. It writes them all or nothing. A Plan is worked out and checked
// whole before anything is written; Write creates its files, never
// replacing one that exists, and edits the series file line by line
// (source.InsertPart, source.PublishPart) only if it is as it was read;
// and when a write fails, it takes back what it wrote.
package scaffold

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// UsageError is a refusal caused by what was asked or by the state of the
// site, which the author can mend (the command exits 2), not a failure to
// read or write.
type UsageError struct{ msg string }

func (e UsageError) Error() string { return e.msg }

// refuse is a UsageError saying format's text.
func refuse(format string, args ...any) error {
	return UsageError{fmt.Sprintf(format, args...)}
}

// ErrExists is the error (under errors.Is) of a Write that stopped at a
// file that is already there, made since it was planned; nothing was
// written then.
var ErrExists = errors.New("already exists")

// Plan is what a new site or a new part writes, worked out and checked
// before anything is written.
type Plan struct {
	// Files are the files Write creates, in that order, each path on the
	// filesystem written to (under the site folder as it was given).
	Files []File
	// Series is the series file Write edits, on the same filesystem; ""
	// for a new site.
	Series string
	// WasPlanned is true when the series listed the part as planned:
	// Write publishes it, keeping its titles, where it adds it otherwise.
	WasPlanned bool

	site       string // the site folder
	seriesWas  []byte // the series file as read
	seriesText []byte // the series file as it is to be written
	// originals are the pages the plan's translations were marked up to
	// date with, for the store of marked originals.
	originals []marked
}

// File is one file a plan creates.
type File struct {
	Path string
	Text string
}

// marked is an original a new translation was marked up to date with.
type marked struct {
	hash string
	text []byte
}

// Write creates the plan's files, then edits the series file: all of
// them or, when one fails (a full disk, a file that appeared meanwhile,
// a series file edited since it was read), none, what was written so far
// undone; the error then says so.
func (p *Plan) Write(fsys afero.Fs) error {
	w := &fileSet{fs: fsys}
	for _, f := range p.Files {
		if err := w.create(f.Path, []byte(f.Text)); err != nil {
			return w.undo(err)
		}
	}
	if p.Series != "" {
		if err := w.replace(p.Series, p.seriesWas, p.seriesText); err != nil {
			return w.undo(err)
		}
	}
	return nil
}

// KeepOriginals keeps a copy of the originals the plan's translations
// were marked up to date with in the site's store of marked originals
// (.kakehashi-cache/originals), for the side-by-side view. It is a cache:
// an error is worth a warning, and what Write wrote stands.
func (p *Plan) KeepOriginals(fsys afero.Fs) error {
	store := translation.Store{Fs: fsys, Dir: filepath.ToSlash(filepath.Join(p.site, filepath.FromSlash(build.DefaultLayout().Cache), translation.StoreDir))}
	for _, o := range p.originals {
		if err := store.Save(o.hash, o.text); err != nil {
			return fmt.Errorf("keeping a copy of an original in %s: %w", store.Dir, err)
		}
	}
	return nil
}
