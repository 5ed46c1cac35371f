package calc

import (
	"slices"
	"strconv"
	"strings"
)

// Certificate kinds for SANs.
const (
	KindAPIServer  = "apiserver"
	KindEtcdServer = "etcd-server"
	KindEtcdPeer   = "etcd-peer"
)

// Etcd modes: where kubeadm's etcd runs. EtcdStacked (kubeadm's
// etcd.local, a member on each control plane, which EtcdLocal also names)
// is kubeadm's default; with EtcdExternal (etcd.external) kubeadm makes no
// certificate of the etcd CA (see KubeadmCerts).
const (
	EtcdStacked  = "stacked"
	EtcdLocal    = "local"
	EtcdExternal = "external"
)

// KubeadmCert is one certificate kubeadm's certs phase makes: its name
// (the phase's, kubeadm init phase certs NAME), the file under
// /etc/kubernetes/pki without .crt, and the name of the CA that signs it
// ("" for a CA).
type KubeadmCert struct {
	Name     string
	BaseName string
	CA       string
}

// KubeadmCerts lists the certificates kubeadm makes for etcd mode etcd
// (EtcdStacked, EtcdLocal, EtcdExternal; "" is EtcdStacked), in kubeadm's
// order. It follows kubernetes/kubernetes v1.34.0
// cmd/kubeadm/app/phases/certs/certlist.go: GetDefaultCertList for a
// local etcd, GetCertsWithoutEtcd for an external one, as CreatePKIAssets
// (certs.go) chooses between them by cfg.Etcd.Local == nil; kubeadm init's
// certs phase (cmd/kubeadm/app/cmd/phases/init/certs.go) likewise skips
// the etcd CA and every certificate it signs when cfg.Etcd.External is
// set: no etcd server, peer or healthcheck-client certificate, and no
// apiserver-etcd-client either, which an external etcd's operator issues
// and kubeadm is given (etcd.external caFile, certFile, keyFile).
func KubeadmCerts(etcd string) []KubeadmCert {
	list := []KubeadmCert{
		{"ca", "ca", ""},
		{"apiserver", "apiserver", "ca"},
		{"apiserver-kubelet-client", "apiserver-kubelet-client", "ca"},
		{"front-proxy-ca", "front-proxy-ca", ""},
		{"front-proxy-client", "front-proxy-client", "front-proxy-ca"},
	}
	if etcd == EtcdExternal {
		return list
	}
	return append(list,
		KubeadmCert{"etcd-ca", "etcd/ca", ""},
		KubeadmCert{"etcd-server", "etcd/server", "etcd-ca"},
		KubeadmCert{"etcd-peer", "etcd/peer", "etcd-ca"},
		KubeadmCert{"etcd-healthcheck-client", "etcd/healthcheck-client", "etcd-ca"},
		KubeadmCert{"apiserver-etcd-client", "apiserver-etcd-client", "etcd-ca"},
	)
}

// Defaults kubeadm applies (cmd/kubeadm/app/apis/kubeadm/v1beta4 defaults:
// DefaultServiceDNSDomain, DefaultServicesSubnet).
const (
	DefaultServiceSubnet = "10.96.0.0/12"
	DefaultDNSDomain     = "cluster.local"
)

// kubeadm's limits on the service subnet (cmd/kubeadm/app/constants:
// MinimumAddressesInServiceSubnet, MaximumBitsForServiceSubnet).
const (
	minServiceSubnetAddrs = 10
	maxServiceSubnetBits  = 20
)

// SANsInput is what kubeadm reads to build a certificate's subject
// alternative names. Empty ServiceSubnet, DNSDomain, Kind and Etcd take
// kubeadm's defaults.
type SANsInput struct {
	// Kind is KindAPIServer, KindEtcdServer or KindEtcdPeer.
	Kind string
	// NodeName is nodeRegistration.name.
	NodeName string
	// AdvertiseAddress is localAPIEndpoint.advertiseAddress.
	AdvertiseAddress string
	// ControlPlaneEndpoint is host or host:port; may be empty.
	ControlPlaneEndpoint string
	// ServiceSubnet is networking.serviceSubnet, one CIDR or a dual-stack
	// pair separated by a comma.
	ServiceSubnet string
	// DNSDomain is networking.dnsDomain.
	DNSDomain string
	// CertSANs are the extra names: apiServer.certSANs for the apiserver,
	// etcd.local.serverCertSANs or etcd.local.peerCertSANs for etcd.
	CertSANs []string
	// Etcd is the etcd mode: EtcdStacked (or EtcdLocal, its kubeadm
	// name) or EtcdExternal.
	Etcd string
}

// SANsResult is the certificate's names in the order kubeadm writes them
// (pki_helpers.go NewSignedCert → RemoveDuplicateAltNames): DNS names
// deduplicated and sorted lexically (sets.List), IPs deduplicated by their
// net.IP spelling with the first of each kept, in the order they were
// added. NodeName, ControlPlaneEndpoint and CertSANs are the inputs as
// kubeadm's dynamic defaulting leaves them, before it validates them.
type SANsResult struct {
	// Created is false when kubeadm makes no certificate of this kind in
	// this etcd mode (an etcd kind with external etcd); DNS and IPs are
	// empty then.
	Created  bool
	DNS      []string
	IPs      []string
	Warnings []Reason
	// Certificates are the certificates kubeadm makes in this etcd mode
	// (KubeadmCerts).
	Certificates []KubeadmCert

	NodeName             string
	ControlPlaneEndpoint string
	CertSANs             []string
	// Etcd is the etcd mode, EtcdStacked or EtcdExternal.
	Etcd string
}

// Warning codes returned by SANs.
const (
	WarnNoEndpoint      = "sans.no-endpoint"
	WarnEndpointIsNode  = "sans.endpoint-is-node"
	WarnUnspecifiedAddr = "sans.unspecified-advertise"
	WarnEtcdExternal    = "sans.etcd-external"
	WarnPerNodeCert     = "sans.per-node-cert"
	// WarnPerNodeCertExternal is WarnPerNodeCert with external etcd,
	// whose client certificate --upload-certs shares too.
	WarnPerNodeCertExternal = "sans.per-node-cert-external"
	WarnLowercased          = "sans.lowercased"
)

// DefaultBindPort is localAPIEndpoint.bindPort's default
// (cmd/kubeadm/app/constants: KubeAPIServerPort), the port kubeadm gives a
// controlPlaneEndpoint written without one.
const DefaultBindPort = "6443"

// SANs returns the names kubeadm puts into the certificate of in.Kind.
//
// The rules follow kubernetes/kubernetes cmd/kubeadm/app/util/pkiutil/
// pki_helpers.go:
//
//   - GetAPIServerAltNames: DNS node name, kubernetes, kubernetes.default,
//     kubernetes.default.svc, kubernetes.default.svc.<dnsDomain>; IPs the
//     first address of the (first) service subnet (GetAPIServerVirtualIP:
//     GetIndexedIP(subnet, 1), 10.96.0.1 for 10.96.0.0/12) and the advertise
//     address; then the controlPlaneEndpoint host with its port stripped
//     (kubeadmutil.ParseHostPort), as an IP when it parses as one, else as a
//     DNS name; then apiServer.certSANs (appendSANsToAltNames).
//   - GetEtcdAltNames and GetEtcdPeerAltNames (both getAltNames): DNS node
//     name and localhost; IPs the advertise address, 127.0.0.1 and ::1;
//     then etcd.local.serverCertSANs or peerCertSANs. The seed article does
//     not list the etcd names; this is kubeadm's list. With external etcd
//     kubeadm creates no etcd certificates at all (KubeadmCerts), so
//     Created is false, the lists are empty and a warning says so.
//
// Before that, the inputs go through kubeadm's dynamic defaulting as
// kubeadm init and join apply it (see defaults: the node name trimmed and
// lowercased, apiServer.certSANs lowercased, the endpoint's port), and the
// names come out in the order and with the deduplication of
// RemoveDuplicateAltNames (see removeDuplicateAltNames).
//
// Inputs are then validated as kubeadm's validation package does
// (cmd/kubeadm/app/apis/kubeadm/validation/validation.go:
// ValidateNodeRegistrationOptions, ValidateAPIEndpoint/ValidateIPFromString,
// ValidateHostPort, ValidateNetworking with ValidateIPNetFromString and
// ValidateServiceSubnetSize, ValidateCertSANs); the error names the field
// as the JS API spells it.
func SANs(in SANsInput) (SANsResult, error) {
	if err := in.normalize(); err != nil {
		return SANsResult{}, err
	}
	r := SANsResult{Created: true, Certificates: KubeadmCerts(in.Etcd), Etcd: in.Etcd}
	r.Warnings = in.defaults()
	if err := in.validate(); err != nil {
		return SANsResult{}, err
	}
	r.NodeName, r.CertSANs = in.NodeName, append([]string{}, in.CertSANs...)
	if in.ControlPlaneEndpoint != "" {
		r.ControlPlaneEndpoint = defaultEndpointPort(in.ControlPlaneEndpoint)
	}
	adv, _ := parseIP(in.AdvertiseAddress, true)
	dns := []string{}
	ips := []ip{}
	unspecified := adv == ip{} || adv == ip{10: 0xff, 11: 0xff}
	if unspecified {
		r.Warnings = append(r.Warnings, R(WarnUnspecifiedAddr, "address", in.AdvertiseAddress))
	}
	switch in.Kind {
	case KindAPIServer:
		// pki_helpers.go GetAPIServerAltNames, in its order.
		first, _ := parseCIDR(strings.Split(in.ServiceSubnet, ",")[0], true)
		vip, _ := first.indexed(1)
		dns = append(dns, in.NodeName, "kubernetes", "kubernetes.default", "kubernetes.default.svc",
			"kubernetes.default.svc."+in.DNSDomain)
		ips = append(ips, vip, adv)
		if in.ControlPlaneEndpoint != "" {
			host, _, _ := parseHostPort(in.ControlPlaneEndpoint)
			if a, ok := parseIP(host, true); ok {
				ips = append(ips, a)
				if a == adv {
					r.Warnings = append(r.Warnings, R(WarnEndpointIsNode, "endpoint", in.ControlPlaneEndpoint, "node", in.NodeName))
				}
			} else {
				dns = append(dns, host)
			}
		} else {
			r.Warnings = append(r.Warnings, R(WarnNoEndpoint, "address", adv.String()))
		}
		dns, ips = appendSANs(dns, ips, in.CertSANs)
		perNode := WarnPerNodeCert
		if in.Etcd == EtcdExternal {
			perNode = WarnPerNodeCertExternal
		}
		r.Warnings = append(r.Warnings, R(perNode, "node", in.NodeName, "address", adv.String()))
	case KindEtcdServer, KindEtcdPeer:
		if in.Etcd == EtcdExternal {
			r.Warnings = append(r.Warnings, R(WarnEtcdExternal, "kind", in.Kind))
			r.Created, r.DNS, r.IPs = false, []string{}, []string{}
			return r, nil
		}
		// pki_helpers.go getAltNames, in its order.
		loop4, _ := parseIP("127.0.0.1", false)
		loop6, _ := parseIP("::1", false)
		dns = append(dns, in.NodeName, "localhost")
		ips = append(ips, adv, loop4, loop6)
		dns, ips = appendSANs(dns, ips, in.CertSANs)
	}
	r.DNS, r.IPs = removeDuplicateAltNames(dns, ips)
	return r, nil
}

// removeDuplicateAltNames is pki_helpers.go RemoveDuplicateAltNames, which
// NewSignedCert applies before it writes the certificate: the DNS names
// become sets.List(sets.New(names...)), deduplicated and sorted; the IPs
// keep their order, a later IP dropped when its String() was seen already
// (so 10.0.0.1 and ::ffff:10.0.0.1 are one).
func removeDuplicateAltNames(dns []string, ips []ip) ([]string, []string) {
	slices.Sort(dns)
	dns = slices.Compact(dns)
	out := make([]string, 0, len(ips))
	seen := map[string]bool{}
	for _, a := range ips {
		if s := a.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return dns, out
}

// defaults applies what kubeadm init and join do to the fields before they
// validate them, and returns a WarnLowercased for each value it lowered:
//
//   - the node name: SetNodeRegistrationDynamicDefaults
//     (cmd/kubeadm/app/util/config/initconfiguration.go, and
//     joinconfiguration.go SetJoinDynamicDefaults) sets it to
//     nodeutil.GetHostname(name) (k8s.io/component-helpers/node/util),
//     strings.TrimSpace then strings.ToLower;
//   - apiServer.certSANs: SetClusterDynamicDefaults calls LowercaseSANs
//     (cmd/kubeadm/app/util/config/common.go), strings.ToLower on each,
//     nothing trimmed. etcd.local.serverCertSANs and peerCertSANs are not
//     lowered, so capitals there fail ValidateCertSANs;
//   - controlPlaneEndpoint: SetClusterDynamicDefaults only adds the bind
//     port when there is none (see defaultEndpointPort); its host is not
//     lowered, and a host kubeadmutil.ParseHostPort rejects fails there.
//
// The advertise address is left as given: SetAPIEndpointDynamicDefaults
// rewrites it as ip.String(), which the IP list shows already, and
// replaces an unspecified address (WarnUnspecifiedAddr).
func (in *SANsInput) defaults() []Reason {
	var warns []Reason
	trimmed := strings.TrimSpace(in.NodeName)
	in.NodeName = strings.ToLower(trimmed)
	if in.NodeName != trimmed {
		warns = append(warns, R(WarnLowercased, "field", "nodeName", "value", trimmed, "lower", in.NodeName))
	}
	if in.Kind == KindAPIServer && len(in.CertSANs) > 0 {
		sans := make([]string, len(in.CertSANs))
		for i, s := range in.CertSANs {
			sans[i] = strings.ToLower(s)
			if sans[i] != s {
				warns = append(warns, R(WarnLowercased, "field", "certSANs["+strconv.Itoa(i)+"]", "value", s, "lower", sans[i]))
			}
		}
		in.CertSANs = sans
	}
	return warns
}

// defaultEndpointPort is SetClusterDynamicDefaults'
// net.JoinHostPort(host, bindPort) for an endpoint without a port; ep has
// passed parseHostPort.
func defaultEndpointPort(ep string) string {
	host, port, _ := parseHostPort(ep)
	if port != "" {
		return ep
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + DefaultBindPort
	}
	return host + ":" + DefaultBindPort
}

// appendSANs is appendSANsToAltNames: an IP (ParseIPSloppy) goes to the
// IPs, a DNS-1123 subdomain or a wildcard one to the DNS names. Invalid
// names cannot reach it: validate rejected them already.
func appendSANs(dns []string, ips []ip, sans []string) ([]string, []ip) {
	for _, s := range sans {
		if a, ok := parseIP(s, true); ok {
			ips = append(ips, a)
		} else {
			dns = append(dns, s)
		}
	}
	return dns, ips
}

func (in *SANsInput) normalize() error {
	if in.Kind == "" {
		in.Kind = KindAPIServer
	}
	if in.Etcd == "" || in.Etcd == EtcdLocal {
		in.Etcd = EtcdStacked
	}
	if in.ServiceSubnet == "" {
		in.ServiceSubnet = DefaultServiceSubnet
	}
	if in.DNSDomain == "" {
		in.DNSDomain = DefaultDNSDomain
	}
	switch in.Kind {
	case KindAPIServer, KindEtcdServer, KindEtcdPeer:
	default:
		return inputErr("kind", "err.enum", "value", in.Kind, "allowed", "apiserver, etcd-server, etcd-peer")
	}
	switch in.Etcd {
	case EtcdStacked, EtcdExternal:
	default:
		return inputErr("etcd", "err.enum", "value", in.Etcd, "allowed", "stacked, external")
	}
	return nil
}

func (in *SANsInput) validate() error {
	if in.NodeName == "" {
		return inputErr("nodeName", CodeEmpty)
	}
	if !isDNS1123Subdomain(in.NodeName) {
		return inputErr("nodeName", "err.dns1123", "value", in.NodeName)
	}
	if in.AdvertiseAddress == "" {
		return inputErr("advertiseAddress", CodeEmpty)
	}
	if _, ok := parseIP(in.AdvertiseAddress, true); !ok {
		return inputErr("advertiseAddress", "err.ip", "value", in.AdvertiseAddress)
	}
	if in.ControlPlaneEndpoint != "" {
		if _, _, code := parseHostPort(in.ControlPlaneEndpoint); code != "" {
			return inputErr("controlPlaneEndpoint", code, "value", in.ControlPlaneEndpoint)
		}
	}
	if err := validateServiceSubnet(in.ServiceSubnet); err != nil {
		return err
	}
	if !isDNS1123Subdomain(in.DNSDomain) {
		return inputErr("dnsDomain", "err.dns1123", "value", in.DNSDomain)
	}
	for i, s := range in.CertSANs {
		if _, ok := parseIP(s, true); ok || isDNS1123Subdomain(s) || isWildcardDNS1123Subdomain(s) {
			continue
		}
		return inputErr("certSANs["+strconv.Itoa(i)+"]", "err.certsan", "value", s)
	}
	return nil
}

// validateServiceSubnet is ValidateIPNetFromString with
// MinimumAddressesInServiceSubnet, then ValidateServiceSubnetSize.
func validateServiceSubnet(s string) error {
	parts := strings.Split(s, ",")
	nets := make([]cidr, 0, len(parts))
	for _, p := range parts {
		c, ok := parseCIDR(p, true)
		if !ok {
			return inputErr("serviceSubnet", "err.cidr", "value", s)
		}
		nets = append(nets, c)
	}
	if len(nets) > 2 || len(nets) == 2 && nets[0].addr.is4() == nets[1].addr.is4() {
		return inputErr("serviceSubnet", "err.dual-stack", "value", s)
	}
	for _, c := range nets {
		if n := c.rangeSize(); n < minServiceSubnetAddrs {
			return inputErr("serviceSubnet", "err.subnet-small", "value", c.String(),
				"size", strconv.FormatInt(n, 10), "min", strconv.Itoa(minServiceSubnetAddrs))
		}
		if c.bits-c.ones > maxServiceSubnetBits {
			return inputErr("serviceSubnet", "err.subnet-large", "value", c.String(),
				"bits", strconv.Itoa(c.bits), "mask", strconv.Itoa(c.bits-maxServiceSubnetBits))
		}
	}
	return nil
}

// parseHostPort is kubeadmutil.ParseHostPort (cmd/kubeadm/app/util/
// endpoint.go): split off a port if there is one (net.SplitHostPort; when
// that fails the whole string is the host), check the port is 1–65535,
// then accept the host if it is an IP (net.ParseIP, strict) or a DNS-1123
// subdomain. On failure code says why, more precisely than kubeadm's one
// message, so the widget can point at the mistake.
func parseHostPort(s string) (host, port, code string) {
	host, port, ok := splitHostPort(s)
	if !ok {
		host, port = s, ""
	}
	if strings.Contains(s, "://") {
		return "", "", "err.endpoint-scheme"
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", "", "err.endpoint-port"
		}
	}
	if _, ok := parseIP(host, false); ok {
		return host, port, ""
	}
	if isDNS1123Subdomain(host) {
		return host, port, ""
	}
	if isDNS1123Subdomain(toLowerASCII(host)) {
		return "", "", "err.endpoint-case"
	}
	return "", "", "err.endpoint"
}

// splitHostPort is net.SplitHostPort: "host:port", "[ipv6]:port".
func splitHostPort(s string) (host, port string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", "", false
	}
	if s[0] == '[' {
		end := strings.IndexByte(s, ']')
		if end < 0 || end+1 != i {
			return "", "", false
		}
		host = s[1:end]
		if strings.ContainsAny(host, "[]") {
			return "", "", false
		}
		return host, s[i+1:], true
	}
	host = s[:i]
	if strings.ContainsAny(host, ":[]") || strings.ContainsAny(s[i+1:], "[]") {
		return "", "", false
	}
	return host, s[i+1:], true
}

// isDNS1123Subdomain is k8s.io/apimachinery validation.IsDNS1123Subdomain:
// at most 253 characters matching
// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
// (labels are not limited to 63 characters there).
func isDNS1123Subdomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if !isDNS1123Label(label) {
			return false
		}
	}
	return true
}

func isDNS1123Label(l string) bool {
	if l == "" || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// isWildcardDNS1123Subdomain is validation.IsWildcardDNS1123Subdomain: "*."
// followed by a DNS-1123 subdomain, 253 characters at most in all.
func isWildcardDNS1123Subdomain(s string) bool {
	return len(s) <= 253 && strings.HasPrefix(s, "*.") && isDNS1123Subdomain(s[2:])
}
