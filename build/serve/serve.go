// Package serve is kakehashi's authoring server: it builds a site into
// memory, serves it on 127.0.0.1, watches the folders the site's layout
// names (content/, themes/ and i18n/ by default) and kakehashi.toml for
// saves, rebuilds incrementally, and tells the browser over Server-Sent
// Events to reload, to swap a stylesheet, or to show the build's errors
// in an overlay. An event is sent only after the rebuilt site is complete
// and being served. It never serves a byte that is not part of the built site,
// and serves it only to requests naming its own address and to its own
// pages (access.go). Beside the site it serves the translator's view,
// /_pair/ (pair.go), whose "mark as translated" is the one write the
// server makes into the site folder: what "kakehashi translations mark"
// writes (pairmark.go).
package serve

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"errors"
	"fmt"
	"io"

	"net"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/serve/watch"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// builder builds the site; *build.Builder is one.
type builder interface {
	Build(ctx context.Context) (*build.Result, error)
}

var _ builder = (*build.Builder)(nil)

// invalidator is a builder that rebuilds incrementally: it is told which
// input paths changed before the next Build.
type invalidator interface {
	Invalidate(paths ...string)
}

// completer is a builder told that the paths invalidated are every
// change (build.Builder.Complete).
type completer interface{ Complete() }

// Options configure a Server.
type Options struct {
	// Root is the site folder holding content/, themes/ and i18n/ (or
	// the folders Build names instead).
	Root string
	// Build configures the builder; BaseURL defaults to the baseURL of
	// kakehashi.toml, else "/".
	Build build.Options
	// Log receives what the terminal shows: rebuilds and their errors.
	// Default io.Discard.
	Log io.Writer
	// Watch tunes the watcher; the folders it watches are those Build
	// names.
	Watch watch.Options
	// Heartbeat is the interval of keep-alive comments on event streams;
	// default 15 s.
	Heartbeat time.Duration
	// Builder, when set, replaces the builder made from Root and Build
	// (tests count or slow down builds with it); *build.Builder is one.
	Builder interface {
		Build(ctx context.Context) (*build.Result, error)
	}
	// AllowedHosts are the names a request may give in its Host header
	// (and a page in its Origin) besides 127.0.0.1, localhost, [::1] and
	// the address the server was reached at: this machine's names on a
	// LAN. Each is a host name or an IP address without port
	// (CheckAllowedHost); case does not matter. Any other name gets 403,
	// so that a page of another site cannot read this one by making its
	// own name resolve to this machine (DNS rebinding).
	AllowedHosts []string
	// Timeouts bound what Run lets a connection take; zero fields get
	// their defaults.
	Timeouts Timeouts
}

// Server is the authoring server. It is an http.Handler.
type Server struct {
	opts     Options
	in       afero.Fs
	builder  builder
	hub      *hub
	liveFile *file          // the live-reload script
	hosts    hosts          // the names requests may give
	loader   *source.Loader // the content, for /_pair/, under buildMu

	buildMu sync.Mutex // one build at a time
	// pairsLoading is the last build's reading of the content for
	// /_pair/ (loadPairs), done beside the reload it sends.
	pairsLoading sync.WaitGroup
	n            int // builds done, under buildMu
	// pairsDirty: the content changed since the translations for
	// /_pair/ were last read (under buildMu).
	pairsDirty bool
	// pairStrings are the UI strings the pair view speaks, read again
	// when stringsDirty: they changed since (under buildMu).
	pairStrings  *i18n.Bundle
	stringsDirty bool
	// watchTrouble: the watcher reported an error since the last build,
	// so the paths it names may not be every change.
	watchTrouble atomic.Bool
	// warned are the warnings printed so far: a rebuild prints only the
	// new ones.
	warned map[printed]bool
	id     string // this server's instance, in versions
	cur    atomic.Pointer[state]
	// token is in the pair view's forms: a page of another site cannot
	// read it, so a request carrying it comes from the server's own
	// pages (serveMark).
	token  string
	markMu sync.Mutex // one mark at a time
	disk   afero.Fs   // where a mark writes: the OS's disk, at Root
}

var _ http.Handler = (*Server)(nil)

// state is what is being served: the last good build, and the errors of
// the last build when it failed.
type state struct {
	site    *snapshot
	version string
	errs    diag.List
	langs   []string      // the site's languages, in order
	match   *i18n.Matcher // picks one of langs for "/"
	// untranslated are the URLs of the pages that say an article is not
	// translated into their language yet.
	untranslated map[string]bool
	// assets are the build's fingerprinted files (build.Result.Assets);
	// hashed holds their hashed names as site paths without the leading
	// slash, the files served with a long cache.
	assets render.Assets
	hashed map[string]bool
	// pairs is what /_pair/ tells of the translations, from the content
	// as it was at the last good build, made when first asked for.
	pairs *pairsLater
}

// New makes a server for the site folder opts.Root and runs the first
// build. A build that fails is not an error here: the server starts and
// shows the build's errors. New fails only when the site folder cannot be
// read.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Root == "" {
		opts.Root = "."
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 15 * time.Second
	}
	opts.Timeouts.defaults()
	for _, h := range opts.AllowedHosts {
		if err := CheckAllowedHost(h); err != nil {
			return nil, fmt.Errorf("allowed host: %w", err)
		}
	}
	in, err := source.SiteFS(opts.Root)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, in: in, hub: newHub(), id: strconv.FormatInt(time.Now().UnixNano(), 36),
		liveFile: newFile("live.js", liveJS), hosts: newHosts(opts.AllowedHosts), loader: source.NewLoader(),
		token: rand.Text(), disk: afero.NewOsFs()}
	s.builder = opts.Builder
	if s.builder == nil {
		// Readers get an edit without waiting for the search index; it
		// is made when someone searches.
		bo := opts.Build
		bo.LazySearch = true
		bo.PairView = PairView // the translation notices link to it
		b, err := build.New(in, bo)
		if err != nil {
			return nil, err
		}
		s.builder = b
	}
	s.cur.Store(&state{})
	s.Rebuild(ctx, nil)
	return s, nil
}

// Rebuild tells the builder which input paths (slash-separated, relative
// to the site root) changed, builds, swaps the new site in, and only then
// tells the browsers: "css" when only stylesheets changed, "reload" when
// anything else did or an error was cleared, "error" when the build failed
// (the last good site stays served). It returns the build's error.
func (s *Server) Rebuild(ctx context.Context, paths []string) error {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	s.pairsLoading.Wait() // the last build's reading for /_pair/ is done with s.loader
	start := time.Now()
	// The watcher names every change, unless it reported trouble (an
	// overflow of events) since the last build: then the content is
	// walked again.
	complete := len(paths) > 0 && !s.watchTrouble.Swap(false)
	if inv, ok := s.builder.(invalidator); ok && len(paths) > 0 {
		inv.Invalidate(paths...)
		if c, ok := s.builder.(completer); ok && complete {
			c.Complete()
		}
	}
	if s.contentChanged(paths) {
		s.pairsDirty = true
		for _, p := range paths {
			s.loader.Invalidate(path.Clean(p))
		}
		if complete {
			s.loader.Complete()
		}
	}
	if s.stringsChanged(paths) {
		s.pairsDirty, s.stringsDirty = true, true // the pair view speaks them
	}
	res, err := s.builder.Build(ctx)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	s.n++
	old := s.cur.Load()
	version := s.id + "." + strconv.Itoa(s.n)
	if err != nil {
		errs := diag.FromError(err)
		errs.Sort()
		next := *old
		next.errs, next.version = errs, version
		s.withLangs(ctx, &next, nil)
		s.cur.Store(&next)
		ev := event{Name: "error", Version: version, Errors: errs}
		s.hub.publish(ev, ev)
		s.logErrors(errs)
		return err
	}
	var snap *snapshot
	var ch changes
	if _, ok := s.builder.(*build.Builder); ok && old.site != nil {
		// Every successful build is served: the builder's changes are
		// the snapshot's.
		snap, ch = old.site.next(res.Site, res.Changed, res.Removed)
	} else {
		snap, ch = newSnapshot(res.Site, old.site)
	}
	next := &state{site: snap, version: version, langs: old.langs, match: old.match, untranslated: map[string]bool{},
		assets: res.Assets, hashed: map[string]bool{}}
	for _, h := range res.Assets {
		next.hashed[strings.TrimPrefix(h, "/")] = true
	}
	for _, p := range res.Pages {
		if p.Kind == render.KindUntranslated {
			next.untranslated[p.URL] = true
		}
	}
	s.withLangs(ctx, next, res.Langs)
	next.pairs = old.pairs
	if langsChanged := !slices.Equal(next.langs, old.langs); s.pairsDirty || old.pairs == nil || langsChanged {
		if s.stringsDirty || langsChanged {
			s.pairStrings, s.stringsDirty = s.loadStrings(ctx, next.langs), false
		}
		next.pairs, s.pairsDirty = s.loadPairs(ctx, next.langs, s.pairStrings), false
	}
	s.cur.Store(next)
	ok := event{Name: "ok", Version: version}
	var ev event
	swap, cssOnly := cssSwap(old, next, ch)
	switch {
	case len(old.errs) > 0 || (old.site != nil && !ch.Empty() && !cssOnly):
		ev = event{Name: "reload", Version: version}
	case old.site != nil && cssOnly:
		ev = event{Name: "css", Version: version, Swap: swap}
		for _, p := range ch.Changed {
			if path.Ext(p) == ".css" {
				ev.Paths = append(ev.Paths, "/"+p)
			}
		}
	}
	s.hub.publish(ok, ev)
	s.logWarnings(res.Summary.Warnings)
	if old.site == nil {
		fmt.Fprintf(s.opts.Log, "built %d files in %s\n", len(snap.files), time.Since(start).Round(time.Millisecond))
	} else {
		fmt.Fprintf(s.opts.Log, "rebuilt in %s: %d changed, %d removed\n",
			time.Since(start).Round(time.Millisecond), len(ch.Changed), len(ch.Removed))
	}
	return nil
}

// Errors returns the errors of the last build, nil when it succeeded.
func (s *Server) Errors() diag.List { return s.cur.Load().errs }

// Version identifies the build being served, as events carry it.
func (s *Server) Version() string { return s.cur.Load().version }

// Watch starts watching the site folder, rebuilding after each burst of
// saves. It returns once the watches are in place; the returned channel is
// closed when ctx is done and the watcher has stopped. Run calls it; tests
// serving through httptest call it themselves.
func (s *Server) Watch(ctx context.Context) (<-chan struct{}, error) {
	wopts := s.opts.Watch
	onError := wopts.OnError
	if onError == nil {
		onError = func(err error) { fmt.Fprintf(s.opts.Log, "watch: %v\n", err) }
	}
	wopts.OnError = func(err error) {
		s.watchTrouble.Store(true) // a change may have gone unreported
		onError(err)
	}
	w, err := watch.New(s.opts.Root, s.opts.Build.Layout, wopts)
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx, func(paths []string) { s.Rebuild(ctx, paths) })
		s.pairsLoading.Wait()
	}()
	return done, nil
}

// Run serves on ln and rebuilds on every save until ctx is done, then
// shuts down: it closes the event streams, stops the watcher and waits
// for requests in flight. The watcher is in place before the first
// request is answered.
func (s *Server) Run(ctx context.Context, ln net.Listener) error {
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	watching, err := s.Watch(wctx)
	if err != nil {
		ln.Close()
		return err
	}
	t := s.opts.Timeouts
	srv := &http.Server{Handler: s, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
	// Connections opened but not yet used (browsers open them ahead) count
	// as busy for Shutdown during 5 s; they are closed at once instead.
	var connMu sync.Mutex
	fresh := map[net.Conn]bool{}
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		connMu.Lock()
		defer connMu.Unlock()
		if st == http.StateNew {
			fresh[c] = true
		} else {
			delete(fresh, c)
		}
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()

	var err2 error
	select {
	case <-ctx.Done():
	case err2 = <-serveErr:
	}
	s.hub.close()
	stopWatch()
	<-watching
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(sctx) }()
	connMu.Lock()
	for c := range fresh {
		c.Close()
	}
	connMu.Unlock()
	if err := <-shut; err != nil {
		srv.Close() // requests still running after the grace period
	}
	if err2 == nil {
		err2 = <-serveErr
	}
	if errors.Is(err2, http.ErrServerClosed) {
		err2 = nil
	}
	return err2
}

// Close ends the event streams; a Server used as a plain handler (in
// tests) calls it when done.
func (s *Server) Close() { s.hub.close() }

// ServeHTTP serves the built site, the live-reload script and event
// stream, the language redirect of "/", the translator's view (/_pair/)
// and its "mark as translated" (a POST to /_kakehashi/mark), to
// requests naming one of the server's hosts (403 otherwise). Every
// response may be read by the server's own pages only
// (Cross-Origin-Resource-Policy), as the type it says (nosniff): a page of
// another site cannot take the search index's text as a script.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("X-Content-Type-Options", "nosniff")
	if !s.checkHost(w, r) {
		return
	}
	if r.Method == http.MethodPost && r.URL.Path == markPath {
		s.serveMark(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if !s.checkOrigin(w, r) {
			return
		}
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, slash, err := cleanPath(r.URL.Path, r.URL.EscapedPath())
	if err != nil {
		http.Error(w, "bad request path", http.StatusBadRequest)
		return
	}
	st := s.cur.Load()
	switch {
	case name == "_kakehashi/events":
		// Build errors quote the sources: for the server's own pages only.
		if s.checkOrigin(w, r) {
			s.hub.serveEvents(w, r, s.opts.Heartbeat, s.opts.Timeouts.Write)
		}
		return
	case name == "_kakehashi/live.js":
		s.serveLiveJS(w, r, st)
		return
	case name == "_pair" || strings.HasPrefix(name, "_pair/"):
		s.servePair(w, r, st, strings.TrimPrefix(strings.TrimPrefix(name, "_pair"), "/"))
		return
	case name == "" && r.URL.RawQuery == "" && len(st.langs) > 0:
		// The site's first language, unless the reader asks for another
		// of its languages.
		lang := rootLang(st, r.Header.Get("Accept-Language"))
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Vary", "Accept-Language")
		http.Redirect(w, r, "/"+lang+"/", http.StatusFound)
		return
	}
	if st.site == nil {
		s.serveNoBuild(w, r, st)
		return
	}
	f, redirect := st.site.lookup(name, slash)
	if redirect {
		http.Redirect(w, r, "/"+name+"/", http.StatusMovedPermanently)
		return
	}
	if f == nil {
		if nf := st.site.files["404.html"]; nf != nil {
			s.serveFile(w, r, nf, http.StatusNotFound, false)
			return
		}
		http.NotFound(w, r)
		return
	}
	s.serveFile(w, r, f, http.StatusOK, st.hashed[name])
}

// serveFile writes f with its content type, ETag (304 when it matches),
// Cache-Control, and gzip when the client accepts it. A file under a
// hashed name (immutable) never changes, so it may be kept a year
// without asking again (cacheImmutable); every other file, HTML first,
// is revalidated on each use (no-cache). A file read from the site's own
// is streamed from there, never held (serveSource).
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, f *file, status int, immutable bool) {
	body, etag := f.Body()
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	if immutable && status == http.StatusOK {
		h.Set("Cache-Control", cacheImmutable)
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if f.source() {
		serveSource(w, r, f, etag, status)
		return
	}
	h.Add("Vary", "Accept-Encoding")
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		if gz := f.Gzip(); gz != nil {
			body = gz
			etag = strings.TrimSuffix(etag, `"`) + `-gz"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	if status == http.StatusOK && etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// cacheImmutable is the Cache-Control of a file under a hashed name.
const cacheImmutable = "public, max-age=31536000, immutable"

// cssSwap tells whether the change from old to next is only stylesheets,
// which the browsers swap in place without reloading: stylesheets with
// new bytes under the same name, or fingerprinted stylesheets under new
// hashed names, with the pages changed only in naming them. swap maps
// each old hashed name to its new one, site-absolute.
func cssSwap(old, next *state, ch changes) (swap map[string]string, ok bool) {
	if old.site == nil || ch.Empty() {
		return nil, false
	}
	if ch.CSSOnly() {
		return nil, true
	}
	renames := map[string]string{} // site paths without "/"
	var from, to [][]byte          // the hashed names, as pages name them
	for p, h := range next.assets {
		if oh, ok := old.assets[p]; ok && oh != h && path.Ext(p) == ".css" {
			renames[strings.TrimPrefix(oh, "/")] = strings.TrimPrefix(h, "/")
			from, to = append(from, []byte(path.Base(oh))), append(to, []byte(path.Base(h)))
		}
	}
	if len(renames) == 0 || len(ch.Removed) != len(renames) {
		return nil, false
	}
	added := map[string]bool{}
	for _, p := range ch.Removed {
		if renames[p] == "" {
			return nil, false
		}
		added[renames[p]] = true
	}
	for _, p := range ch.Changed {
		if added[p] {
			continue
		}
		nf, of := next.site.files[p], old.site.files[p]
		if of == nil || nf.lazy != nil || of.lazy != nil || !strings.HasPrefix(nf.ctype, "text/html") {
			return nil, false
		}
		b := of.data
		for i := range from {
			b = bytes.ReplaceAll(b, from[i], to[i])
		}
		if !bytes.Equal(b, nf.data) {
			return nil, false
		}
	}
	swap = map[string]string{}
	for o, n := range renames {
		swap["/"+o] = "/" + n
	}
	return swap, true
}

// liveJS is the live-reload client: it keeps the reader's scroll
// position, swaps stylesheets, and shows build errors in an overlay. It is
// part of the server, never of a built site.
//
//go:embed live.js
var liveJS []byte

// serveLiveJS serves the live-reload script.
func (s *Server) serveLiveJS(w http.ResponseWriter, r *http.Request, st *state) {
	s.serveFile(w, r, s.liveFile, http.StatusOK, false)
}

// serveNoBuild answers while no build has succeeded yet: the errors, as a
// page that reloads when the build is fixed.
func (s *Server) serveNoBuild(w http.ResponseWriter, r *http.Request, st *state) {
	var b bytes.Buffer
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>build failed</title>\n</head>\n<body>\n<h1>The site does not build yet</h1>\n<pre>")
	b.WriteString(htmlEscape(st.errs.Error()))
	b.WriteString("</pre>\n</body>\n</html>\n")
	f := newFile("error.html", b.Bytes())
	s.serveFile(w, r, f, http.StatusInternalServerError, false)
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
