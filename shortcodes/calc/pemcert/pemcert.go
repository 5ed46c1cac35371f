// Package pemcert reads a PEM certificate for the calc package's
// verifyHost calculator, with crypto/x509. It is a package of its own so
// that the main WebAssembly module, which does not import it, stays small;
// cmd/calc-wasm builds it into the separate calc-x509 module.
package pemcert

import (
	"crypto/x509"
	"encoding/asn1"
	"encoding/pem"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
)

var _ calc.PEMParser = Parse

// Parse reads the first CERTIFICATE block of pemText and returns its
// names, subject, issuer and validity (RFC 3339, UTC). Errors are
// *calc.InputError values on the field "pem".
func Parse(pemText string) (calc.CertInfo, error) {
	rest := []byte(strings.TrimSpace(pemText))
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return calc.CertInfo{}, &calc.InputError{Field: "pem", Reason: calc.R("err.pem", "value", "no PEM CERTIFICATE block")}
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return calc.CertInfo{}, &calc.InputError{Field: "pem", Reason: calc.R("err.pem", "value", err.Error())}
		}
		info := calc.CertInfo{
			CertNames: calc.CertNames{DNS: append([]string{}, c.DNSNames...), IPs: []string{}},
			Subject:   c.Subject.String(),
			Issuer:    c.Issuer.String(),
			NotBefore: c.NotBefore.UTC().Format(time.RFC3339),
			NotAfter:  c.NotAfter.UTC().Format(time.RFC3339),
			// For the legacy Common Name case of HostnameError.Error
			// (crypto/x509 verify.go; hasSANExtension in x509.go).
			CommonName:   c.Subject.CommonName,
			SANExtension: hasSANExtension(c),
		}
		for _, a := range c.IPAddresses {
			info.IPs = append(info.IPs, a.String())
		}
		return info, nil
	}
}

// oidSubjectAltName is id-ce-subjectAltName, 2.5.29.17 (RFC 5280 4.2.1.6).
var oidSubjectAltName = asn1.ObjectIdentifier{2, 5, 29, 17}

// hasSANExtension is crypto/x509's unexported Certificate.hasSANExtension.
func hasSANExtension(c *x509.Certificate) bool {
	for _, e := range c.Extensions {
		if e.Id.Equal(oidSubjectAltName) {
			return true
		}
	}
	return false
}
