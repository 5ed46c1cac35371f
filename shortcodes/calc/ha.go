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
	cpDown := map[string]bool{}
	apiFailed := map[string]bool{}
	etcdDown := map[string]bool{}
	lbDown := false
	cpByName := map[string]Node{}
	for _, n := range in.ControlPlanes {
		cpByName[n.Name] = n
	}
	members := in.EtcdMembers
	if in.Topology == TopologyStacked {
		members = in.ControlPlanes
	}
	memberByName := map[string]bool{}
	for _, m := range members {
		memberByName[m.Name] = true
	}
	for i, f := range in.Failed {
		field := "failed[" + strconv.Itoa(i) + "]"
		switch {
		case f == "lb":
			if in.Endpoint.Kind != EndpointLB {
				return HAResult{}, inputErr(field, "err.no-lb", "value", f)
			}
			lbDown = true
		case strings.HasPrefix(f, "etcd@"):
			name := f[len("etcd@"):]
			if !memberByName[name] {
				return HAResult{}, inputErr(field, "err.unknown-member", "value", f)
			}
			etcdDown[name] = true
		case strings.HasPrefix(f, "apiserver@"):
			name := f[len("apiserver@"):]
			if _, ok := cpByName[name]; !ok {
				return HAResult{}, inputErr(field, "err.unknown-node", "value", f)
			}
			apiFailed[name] = true
		default:
			if _, ok := cpByName[f]; ok {
				cpDown[f] = true
				if in.Topology == TopologyStacked {
					etcdDown[f] = true
				}
			} else if memberByName[f] {
				etcdDown[f] = true
			} else {
				return HAResult{}, inputErr(field, "err.unknown-node", "value", f)
			}
		}
	}

	r := HAResult{EtcdMembers: len(members), EtcdQuorum: QuorumOf(len(members)), EtcdMembersAlive: []string{}, ApiserversServing: []string{}}
	for _, m := range members {
		if !etcdDown[m.Name] {
			r.EtcdMembersAlive = append(r.EtcdMembersAlive, m.Name)
		}
	}
	r.EtcdWritable = len(r.EtcdMembersAlive) >= r.EtcdQuorum
	alive, total, q := strconv.Itoa(len(r.EtcdMembersAlive)), strconv.Itoa(len(members)), strconv.Itoa(r.EtcdQuorum)
	add := func(about, code string, kv ...string) {
		r.Reasons = append(r.Reasons, HAReason{About: about, Reason: R(code, kv...)})
	}
	if r.EtcdWritable {
		add("etcd", HAEtcdQuorum, "alive", alive, "members", total, "quorum", q)
	} else {
		add("etcd", HAEtcdNoQuorum, "alive", alive, "members", total, "quorum", q)
	}

	serving := map[string]bool{}
	for _, cp := range in.ControlPlanes {
		about := "apiserver@" + cp.Name
		switch {
		case cpDown[cp.Name]:
			add(about, HAAPINodeDown, "node", cp.Name)
		case apiFailed[cp.Name]:
			add(about, HAAPIFailed, "node", cp.Name)
		case in.Topology == TopologyStacked && etcdDown[cp.Name]:
			add(about, HAAPILocalEtcdDown, "node", cp.Name)
		case !r.EtcdWritable:
			add(about, HAAPINoQuorum, "node", cp.Name, "alive", alive, "quorum", q)
		default:
			serving[cp.Name] = true
			r.ApiserversServing = append(r.ApiserversServing, cp.Name)
			add(about, HAAPIServing, "node", cp.Name)
		}
	}

	ep := in.Endpoint.Address
	if in.Endpoint.Kind == EndpointLB {
		switch {
		case lbDown:
			add("endpoint", HALBDown, "endpoint", ep)
		case len(r.ApiserversServing) == 0:
			add("endpoint", HALBNoBackend, "endpoint", ep)
		default:
			r.APIReachableViaEndpoint = true
			add("endpoint", HALBUp, "endpoint", ep, "backends", strings.Join(r.ApiserversServing, ", "))
		}
	} else {
		target := in.endpointNode()
		add("endpoint", HANodeEndpointSPOF, "endpoint", ep, "node", target)
		if serving[target] {
			r.APIReachableViaEndpoint = true
			add("endpoint", HANodeEndpointUp, "endpoint", ep, "node", target)
		} else {
			add("endpoint", HANodeEndpointDown, "endpoint", ep, "node", target)
		}
	}
	r.KubectlWorks = r.APIReachableViaEndpoint
	r.WorkerKubeletsReachAPI = r.APIReachableViaEndpoint
	if r.KubectlWorks {
		add("kubectl", HAKubectlOK, "endpoint", ep)
		add("kubelets", HAKubeletsOK, "endpoint", ep)
	} else {
		add("kubectl", HAKubectlFails, "endpoint", ep)
		add("kubelets", HAKubeletsFail, "endpoint", ep)
		if len(r.ApiserversServing) > 0 {
			other := cpByName[r.ApiserversServing[0]]
			add("note", HADirectDial, "node", other.Name, "ip", other.IP, "serving", strings.Join(r.ApiserversServing, ", "))
		}
	}
	return r, nil
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
