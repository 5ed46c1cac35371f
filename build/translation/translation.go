// Package translation knows which translations of a site have fallen
// behind their originals. It needs no git: a translation records, in its
// own front matter, which version of its original it was made from, in a
// line an author can read and resolve a merge conflict in:
//
//	translated: 2026-12-01 3f2a1c9e7b0d
//
// (translated = "2026-12-01 3f2a1c9e7b0d" in TOML front matter): the
// author's local date it was marked up to date, and Hash of the original
// then. A translation whose original's hash is still the recorded one is
// Current; one whose original changed since is Stale; one without the
// field is Unmarked. "kakehashi translations mark" writes the line (Mark).
//
// # What is hashed
//
// Hash covers the original's translatable content only: its front
// matter's title, description and summary, and its markdown body, in that
// order. Its date, tags, series, slug and every other field, and how the
// front matter is written (YAML or TOML, quoting, order, comments), are
// not hashed. Each of the four texts is normalised so that re-saving the
// file in another editor changes nothing:
//
//   - Unicode NFC (the loader applies it already);
//   - line ends LF ("\r\n" and a lone "\r" become "\n");
//   - each line's trailing white space (unicode.IsSpace, which includes
//     U+3000 and no-break spaces) removed;
//   - blank lines at the start and at the end dropped.
//
// The hashed bytes are, for each text in turn, its normalised length in
// bytes in decimal, a ":", the normalised text and a "\n" (a netstring-like
// framing, so that no text can run into the next). The hash is the first
// 12 lowercase hex digits of their SHA-256.
//
// # Pairs
//
// Pages pair by their path under the language folder
// (content/ja/cka/05-ha-cluster.md ↔ content/ko/cka/05-ha-cluster.md; a
// page folder's index.md pairs with a file of the folder's name). The
// original is the page in the site's first language, unless the
// translations say "translationOf: ko": then it is the page in that
// language. Pairs checks translationOf against the site's languages.
//
// # Marked originals
//
// So that an author can see what changed in the original since the
// translation was marked, marking also keeps a copy of the original's file
// as it was then, named by its hash, under the site's cache folder
// (Store). The cache is not part of the repository: a fresh clone has no
// copies, and the side-by-side view then says only that the translation
// is stale and that the original's history is in git.
//
// # The translations commands
//
// "kakehashi translations status" and "kakehashi translations mark" are
// this package's: LoadSite reads a site's configuration and pages as the
// build's load stage does, with the site's languages as build/config
// works them out, and pairs them; Site.Status lists how every pair
// stands; Site.PairOf and Site.Select find the pairs the command line's
// paths name, or say why a path cannot be marked; Site.Mark marks one,
// on the day of a clock the caller passes.
package translation

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Hash is the hash of p's translatable content (see the package doc):
// source.HashLen lowercase hex digits. It is computed once per loaded
// page (source.Page.Hashed).
func Hash(p *source.Page) string { return p.Hashed(hash) }

func hash(p *source.Page) string {
	h := sha256.New()
	for _, s := range []string{p.Meta.Title, p.Meta.Description, p.Meta.Summary, string(p.Body())} {
		s = Normalize(s)
		h.Write([]byte(strconv.Itoa(len(s)) + ":" + s + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))[:source.HashLen]
}

// Normalize is s as Hash sees it: NFC, LF line ends, no trailing white
// space on any line, no blank line at its start or end.
func Normalize(s string) string {
	s = norm.NFC.String(s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// State is how a translation stands against its original.
type State int

const (
	// Current: the original's hash is the one the translation records.
	Current State = iota
	// Stale: the original changed since the translation was marked.
	Stale
	// Unmarked: the translation has no "translated:" field.
	Unmarked
)

func (s State) String() string {
	switch s {
	case Current:
		return "current"
	case Stale:
		return "stale"
	case Unmarked:
		return "unmarked"
	}
	return "State(" + strconv.Itoa(int(s)) + ")"
}

// PairStatus is how one translation stands against its original.
type PairStatus struct {
	State State
	// Marked is the translation's "translated:" field; zero when
	// Unmarked.
	Marked source.Translated
	// Hash is the original's hash now (what marking would record).
	Hash string
	// Updated is when the original was last updated: its lastmod when
	// set and not before the day the translation was marked, else its
	// file's modification time (zero for a page not read from a file).
	// On a fresh clone the modification time is the checkout's.
	Updated time.Time
	// Original is the original's path ("content/ja/cka/05-ha-cluster.md").
	Original string
}

// Status compares the translation tr with its original orig.
func Status(orig, tr *source.Page) PairStatus {
	st := PairStatus{Marked: tr.Meta.Translated, Hash: Hash(orig), Original: orig.Path}
	st.Updated = orig.ModTime
	if lm := orig.Meta.Lastmod; !lm.IsZero() && (st.Marked.IsZero() || !lm.Before(st.Marked.Date)) {
		st.Updated = lm
	}
	switch {
	case st.Marked.IsZero():
		st.State = Unmarked
	case st.Marked.Hash == st.Hash:
		st.State = Current
	default:
		st.State = Stale
	}
	return st
}

// String says the status as "kakehashi translations status" does:
// "current", "stale since 2026-11-28 (marked 2026-11-02)", "unmarked".
func (s PairStatus) String() string {
	switch s.State {
	case Stale:
		if s.Updated.IsZero() {
			return "stale (marked " + s.Marked.Date.Format(time.DateOnly) + ")"
		}
		return "stale since " + s.Updated.Format(time.DateOnly) + " (marked " + s.Marked.Date.Format(time.DateOnly) + ")"
	}
	return s.State.String()
}
