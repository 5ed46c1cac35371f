package calc

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"net"
	"strconv"
	"testing"
)

// TestMatchHostMatchesX509 checks calc's port of the hostname rules against
// crypto/x509 itself, on every pair of these SAN lists and hosts.
func TestMatchHostMatchesX509(t *testing.T) {
	sanSets := []CertNames{
		{DNS: []string{"cp-1", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}, IPs: []string{"10.96.0.1", "10.0.0.111"}},
		{DNS: []string{"*.example.com", "LB.Example.Com", "under_score.local", "trailing.dot.", "*", "a.*.b", "*.*.c", "xn--bcher-kva.example"}},
		{DNS: []string{"localhost", "10.0.0.120"}, IPs: []string{"127.0.0.1", "::1", "fd00::10"}},
		{IPs: []string{"::ffff:10.0.0.1"}},
		{},
	}
	hosts := []string{
		"cp-1", "CP-1", "cp-1.", "kubernetes.default.svc.cluster.local", "10.96.0.1", "10.0.0.111", "10.0.0.120",
		"[10.0.0.120]", "foo.example.com", "FOO.EXAMPLE.COM", "example.com", "a.b.example.com", "lb.example.com",
		"under_score.local", "trailing.dot", "trailing.dot.", "x", "*", "a.x.b", "a.b.c", "localhost", "::1", "[::1]",
		"0:0:0:0:0:0:0:1", "fd00::10", "FD00::10", "10.0.0.1", "::ffff:10.0.0.1", "127.0.0.1", "", ".", "-bad.example",
		"xn--bcher-kva.example", "bücher.example", "*.example.com",
	}
	for _, names := range sanSets {
		cert := &x509.Certificate{DNSNames: names.DNS}
		var ips []ip
		for _, s := range names.IPs {
			cert.IPAddresses = append(cert.IPAddresses, net.ParseIP(s))
			a, _ := parseIP(s, false)
			ips = append(ips, a)
		}
		for _, h := range hosts {
			want := cert.VerifyHostname(h) == nil
			got := matchHost(names.DNS, ips, h) != ""
			if got != want {
				t.Errorf("SANs %v host %q: calc says %v, crypto/x509 says %v", names, h, got, want)
			}
		}
	}
}

func TestDialHost(t *testing.T) {
	for _, c := range []struct{ dial, host, errCode string }{
		{"10.0.0.120", "10.0.0.120", ""},
		{"10.0.0.120:6443", "10.0.0.120", ""},
		{"https://10.0.0.120:6443/api?x=1", "10.0.0.120", ""},
		{"https://lb.example.com", "lb.example.com", ""},
		{"https://user@lb.example.com:6443", "lb.example.com", ""},
		{"[::1]:6443", "::1", ""},
		{"https://[fd00::10]:6443/", "fd00::10", ""},
		{"fd00::10", "fd00::10", ""},
		{" cp-1 ", "cp-1", ""},
		{"", "", "err.empty"},
		{"10.0.0.120:", "", "err.dial-port"},
		{"10.0.0.120:99999", "", "err.dial-port"},
		{"10.0.0.120:http", "", "err.dial-port"},
		{"[::1", "", "err.dial"},
		{"[cp-1]:6443", "", "err.dial"},
		{"https://", "", "err.dial"},
		{"a b", "", "err.dial"},
	} {
		got, err := dialHost(c.dial)
		code := ""
		if ie, ok := err.(*InputError); ok {
			code = ie.Reason.Code
		} else if err != nil {
			code = err.Error()
		}
		if got != c.host || code != c.errCode {
			t.Errorf("dialHost(%q) = %q, %q; want %q, %q", c.dial, got, code, c.host, c.errCode)
		}
	}
}

// TestHostnameErrorMatchesX509 checks hostnameError, the x509 text the
// calculator shows, against crypto/x509's own HostnameError.Error (Go's
// src/crypto/x509/verify.go) for every failing pair of these certificates
// and hosts: IP and DNS lists, no SANs at all, the legacy Common Name case
// (no subjectAltName extension) and the 100-name cut-off.
func TestHostnameErrorMatchesX509(t *testing.T) {
	var many CertNames
	for i := 0; i < 100; i++ {
		many.DNS = append(many.DNS, "n"+strconv.Itoa(i)+".example")
		many.IPs = append(many.IPs, "10.1.0."+strconv.Itoa(i))
	}
	type certCase struct {
		names  CertNames
		cn     string
		sanExt bool
	}
	certs := []certCase{
		{names: CertNames{DNS: []string{"cp-1", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}, IPs: []string{"10.96.0.1", "10.0.0.111"}}, cn: "kube-apiserver", sanExt: true},
		{names: CertNames{DNS: []string{"*.example.com", "LB.Example.Com", "trailing.dot."}}, sanExt: true},
		{names: CertNames{IPs: []string{"::ffff:10.0.0.1", "FD00:0::10", "0:0:0:0:0:0:0:1"}}, sanExt: true},
		{names: CertNames{}, cn: "cp-1"},
		{names: CertNames{}, cn: "10.0.0.120"},
		{names: CertNames{}, sanExt: true, cn: "cp-1"},
		{names: CertNames{DNS: []string{"cp-1"}}, cn: "cp-2"},
		{names: many, sanExt: true},
	}
	hosts := []string{"cp-1", "CP-2", "cp-2.", "10.0.0.120", "[10.0.0.120]", "fd00:0:0:0:0:0:0:11", "[::2]", "x.example.com",
		"a.b.example.com", "lb.example.net", "n100.example", "10.1.0.200", "", "-bad", "under_score"}
	for _, c := range certs {
		cert := &x509.Certificate{DNSNames: c.names.DNS}
		cert.Subject.CommonName = c.cn
		if c.sanExt {
			cert.Extensions = []pkix.Extension{{Id: asn1.ObjectIdentifier{2, 5, 29, 17}}}
		}
		for _, s := range c.names.IPs {
			cert.IPAddresses = append(cert.IPAddresses, net.ParseIP(s))
		}
		info := CertInfo{CertNames: c.names, CommonName: c.cn, SANExtension: c.sanExt}
		for _, h := range hosts {
			err := cert.VerifyHostname(h)
			if err == nil {
				continue
			}
			// VerifyHostname hands HostnameError an IP without its
			// brackets; dialHost strips them the same way.
			host := h
			if len(h) >= 3 && h[0] == '[' && h[len(h)-1] == ']' {
				if _, ok := parseIP(h[1:len(h)-1], false); ok {
					host = h[1 : len(h)-1]
				}
			}
			if got := hostnameError(info, host); got != err.Error() {
				t.Errorf("cert %+v host %q:\n got %q\nwant %q", c, h, got, err.Error())
			}
		}
	}
}
