package calc

import (
	"strconv"
	"strings"
)

// CertNames is a certificate's subject alternative names.
type CertNames struct {
	DNS []string
	IPs []string
}

// CertInfo describes a parsed certificate: its names and, for a PEM, its
// issuer, subject and validity (RFC 3339, UTC).
type CertInfo struct {
	CertNames
	Subject, Issuer     string
	NotBefore, NotAfter string
	// CommonName is the subject's CN and SANExtension whether the
	// certificate has a subjectAltName extension at all: with neither
	// SANs nor the extension, Go's error names the legacy Common Name.
	// A bare SAN list (VerifyHost) leaves both zero.
	CommonName   string
	SANExtension bool
}

// VerifyResult tells whether dialing an address passes TLS hostname
// verification against a certificate.
type VerifyResult struct {
	OK bool
	// Host is the name or IP taken from the dial address, as TLS compares it.
	Host string
	// Matched is the SAN that matched, when OK.
	Matched string
	// Reason explains the verdict; on failure it lists what the
	// certificate does cover.
	Reason Reason
	// Cert is the certificate verified against.
	Cert CertInfo
	// X509Error is, on failure, the text of the error Go's crypto/x509
	// returns (HostnameError.Error), verbatim; "" when OK.
	X509Error string
}

// Verify reason codes.
const (
	VerifyOKIP           = "verify.ok-ip"
	VerifyOKDNS          = "verify.ok-dns"
	VerifyIPNotCovered   = "verify.ip-not-covered"
	VerifyNameNotCovered = "verify.name-not-covered"
	VerifyCertInfo       = "verify.cert-info"
)

// VerifyHost reports whether a client dialing dial would accept a
// certificate carrying names, by the rules of Go's crypto/x509
// Certificate.VerifyHostname (which kubectl, kubelets and every Go client
// use): an IP (optionally in brackets) matches only IP SANs, compared as
// addresses; a name matches DNS SANs case-insensitively, a trailing dot
// ignored, with a wildcard allowed only as the whole left-most label and
// matching exactly one label; names that are not valid hostnames only
// match exactly; the Common Name is ignored. hostname_test.go checks these
// rules against crypto/x509 itself.
//
// dial may be host, host:port, [ipv6]:port, a bare IPv6 address or a URL
// such as https://host:6443/path.
func VerifyHost(names CertNames, dial string) (VerifyResult, error) {
	return verifyInfo(CertInfo{CertNames: names}, dial, "sans")
}

func verifyInfo(cert CertInfo, dial, namesField string) (VerifyResult, error) {
	host, err := dialHost(dial)
	if err != nil {
		return VerifyResult{}, err
	}
	ips := make([]ip, 0, len(cert.IPs))
	for i, s := range cert.IPs {
		a, ok := parseIP(s, false)
		if !ok {
			return VerifyResult{}, inputErr(namesField+".ips["+strconv.Itoa(i)+"]", "err.ip", "value", s)
		}
		ips = append(ips, a)
	}
	r := VerifyResult{Host: host, Cert: cert}
	if a, isIP := hostIP(host); isIP {
		r.Host = a.String()
	}
	covers := func(code string) Reason {
		r.X509Error = hostnameError(cert, host)
		return R(code, "host", host, "dns", listText(cert.DNS), "ips", listText(cert.IPs), "x509", r.X509Error)
	}
	if r.Matched = matchHost(cert.DNS, ips, host); r.Matched != "" {
		r.OK = true
		if _, isIP := hostIP(host); isIP {
			r.Reason = R(VerifyOKIP, "host", r.Host, "san", r.Matched)
		} else {
			r.Reason = R(VerifyOKDNS, "host", host, "san", r.Matched)
		}
		return r, nil
	}
	if _, isIP := hostIP(host); isIP {
		r.Reason = covers(VerifyIPNotCovered)
		r.Reason.Args["host"] = r.Host
		return r, nil
	}
	r.Reason = covers(VerifyNameNotCovered)
	return r, nil
}

// maxNamesIncluded is HostnameError.Error's limit on the names it lists.
const maxNamesIncluded = 100

// hostnameError is the text of crypto/x509 HostnameError.Error (Go's
// src/crypto/x509/verify.go) for a certificate that does not cover host,
// the host as VerifyHostname received it. For an IP, VerifyHostname hands
// the error the address without its brackets, as typed (not in canonical
// form); for a name, the name as typed, case and trailing dot kept. The IPs
// are listed as net.IP.String spells them, the DNS names as they are, both
// in the certificate's order. hostname_test.go compares it with Go's.
func hostnameError(cert CertInfo, host string) string {
	if !cert.SANExtension && matchHostnames(cert.CommonName, strings.Split(toLowerASCII(strings.TrimSuffix(host, ".")), ".")) {
		return "x509: certificate relies on legacy Common Name field, use SANs instead"
	}
	var valid string
	if _, isIP := parseIP(host, false); isIP {
		switch n := len(cert.IPs); {
		case n == 0:
			return "x509: cannot validate certificate for " + host + " because it doesn't contain any IP SANs"
		case n >= maxNamesIncluded:
			return "x509: certificate is valid for " + strconv.Itoa(n) + " IP SANs, but none matched " + host
		}
		spelled := make([]string, len(cert.IPs))
		for i, s := range cert.IPs {
			a, _ := parseIP(s, false)
			spelled[i] = a.String()
		}
		valid = strings.Join(spelled, ", ")
	} else {
		if n := len(cert.DNS); n >= maxNamesIncluded {
			return "x509: certificate is valid for " + strconv.Itoa(n) + " names, but none matched " + host
		}
		valid = strings.Join(cert.DNS, ", ")
	}
	if valid == "" {
		return "x509: certificate is not valid for any names, but wanted to match " + host
	}
	return "x509: certificate is valid for " + valid + ", not " + host
}

// listText joins names for a message; "—" when there are none.
func listText(ss []string) string {
	if len(ss) == 0 {
		return "—"
	}
	return strings.Join(ss, ", ")
}

// hostIP is VerifyHostname's IP test: h, or h without its brackets,
// parsed by net.ParseIP.
func hostIP(h string) (ip, bool) {
	if len(h) >= 3 && h[0] == '[' && h[len(h)-1] == ']' {
		h = h[1 : len(h)-1]
	}
	return parseIP(h, false)
}

// matchHost returns the SAN that VerifyHostname would accept for h, or "".
func matchHost(dnsNames []string, ips []ip, h string) string {
	if a, ok := hostIP(h); ok {
		for _, c := range ips {
			if c == a {
				return c.String()
			}
		}
		return ""
	}
	candidate := toLowerASCII(h)
	valid := validHostname(candidate, false)
	parts := strings.Split(toLowerASCII(strings.TrimSuffix(candidate, ".")), ".")
	for _, m := range dnsNames {
		if valid && validHostname(m, true) {
			if matchHostnames(m, parts) {
				return m
			}
		} else if matchExactly(m, candidate) {
			return m
		}
	}
	return ""
}

// validHostname is crypto/x509's validHostname (RFC 6125 2.2 with Go's
// leniency: '_' allowed, a left-most "*" label allowed in patterns).
func validHostname(host string, isPattern bool) bool {
	if !isPattern {
		host = strings.TrimSuffix(host, ".")
	}
	if len(host) == 0 || host == "*" {
		return false
	}
	for i, part := range strings.Split(host, ".") {
		if part == "" {
			return false
		}
		if isPattern && i == 0 && part == "*" {
			continue
		}
		for j, c := range part {
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9', 'A' <= c && c <= 'Z', c == '_':
			case c == '-' && j != 0:
			default:
				return false
			}
		}
	}
	return true
}

func matchExactly(a, b string) bool {
	if a == "" || a == "." || b == "" || b == "." {
		return false
	}
	return toLowerASCII(a) == toLowerASCII(b)
}

func matchHostnames(pattern string, hostParts []string) bool {
	pattern = toLowerASCII(pattern)
	if len(pattern) == 0 || len(hostParts) == 0 {
		return false
	}
	pp := strings.Split(pattern, ".")
	if len(pp) != len(hostParts) {
		return false
	}
	for i, p := range pp {
		if i == 0 && p == "*" {
			continue
		}
		if p != hostParts[i] {
			return false
		}
	}
	return true
}

// toLowerASCII lowers ASCII letters only (RFC 6125 6.4.1).
func toLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// dialHost extracts the host a TLS client verifies from a dial address.
func dialHost(dial string) (string, error) {
	s := strings.TrimSpace(dial)
	if s == "" {
		return "", inputErr("dial", CodeEmpty)
	}
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
		if j := strings.IndexAny(s, "/?#"); j >= 0 {
			s = s[:j]
		}
		if j := strings.LastIndexByte(s, '@'); j >= 0 {
			s = s[j+1:]
		}
	}
	host, port := s, ""
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", inputErr("dial", "err.dial", "value", dial)
		}
		host, port = s[1:end], s[end+1:]
		if port != "" {
			if port[0] != ':' {
				return "", inputErr("dial", "err.dial", "value", dial)
			}
			port = port[1:]
			if port == "" {
				return "", inputErr("dial", "err.dial-port", "value", dial)
			}
		}
		if _, ok := parseIP(host, false); !ok {
			return "", inputErr("dial", "err.dial", "value", dial)
		}
	case strings.Count(s, ":") == 1:
		i := strings.IndexByte(s, ':')
		host, port = s[:i], s[i+1:]
		if port == "" {
			return "", inputErr("dial", "err.dial-port", "value", dial)
		}
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", inputErr("dial", "err.dial-port", "value", dial)
		}
	}
	if host == "" || strings.ContainsAny(host, " /[]") {
		return "", inputErr("dial", "err.dial", "value", dial)
	}
	return host, nil
}
