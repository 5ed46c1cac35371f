package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/serve"
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
	ln, note, err := listen(bind, port, explicit)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi serve: %v\n", err)
		return 1
	}
	defer ln.Close()
	if note != "" {
		fmt.Fprintf(env.stderr, "kakehashi serve: %s\n", note)
	}
	srv, err := serve.New(ctx, serve.Options{Root: src, Build: withWasm(build.Options{Drafts: drafts}, src), Log: env.stderr, AllowedHosts: allowed})
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi serve: %v\n", err)
		return 1
	}
	defer srv.Close()
	host := bind
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	url := "http://" + net.JoinHostPort(host, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)) + "/"
	fmt.Fprint(env.stdout, serveBanner(src, url))
	if open {
		openBrowser(url)
	}
	if err := srv.Run(ctx, ln); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi serve: %v\n", err)
		return 1
	}
	return 0
}

// nextPorts is how many ports after the default serve tries when the
// default is in use.
const nextPorts = 10

// listen listens on bind:port. When that port is in use and was not asked
// for (the default), it takes the first free one of the next nextPorts,
// as Hugo's server does, and note says so; a port asked for with --port
// that is in use is an error that says how to choose another.
func listen(bind string, port int, explicit bool) (ln net.Listener, note string, err error) {
	addr := net.JoinHostPort(bind, strconv.Itoa(port))
	ln, err = net.Listen("tcp", addr)
	if err == nil || !errors.Is(err, syscall.EADDRINUSE) {
		if err != nil {
			err = fmt.Errorf("cannot listen on %s: %v (choose another address with --bind, or a port with --port N)", addr, unwrapOp(err))
		}
		return ln, "", err
	}
	if !explicit && port != 0 {
		for p := port + 1; p <= port+nextPorts && p < 65536; p++ {
			if ln, err2 := net.Listen("tcp", net.JoinHostPort(bind, strconv.Itoa(p))); err2 == nil {
				return ln, fmt.Sprintf("port %d is in use; serving on port %d instead (--port N chooses one)", port, p), nil
			}
		}
	}
	return nil, "", fmt.Errorf("port %d on %s is in use (another kakehashi serve or hugo server?): stop that server, or choose another port with --port N (--port 0: any free port)", port, bind)
}

// unwrapOp is the operating system's reason in a listening error, without
// the address that the message already names.
func unwrapOp(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

// serveBanner is what serve prints once listening at url: the site's
// address and the translator's view's.
func serveBanner(src, url string) string {
	return fmt.Sprintf("kakehashi %s: serving %s at %s (Ctrl-C to stop)\n  translator's view: %s\n",
		build.Version, src, url, strings.TrimSuffix(url, "/")+serve.PairView+"/")
}

// openBrowser runs the system's opener for url, quietly, when there is one.
func openBrowser(url string) {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		return
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return
	}
	cmd := exec.Command(bin, url)
	if cmd.Start() == nil {
		go cmd.Wait() // reap it; its exit status does not matter
	}
}
