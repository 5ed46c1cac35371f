package calc

import (
	"strconv"
	"strings"
)

// Topologies for HASimulate.
const (
	TopologyStacked  = "stacked"
	TopologyExternal = "external"
)

// Endpoint kinds.
const (
	EndpointLB   = "lb"
	EndpointNode = "node"
)

// Node is a machine: a control plane or an external etcd member.
type Node struct {
	Name string
	IP   string
}

// Endpoint is the controlPlaneEndpoint that admin.conf and every kubelet's
// kubelet.conf point at: a load balancer, or one node's own address.
type Endpoint struct {
	Kind    string
	Address string
}

// HAInput describes a cluster and what has failed.
type HAInput struct {
	// Topology is TopologyStacked (an etcd member on each control plane,
	// named after it) or TopologyExternal (EtcdMembers on their own nodes).
	Topology      string
	ControlPlanes []Node
	// EtcdMembers are the external etcd nodes; ignored when stacked.
	EtcdMembers []Node
	Endpoint    Endpoint
	// Failed lists failures: a node's name (the machine is down),
	// "etcd@NAME" (only that etcd member), "apiserver@NAME" (only that
	// apiserver), or "lb" (the load balancer).
	Failed []string
}

// HAReason is a Reason about one part of the cluster: "etcd",
// "apiserver@NAME", "endpoint", "kubectl", "kubelets" or "note".
type HAReason struct {
	About string
	Reason
}

// HAResult is the state of the cluster after the failures.
type HAResult struct {
	EtcdMembers      int
	EtcdQuorum       int
	EtcdMembersAlive []string
	EtcdWritable     bool
	// ApiserversServing lists the control planes whose apiserver answers.
	ApiserversServing       []string
	APIReachableViaEndpoint bool
	KubectlWorks            bool
	WorkerKubeletsReachAPI  bool
	Reasons                 []HAReason
}

// HA reason codes.
const (
	HAEtcdQuorum       = "ha.etcd-quorum"
	HAEtcdNoQuorum     = "ha.etcd-no-quorum"
	HAAPIServing       = "ha.apiserver-serving"
	HAAPINodeDown      = "ha.apiserver-node-down"
	HAAPIFailed        = "ha.apiserver-failed"
	HAAPILocalEtcdDown = "ha.apiserver-local-etcd-down"
	HAAPINoQuorum      = "ha.apiserver-etcd-no-quorum"
	HALBUp             = "ha.lb-up"
	HALBDown           = "ha.lb-down"
	HALBNoBackend      = "ha.lb-no-backend"
	HANodeEndpointUp   = "ha.node-endpoint-up"
	HANodeEndpointDown = "ha.node-endpoint-down"
	HANodeEndpointSPOF = "ha.node-endpoint-spof"
	HAKubectlOK        = "ha.kubectl-ok"
	HAKubectlFails     = "ha.kubectl-fails"
	HAKubeletsOK       = "ha.kubelets-ok"
	HAKubeletsFail     = "ha.kubelets-fail"
	HADirectDial       = "ha.direct-dial"
)

// DefaultHAInput is the simulator's starting cluster: three stacked
// control planes behind a load balancer, nothing failed.
func DefaultHAInput() HAInput {
	return HAInput{
		Topology:      TopologyStacked,
		ControlPlanes: []Node{{"cp-1", "10.0.0.11"}, {"cp-2", "10.0.0.12"}, {"cp-3", "10.0.0.13"}},
		Endpoint:      Endpoint{Kind: EndpointLB, Address: "10.0.0.100:6443"},
	}
}

// DefaultEtcdMembers are the external etcd nodes used when the topology is
// external and none are given.
func DefaultEtcdMembers() []Node {
	return []Node{{"etcd-1", "10.0.0.21"}, {"etcd-2", "10.0.0.22"}, {"etcd-3", "10.0.0.23"}}
}

// HASimulate works out what still works after in.Failed, by these rules:
//
//   - etcd accepts writes while at least ⌊M/2⌋+1 of its M members are alive
//     (Quorum).
//   - A stacked apiserver is configured by kubeadm with
//     --etcd-servers=https://127.0.0.1:2379, its local member only: it
//     serves when its node and its local member are up and etcd is
//     writable. An external-topology apiserver lists every etcd member and
//     serves when etcd is writable. None serves without a writable etcd.
//   - admin.conf (kubectl) and every kubelet.conf point at the
//     controlPlaneEndpoint. Through a load balancer the API is reachable
//     while the balancer is up and at least one apiserver serves; through
//     one node's address, only while that node's apiserver serves.
//   - TLS through the endpoint passes: kubeadm writes the endpoint's host
//     into every apiserver certificate it makes.
func HASimulate(in HAInput) (HAResult, error) {
	if err := in.normalize(); err != nil {
		return HAResult{}, err
	}
	f, err := in.failures()
	if err != nil {
		return HAResult{}, err
	}
	r := HAResult{EtcdMembers: len(f.members), EtcdQuorum: QuorumOf(len(f.members)), EtcdMembersAlive: []string{}, ApiserversServing: []string{}}
	s := &haSim{in: &in, f: f, r: &r}
	s.etcd()
	s.apiservers()
	s.endpoint()
	s.clients()
	return r, nil
}

// haFailures is what in.Failed takes down.
type haFailures struct {
	cpDown, apiFailed, etcdDown map[string]bool
	lbDown                      bool
	cpByName                    map[string]Node
	members                     []Node // the etcd members: the control planes when stacked
}

// failures reads in.Failed, refusing a name the topology lacks.
func (in *HAInput) failures() (*haFailures, error) {
	f := &haFailures{cpDown: map[string]bool{}, apiFailed: map[string]bool{}, etcdDown: map[string]bool{}, cpByName: map[string]Node{}}
	for _, n := range in.ControlPlanes {
		f.cpByName[n.Name] = n
	}
	f.members = in.EtcdMembers
	if in.Topology == TopologyStacked {
		f.members = in.ControlPlanes
	}
	memberByName := map[string]bool{}
	for _, m := range f.members {
		memberByName[m.Name] = true
	}
	for i, name := range in.Failed {
		field := "failed[" + strconv.Itoa(i) + "]"
		switch {
		case name == "lb":
			if in.Endpoint.Kind != EndpointLB {
				return nil, inputErr(field, "err.no-lb", "value", name)
			}
			f.lbDown = true
		case strings.HasPrefix(name, "etcd@"):
			if !memberByName[name[len("etcd@"):]] {
				return nil, inputErr(field, "err.unknown-member", "value", name)
			}
			f.etcdDown[name[len("etcd@"):]] = true
		case strings.HasPrefix(name, "apiserver@"):
			if _, ok := f.cpByName[name[len("apiserver@"):]]; !ok {
				return nil, inputErr(field, "err.unknown-node", "value", name)
			}
			f.apiFailed[name[len("apiserver@"):]] = true
		default:
			if _, ok := f.cpByName[name]; ok {
				f.cpDown[name] = true
				if in.Topology == TopologyStacked {
					f.etcdDown[name] = true
				}
			} else if memberByName[name] {
				f.etcdDown[name] = true
			} else {
				return nil, inputErr(field, "err.unknown-node", "value", name)
			}
		}
	}
	return f, nil
}

// haSim is one run of HASimulate, filling r step by step.
type haSim struct {
	in      *HAInput
	f       *haFailures
	r       *HAResult
	serving map[string]bool // control planes whose apiserver serves
}

func (s *haSim) add(about, code string, kv ...string) {
	s.r.Reasons = append(s.r.Reasons, HAReason{About: about, Reason: R(code, kv...)})
}

// etcd decides whether etcd keeps its quorum.
func (s *haSim) etcd() {
	r := s.r
	for _, m := range s.f.members {
		if !s.f.etcdDown[m.Name] {
			r.EtcdMembersAlive = append(r.EtcdMembersAlive, m.Name)
		}
	}
	r.EtcdWritable = len(r.EtcdMembersAlive) >= r.EtcdQuorum
	code := HAEtcdNoQuorum
	if r.EtcdWritable {
		code = HAEtcdQuorum
	}
	s.add("etcd", code, "alive", strconv.Itoa(len(r.EtcdMembersAlive)), "members", strconv.Itoa(len(s.f.members)), "quorum", strconv.Itoa(r.EtcdQuorum))
}

// apiservers decides which apiservers serve.
func (s *haSim) apiservers() {
	r, f := s.r, s.f
	alive, q := strconv.Itoa(len(r.EtcdMembersAlive)), strconv.Itoa(r.EtcdQuorum)
	s.serving = map[string]bool{}
	for _, cp := range s.in.ControlPlanes {
		about := "apiserver@" + cp.Name
		switch {
		case f.cpDown[cp.Name]:
			s.add(about, HAAPINodeDown, "node", cp.Name)
		case f.apiFailed[cp.Name]:
			s.add(about, HAAPIFailed, "node", cp.Name)
		case s.in.Topology == TopologyStacked && f.etcdDown[cp.Name]:
			s.add(about, HAAPILocalEtcdDown, "node", cp.Name)
		case !r.EtcdWritable:
			s.add(about, HAAPINoQuorum, "node", cp.Name, "alive", alive, "quorum", q)
		default:
			s.serving[cp.Name] = true
			r.ApiserversServing = append(r.ApiserversServing, cp.Name)
			s.add(about, HAAPIServing, "node", cp.Name)
		}
	}
}

// endpoint decides whether the API answers through the endpoint.
func (s *haSim) endpoint() {
	r, ep := s.r, s.in.Endpoint.Address
	if s.in.Endpoint.Kind == EndpointLB {
		switch {
		case s.f.lbDown:
			s.add("endpoint", HALBDown, "endpoint", ep)
		case len(r.ApiserversServing) == 0:
			s.add("endpoint", HALBNoBackend, "endpoint", ep)
		default:
			r.APIReachableViaEndpoint = true
			s.add("endpoint", HALBUp, "endpoint", ep, "backends", strings.Join(r.ApiserversServing, ", "))
		}
		return
	}
	target := s.in.endpointNode()
	s.add("endpoint", HANodeEndpointSPOF, "endpoint", ep, "node", target)
	if s.serving[target] {
		r.APIReachableViaEndpoint = true
		s.add("endpoint", HANodeEndpointUp, "endpoint", ep, "node", target)
	} else {
		s.add("endpoint", HANodeEndpointDown, "endpoint", ep, "node", target)
	}
}

// clients decides whether kubectl and the kubelets reach the API.
func (s *haSim) clients() {
	r, ep := s.r, s.in.Endpoint.Address
	r.KubectlWorks = r.APIReachableViaEndpoint
	r.WorkerKubeletsReachAPI = r.APIReachableViaEndpoint
	if r.KubectlWorks {
		s.add("kubectl", HAKubectlOK, "endpoint", ep)
		s.add("kubelets", HAKubeletsOK, "endpoint", ep)
		return
	}
	s.add("kubectl", HAKubectlFails, "endpoint", ep)
	s.add("kubelets", HAKubeletsFail, "endpoint", ep)
	if len(r.ApiserversServing) > 0 {
		other := s.f.cpByName[r.ApiserversServing[0]]
		s.add("note", HADirectDial, "node", other.Name, "ip", other.IP, "serving", strings.Join(r.ApiserversServing, ", "))
	}
}

// endpointNode is the control plane a node endpoint points at.
func (in *HAInput) endpointNode() string {
	host := in.Endpoint.Address
	if h, _, ok := splitHostPort(host); ok {
		host = h
	}
	for _, cp := range in.ControlPlanes {
		if cp.Name == host {
			return cp.Name
		}
		a, ok1 := parseIP(cp.IP, true)
		b, ok2 := parseIP(host, true)
		if ok1 && ok2 && a == b {
			return cp.Name
		}
	}
	return ""
}

func (in *HAInput) normalize() error {
	d := DefaultHAInput()
	if in.Topology == "" {
		in.Topology = d.Topology
	}
	if in.Topology != TopologyStacked && in.Topology != TopologyExternal {
		return inputErr("topology", "err.enum", "value", in.Topology, "allowed", "stacked, external")
	}
	if in.ControlPlanes == nil {
		in.ControlPlanes = d.ControlPlanes
	}
	if len(in.ControlPlanes) == 0 {
		return inputErr("controlPlanes", "err.required")
	}
	if in.Topology == TopologyExternal && in.EtcdMembers == nil {
		in.EtcdMembers = DefaultEtcdMembers()
	}
	if in.Topology == TopologyExternal && len(in.EtcdMembers) == 0 {
		return inputErr("etcdMembers", "err.required")
	}
	if in.Endpoint.Kind == "" {
		in.Endpoint.Kind = EndpointLB
	}
	seen := map[string]bool{"lb": true}
	check := func(list string, nodes []Node) error {
		for i, n := range nodes {
			field := list + "[" + strconv.Itoa(i) + "]"
			if !isDNS1123Subdomain(n.Name) {
				return inputErr(field+".name", "err.dns1123", "value", n.Name)
			}
			if seen[n.Name] {
				return inputErr(field+".name", "err.duplicate", "value", n.Name)
			}
			seen[n.Name] = true
			if n.IP != "" {
				if _, ok := parseIP(n.IP, true); !ok {
					return inputErr(field+".ip", "err.ip", "value", n.IP)
				}
			}
		}
		return nil
	}
	if err := check("controlPlanes", in.ControlPlanes); err != nil {
		return err
	}
	if in.Topology == TopologyExternal {
		if err := check("etcdMembers", in.EtcdMembers); err != nil {
			return err
		}
	}
	switch in.Endpoint.Kind {
	case EndpointLB:
		if in.Endpoint.Address == "" {
			in.Endpoint.Address = d.Endpoint.Address
		}
	case EndpointNode:
		if in.Endpoint.Address == "" {
			cp := in.ControlPlanes[0]
			in.Endpoint.Address = cp.IP
			if cp.IP == "" {
				in.Endpoint.Address = cp.Name
			}
			in.Endpoint.Address += ":6443"
		}
		if in.endpointNode() == "" {
			return inputErr("endpoint.address", "err.endpoint-node", "value", in.Endpoint.Address)
		}
	default:
		return inputErr("endpoint.kind", "err.enum", "value", in.Endpoint.Kind, "allowed", "lb, node")
	}
	return nil
}
