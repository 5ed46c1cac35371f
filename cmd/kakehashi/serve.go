package main

import (
	"context"
	"flag"
	"fmt"
	"net/netip"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/serve"
	"github.com/kakehashi-dev/kakehashi/build/sitedir"
)

const serveSynopsis = "kakehashi serve [-s DIR] [--bind ADDR] [--port N] [--allowed-host NAME]... [--open] [--drafts]"

func runServe(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "serve", serveSynopsis,
		"Builds the site into memory and serves it, rebuilding on every save of content/,\nthemes/ or i18n/ and reloading the browser; build errors show in the page.\nNothing is written to public/. Stop with Ctrl-C.\n\n"+
			"/_pair/ is the translator's view, printed beside the site's address: every\n"+
			"translation with its state (current, stale since a day, unmarked, or a page\n"+
			"missing in a language), filtered by ?state= and ?lang=, each linking to the\n"+
			"page's versions side by side with what changed in the original, how to write\n"+
			"a missing one, and a button that does \"kakehashi translations mark\". A page's\n"+
			"stale or missing notice links there while serving. The view speaks the\n"+
			"language ?lang= names, else the one its path starts with (/_pair/ko/...),\n"+
			"else the browser's.")
	var src, bind string
	var port int
	var open, drafts bool
	var allowed []string
	sourceFlag(fs, &src, siteFolderHelp)
	fs.StringVar(&bind, "bind", "127.0.0.1", "`address` to listen on; only this machine by default")
	fs.IntVar(&port, "port", 1313, "`port` to listen on (0: any free port)")
	fs.Func("allowed-host", "also answer requests for host `NAME` (this machine's name on a LAN); repeatable.\n"+
		"Only 127.0.0.1, localhost, [::1] and the --bind address are answered otherwise: a page\n"+
		"of another site cannot reach the server under a name of its own (DNS rebinding)", func(v string) error {
		if err := serve.CheckAllowedHost(v); err != nil {
			return err
		}
		allowed = append(allowed, v)
		return nil
	})
	fs.BoolVar(&open, "open", false, "open the site in the default browser")
	draftsFlag(fs, &drafts)
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.stderr, "kakehashi serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	// A --bind given as a name is one of the server's names.
	if _, err := netip.ParseAddr(bind); err != nil && bind != "" && serve.CheckAllowedHost(bind) == nil {
		allowed = append(allowed, bind)
	}
	// The port first: a busy one is said before the site is built.
	explicit := false
	fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "port" })
	ln, note, err := serve.Listen(bind, port, explicit)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi serve: %v\n", err)
		return 1
	}
	defer ln.Close()
	if note != "" {
		fmt.Fprintf(env.stderr, "kakehashi serve: %s\n", note)
	}
	srv, err := serve.New(ctx, serve.Options{Root: src, Build: sitedir.WithWasm(build.Options{Drafts: drafts}, src), Log: env.stderr, AllowedHosts: allowed})
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi serve: %v\n", err)
		return 1
	}
	defer srv.Close()
	url := serve.URL(bind, ln)
	fmt.Fprint(env.stdout, serveBanner(src, url))
	if open {
		serve.OpenBrowser(url)
	}
	if err := srv.Run(ctx, ln); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi serve: %v\n", err)
		return 1
	}
	return 0
}

// serveBanner is what serve prints once listening at url: the site's
// address and the translator's view's.
func serveBanner(src, url string) string {
	return fmt.Sprintf("kakehashi %s: serving %s at %s (Ctrl-C to stop)\n  translator's view: %s\n",
		build.Version, src, url, strings.TrimSuffix(url, "/")+serve.PairView+"/")
}
