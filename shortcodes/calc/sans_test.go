package calc

import (
	"slices"
	"testing"
)

// TestSANsKubeadmDefaulting covers the defaulting kubeadm init and join
// apply before validation, and the order and deduplication of the names
// kubeadm writes into the certificate. Each case names the kubeadm source
// (kubernetes/kubernetes) it follows.
func TestSANsKubeadmDefaulting(t *testing.T) {
	for _, c := range []struct {
		name     string
		source   string
		in       SANsInput
		dns, ips []string
		node     string
		endpoint string
		lowered  []string // the fields of the sans.lowercased warnings
		errField string
		errCode  string
	}{
		{name: "node name lowercased and trimmed",
			source: "cmd/kubeadm/app/util/config/initconfiguration.go SetNodeRegistrationDynamicDefaults → nodeutil.GetHostname",
			in:     SANsInput{NodeName: " CP-1 ", AdvertiseAddress: "10.0.0.11"},
			dns:    []string{"cp-1", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
			ips:    []string{"10.96.0.1", "10.0.0.11"}, node: "cp-1", lowered: []string{"nodeName"}},
		{name: "node name still validated after lowering",
			source: "cmd/kubeadm/app/apis/kubeadm/validation/validation.go ValidateNodeRegistrationOptions",
			in:     SANsInput{NodeName: "CP.1_", AdvertiseAddress: "10.0.0.11"}, errField: "nodeName", errCode: "err.dns1123"},
		{name: "apiserver certSANs lowercased, duplicates of defaults dropped",
			source: "cmd/kubeadm/app/util/config/initconfiguration.go SetClusterDynamicDefaults → common.go LowercaseSANs; pki_helpers.go RemoveDuplicateAltNames",
			in: SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", ControlPlaneEndpoint: "lb",
				CertSANs: []string{"Kubernetes", "LB", "10.0.0.11", "10.96.0.1"}},
			dns: []string{"cp-1", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local", "lb"},
			ips: []string{"10.96.0.1", "10.0.0.11"}, node: "cp-1", endpoint: "lb:6443",
			lowered: []string{"certSANs[0]", "certSANs[1]"}},
		{name: "certSANs validated after lowering",
			source:   "validation.go ValidateCertSANs",
			in:       SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", CertSANs: []string{"LB", "Bad_Name"}},
			errField: "certSANs[1]", errCode: "err.certsan"},
		{name: "etcd SANs are not lowered",
			source:   "initconfiguration.go SetClusterDynamicDefaults lowers only APIServer.CertSANs; validation.go ValidateEtcd → ValidateCertSANs",
			in:       SANsInput{Kind: KindEtcdServer, NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", CertSANs: []string{"Etcd"}},
			errField: "certSANs[0]", errCode: "err.certsan"},
		{name: "endpoint host not lowered: ParseHostPort fails in defaulting",
			source:   "initconfiguration.go SetClusterDynamicDefaults → cmd/kubeadm/app/util/endpoint.go ParseHostPort",
			in:       SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", ControlPlaneEndpoint: "LB:6443"},
			errField: "controlPlaneEndpoint", errCode: "err.endpoint-case"},
		{name: "IPv6 endpoint gets the bind port in brackets",
			source: "initconfiguration.go SetClusterDynamicDefaults: net.JoinHostPort(host, bindPort)",
			in:     SANsInput{NodeName: "cp-1", AdvertiseAddress: "fd00::11", ControlPlaneEndpoint: "fd00::100", ServiceSubnet: "fd00:96::/108"},
			dns:    []string{"cp-1", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
			ips:    []string{"fd00:96::1", "fd00::11", "fd00::100"}, node: "cp-1", endpoint: "[fd00::100]:6443"},
		{name: "IPs in GetAPIServerAltNames order: VIP, advertise, endpoint, certSANs; first of a duplicate kept",
			source: "pki_helpers.go GetAPIServerAltNames, appendSANsToAltNames, RemoveDuplicateAltNames",
			in: SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", ControlPlaneEndpoint: "10.0.0.100",
				CertSANs: []string{"192.168.1.1", "::ffff:10.0.0.11", "1.1.1.1", "10.0.0.100"}},
			dns: []string{"cp-1", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
			ips: []string{"10.96.0.1", "10.0.0.11", "10.0.0.100", "192.168.1.1", "1.1.1.1"}, node: "cp-1", endpoint: "10.0.0.100:6443"},
		{name: "DNS names sorted (sets.List) and deduplicated",
			source: "pki_helpers.go RemoveDuplicateAltNames",
			in:     SANsInput{NodeName: "zz", AdvertiseAddress: "10.0.0.11", CertSANs: []string{"aa", "zz", "*.b", "aa"}},
			dns:    []string{"*.b", "aa", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local", "zz"},
			ips:    []string{"10.96.0.1", "10.0.0.11"}, node: "zz"},
		{name: "etcd peer: advertise, 127.0.0.1, ::1, then the SANs; no apiserver names",
			source: "pki_helpers.go getAltNames",
			in:     SANsInput{Kind: KindEtcdPeer, NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", CertSANs: []string{"10.0.0.1", "127.0.0.1"}},
			dns:    []string{"cp-1", "localhost"}, ips: []string{"10.0.0.11", "127.0.0.1", "::1", "10.0.0.1"}, node: "cp-1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := SANs(c.in)
			if c.errCode != "" {
				ie, ok := err.(*InputError)
				if !ok || ie.Field != c.errField || ie.Reason.Code != c.errCode {
					t.Fatalf("%s: err %v, want %s %s", c.source, err, c.errField, c.errCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", c.source, err)
			}
			if !slices.Equal(r.DNS, c.dns) || !slices.Equal(r.IPs, c.ips) {
				t.Errorf("%s:\n dns %q, want %q\n ips %q, want %q", c.source, r.DNS, c.dns, r.IPs, c.ips)
			}
			if r.NodeName != c.node || r.ControlPlaneEndpoint != c.endpoint {
				t.Errorf("%s: defaulted node %q endpoint %q, want %q %q", c.source, r.NodeName, r.ControlPlaneEndpoint, c.node, c.endpoint)
			}
			var lowered []string
			for _, w := range r.Warnings {
				if w.Code == WarnLowercased {
					lowered = append(lowered, w.Args["field"])
				}
			}
			if !slices.Equal(lowered, c.lowered) {
				t.Errorf("%s: lowercased %q, want %q", c.source, lowered, c.lowered)
			}
		})
	}
}

// TestInputNotMutated: defaulting works on a copy of the caller's slice.
func TestSANsInputNotMutated(t *testing.T) {
	sans := []string{"LB"}
	if _, err := SANs(SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.1", CertSANs: sans}); err != nil {
		t.Fatal(err)
	}
	if sans[0] != "LB" {
		t.Errorf("caller's certSANs changed to %q", sans)
	}
}

// TestSANsEtcdMode covers the etcd mode: which certificates kubeadm makes
// at all, and what the SAN calculator answers for each kind. The source
// is kubernetes/kubernetes at v1.34.0.
func TestSANsEtcdMode(t *testing.T) {
	const (
		certlist = "v1.34.0 cmd/kubeadm/app/phases/certs/certlist.go"
		initCert = "v1.34.0 cmd/kubeadm/app/cmd/phases/init/certs.go runCertPhase (skips the etcd CA's certificates when cfg.Etcd.External != nil)"
	)
	all := []string{"ca", "apiserver", "apiserver-kubelet-client", "front-proxy-ca", "front-proxy-client",
		"etcd-ca", "etcd-server", "etcd-peer", "etcd-healthcheck-client", "apiserver-etcd-client"}
	withoutEtcd := []string{"ca", "apiserver", "apiserver-kubelet-client", "front-proxy-ca", "front-proxy-client"}
	apiDNS := []string{"cp-1", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}
	for _, c := range []struct {
		name     string
		source   string
		in       SANsInput
		created  bool
		dns, ips []string
		certs    []string
		etcd     string
		warn     string // the last warning's code
		errCode  string
	}{
		{name: "stacked by default: every certificate, etcd's included",
			source:  certlist + " GetDefaultCertList",
			in:      SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.11"},
			created: true, dns: apiDNS, ips: []string{"10.96.0.1", "10.0.0.11"}, certs: all, etcd: EtcdStacked, warn: WarnPerNodeCert},
		{name: "local is kubeadm's name of stacked",
			source:  "v1.34.0 cmd/kubeadm/app/apis/kubeadm/types.go Etcd.Local",
			in:      SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", Etcd: EtcdLocal},
			created: true, dns: apiDNS, ips: []string{"10.96.0.1", "10.0.0.11"}, certs: all, etcd: EtcdStacked, warn: WarnPerNodeCert},
		{name: "stacked etcd server: kubeadm's getAltNames",
			source:  certlist + " KubeadmCertEtcdServer → pkiutil GetEtcdAltNames",
			in:      SANsInput{Kind: KindEtcdServer, NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", Etcd: EtcdStacked},
			created: true, dns: []string{"cp-1", "localhost"}, ips: []string{"10.0.0.11", "127.0.0.1", "::1"}, certs: all, etcd: EtcdStacked},
		{name: "external: the apiserver certificate is the same, no etcd certificate and no apiserver-etcd-client",
			source:  certlist + " GetCertsWithoutEtcd, chosen by certs.go CreatePKIAssets when cfg.Etcd.Local == nil",
			in:      SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", Etcd: EtcdExternal},
			created: true, dns: apiDNS, ips: []string{"10.96.0.1", "10.0.0.11"}, certs: withoutEtcd, etcd: EtcdExternal, warn: WarnPerNodeCertExternal},
		{name: "external etcd server: kubeadm makes none",
			source:  initCert,
			in:      SANsInput{Kind: KindEtcdServer, NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", Etcd: EtcdExternal},
			created: false, dns: []string{}, ips: []string{}, certs: withoutEtcd, etcd: EtcdExternal, warn: WarnEtcdExternal},
		{name: "external etcd peer: kubeadm makes none",
			source:  initCert,
			in:      SANsInput{Kind: KindEtcdPeer, NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", Etcd: EtcdExternal, CertSANs: []string{"etcd.lab"}},
			created: false, dns: []string{}, ips: []string{}, certs: withoutEtcd, etcd: EtcdExternal, warn: WarnEtcdExternal},
		{name: "an unknown mode",
			source: "v1.34.0 cmd/kubeadm/app/apis/kubeadm/validation/validation.go ValidateEtcd (local or external)",
			in:     SANsInput{NodeName: "cp-1", AdvertiseAddress: "10.0.0.11", Etcd: "sidecar"}, errCode: "err.enum"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := SANs(c.in)
			if c.errCode != "" {
				if ie, ok := err.(*InputError); !ok || ie.Field != "etcd" || ie.Reason.Code != c.errCode {
					t.Fatalf("%s: err %v, want etcd %s", c.source, err, c.errCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", c.source, err)
			}
			var certs []string
			for _, k := range r.Certificates {
				certs = append(certs, k.Name)
			}
			if r.Created != c.created || !slices.Equal(r.DNS, c.dns) || !slices.Equal(r.IPs, c.ips) || r.Etcd != c.etcd {
				t.Errorf("%s:\n created %v dns %q ips %q etcd %q\n want %v %q %q %q", c.source, r.Created, r.DNS, r.IPs, r.Etcd, c.created, c.dns, c.ips, c.etcd)
			}
			if !slices.Equal(certs, c.certs) {
				t.Errorf("%s: certificates %q, want %q", c.source, certs, c.certs)
			}
			last := ""
			if n := len(r.Warnings); n > 0 {
				last = r.Warnings[n-1].Code
			}
			if last != c.warn {
				t.Errorf("%s: last warning %q, want %q", c.source, last, c.warn)
			}
		})
	}
	// Every certificate GetCertsWithoutEtcd leaves out is one of the etcd
	// CA's, or that CA.
	for _, k := range KubeadmCerts(EtcdStacked) {
		external := slices.ContainsFunc(KubeadmCerts(EtcdExternal), func(e KubeadmCert) bool { return e == k })
		if etcd := k.Name == "etcd-ca" || k.CA == "etcd-ca"; etcd == external {
			t.Errorf("%s (CA %q): in the external list %v", k.Name, k.CA, external)
		}
	}
}
