package serve

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The authoring server answers only the names of its own address: a page
// of another site that the author opens must not read the pages, drafts,
// side-by-side views or build errors it serves. A name that resolves to
// this machine but is not one of them (DNS rebinding) gets 403, and so
// does a request for the event stream, or one that is not GET or HEAD,
// sent by a page of another origin. And no connection is kept for
// longer than its requests need.

// Timeouts bound the connections Run serves.
type Timeouts struct {
	// ReadHeader is the time to send a request's headers; default 10 s.
	ReadHeader time.Duration
	// Read is the time to send a whole request; default 30 s.
	Read time.Duration
	// Write is the time to take a response; default 1 min. An event
	// stream is not bound by it as a whole, but each of its messages is.
	Write time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request; default 1 min.
	Idle time.Duration
}

func (t *Timeouts) defaults() {
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&t.ReadHeader, 10 * time.Second}, {&t.Read, 30 * time.Second}, {&t.Write, time.Minute}, {&t.Idle, time.Minute}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
}

// loopback lists the names the server always answers to: this machine's
// loopback addresses, and localhost.
const loopback = "127.0.0.1, localhost, [::1]"

// CheckAllowedHost reports whether name can be given as an allowed host
// (Options.AllowedHosts, --allowed-host): a host name or an IP address
// as the Host header names it, without port, scheme or path.
func CheckAllowedHost(name string) error {
	switch {
	case name == "":
		return errors.New("empty host name")
	case strings.Contains(name, "://") || strings.ContainsAny(name, "/?#@"):
		return fmt.Errorf("%q is not a host name: give the name alone, as in --allowed-host mybox.local", name)
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return nil // an IP address, IPv6 without brackets
	}
	host, port, ok := splitHost(name)
	if !ok {
		return fmt.Errorf("%q is not a host name or IP address", name)
	}
	if port != "" {
		return fmt.Errorf("%q names a port: give the name alone (%s); the server's own port is allowed with it", name, hostLiteral(host))
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 {
			return fmt.Errorf("%q is not a host name or IP address", name)
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return fmt.Errorf("%q is not a host name or IP address", name)
			}
		}
	}
	return nil
}

// splitHost splits a Host header value ("localhost:1313", "[::1]",
// "127.0.0.1") into its name, IPv6 brackets removed, and its port ("" when
// absent). ok is false when it is not of that form.
func splitHost(h string) (host, port string, ok bool) {
	rest := ""
	if strings.HasPrefix(h, "[") {
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return "", "", false
		}
		host, rest = h[1:end], h[end+1:]
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() {
			return "", "", false
		}
	} else {
		i := strings.IndexByte(h, ':')
		if i < 0 {
			host = h
		} else {
			host, rest = h[:i], h[i:]
		}
	}
	if rest != "" {
		port = strings.TrimPrefix(rest, ":")
		if port == rest || port == "" {
			return "", "", false
		}
		if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 || strings.TrimLeft(port, "0123456789") != "" {
			return "", "", false
		}
	}
	return host, port, host != ""
}

// hostLiteral spells a host as in a URL: an IPv6 address in brackets.
func hostLiteral(host string) string {
	if a, err := netip.ParseAddr(host); err == nil && a.Is6() {
		return "[" + host + "]"
	}
	return host
}

// hosts is the set of names a server answers to.
type hosts struct {
	names map[string]bool     // lower case
	addrs map[netip.Addr]bool // the names that are IP addresses
}

func newHosts(allowed []string) hosts {
	hs := hosts{names: map[string]bool{}, addrs: map[netip.Addr]bool{}}
	for _, n := range append(strings.Split(loopback, ", "), allowed...) {
		n = strings.TrimSuffix(strings.TrimPrefix(n, "["), "]")
		if a, err := netip.ParseAddr(n); err == nil {
			hs.addrs[a.Unmap().WithZone("")] = true
			continue
		}
		hs.names[strings.ToLower(n)] = true
	}
	return hs
}

// allows reports whether host (a Host header value, or the host of an
// Origin) names this server, which received the request on local (nil
// when unknown): one of its names, or the address it was reached at,
// with no port or with the port it listens on.
func (hs hosts) allows(host string, local net.Addr) bool {
	name, port, ok := splitHost(host)
	if !ok {
		return false
	}
	var at netip.AddrPort
	if tcp, isTCP := local.(*net.TCPAddr); isTCP {
		at = tcp.AddrPort()
	}
	if port != "" && at.IsValid() && port != strconv.Itoa(int(at.Port())) {
		return false
	}
	if a, err := netip.ParseAddr(name); err == nil {
		a = a.Unmap().WithZone("")
		return hs.addrs[a] || at.IsValid() && a == at.Addr().Unmap().WithZone("") && !a.IsUnspecified()
	}
	return hs.names[strings.ToLower(name)]
}

// allowsOrigin reports whether origin, an Origin header, is a page of
// this server: http://, one of its names, and the port it listens on.
func (hs hosts) allowsOrigin(origin string, local net.Addr) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Opaque != "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Host == "" {
		return false
	}
	if !hs.allows(u.Host, local) {
		return false
	}
	// An origin without a port is on port 80.
	if tcp, ok := local.(*net.TCPAddr); ok && u.Port() == "" && tcp.Port != 80 {
		return false
	}
	return true
}

// checkHost answers 403 and returns false when the request's Host is
// not one of the server's names.
func (s *Server) checkHost(w http.ResponseWriter, r *http.Request) bool {
	if s.hosts.allows(r.Host, localAddr(r)) {
		return true
	}
	msg := fmt.Sprintf("403 Forbidden: this authoring server answers only to its own address (%s, or a name given with --allowed-host), not to %q.\n",
		loopback, truncate(r.Host, 100))
	name, _, ok := splitHost(r.Host)
	tcp, _ := localAddr(r).(*net.TCPAddr)
	switch {
	case ok && tcp != nil && s.hosts.allows(hostLiteral(name), tcp):
		msg += fmt.Sprintf("It listens on port %d.\n", tcp.Port)
	case ok && CheckAllowedHost(name) == nil:
		msg += "To reach it under that name, say so when starting it: kakehashi serve --allowed-host " + name + "\n"
	default:
		msg += "To reach it under another name, say so when starting it: kakehashi serve --allowed-host NAME\n"
	}
	http.Error(w, msg, http.StatusForbidden)
	return false
}

// checkOrigin answers 403 and returns false when the request comes from
// a page of another origin: its Origin is not one of the server's, or,
// without Origin, the browser says so (Sec-Fetch-Site). A request with
// neither is let through: a browser sends Origin when a page of another
// origin opens an EventSource, fetches or posts, and what such a page
// loads without (a script or image tag) it may not read
// (Cross-Origin-Resource-Policy).
func (s *Server) checkOrigin(w http.ResponseWriter, r *http.Request) bool {
	o := r.Header.Get("Origin")
	site := r.Header.Get("Sec-Fetch-Site")
	from := strconv.Quote(truncate(o, 100))
	switch {
	case o != "" && s.hosts.allowsOrigin(o, localAddr(r)):
		return true
	case o == "" && site != "cross-site" && site != "same-site":
		return true
	case o == "":
		from = "Sec-Fetch-Site: " + site
	}
	msg := fmt.Sprintf("403 Forbidden: a page of another origin (%s) may not use this authoring server; only its own pages may.\n"+
		"If that page is this site under another name of this machine, start the server with: kakehashi serve --allowed-host NAME\n", from)
	http.Error(w, msg, http.StatusForbidden)
	return false
}

// localAddr is the address the request was received at, nil when unknown.
func localAddr(r *http.Request) net.Addr {
	a, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return a
}

// truncate cuts s to at most n bytes, for quoting a header in a message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
