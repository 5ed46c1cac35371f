// Package diagram draws Kubernetes high-availability cluster topologies
// (stacked or external etcd, a load balancer or a single node as the API
// endpoint, worker nodes, failed nodes and components) as inline SVG.
//
// It is pure Go with no I/O, so that the topology shortcode and the HA
// failure simulator widget draw the same picture from the same Spec. Both
// draw at build time: the simulator one diagram per endpoint kind, of
// which its script in the browser shows one and marks the nodes down or
// up. Output is deterministic: the same Spec and Labels give the same
// bytes.
package diagram

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Topology types accepted in Spec.Type.
const (
	Stacked  = "stacked"  // etcd runs on every control plane node
	External = "external" // etcd runs on separate nodes
)

// Endpoint kinds accepted in Spec.Endpoint.
const (
	EndpointLB   = "lb"   // a load balancer in front of the apiservers
	EndpointNode = "node" // clients point at cp-1's own address
)

// Limits on counts and label lengths.
const (
	MaxNodes    = 9  // most control planes, etcd members or workers drawn
	MaxLabelLen = 64 // longest address or endpoint label, in characters
)

// Spec describes one cluster topology to draw.
type Spec struct {
	Type          string // Stacked or External
	ControlPlanes int    // 1..9
	// Etcd is the number of separate etcd members of an external topology
	// (1..9); a stacked topology ignores it (one member per control plane).
	Etcd     int
	Workers  int    // 0..9
	Endpoint string // EndpointLB or EndpointNode
	// EndpointAddr optionally labels the endpoint, for example
	// "10.0.0.120:6443" or "LOAD_BALANCER_DNS:6443".
	EndpointAddr string
	// Down lists failed nodes ("cp-1", "etcd-2", "lb", "worker-1") and
	// failed components of a control plane ("apiserver@cp-2", and for a
	// stacked topology "etcd@cp-2").
	Down []string
	// Addrs optionally labels nodes with an address: "cp-1" → "10.0.0.120".
	Addrs map[string]string
	// OldAddrs optionally gives a node's previous address, drawn struck
	// through beside the current one: "cp-1" → "10.0.0.111".
	OldAddrs map[string]string
	// Interactive makes every node and component a focusable toggle
	// button carrying data-node and aria-pressed (true when down).
	Interactive bool
	// IDPrefix, if set, starts the element ids instead of "topo"; set it
	// (for example "topo-2") when one page shows two identical specs.
	IDPrefix string
	// NoStyle leaves out the diagram's <style>: a page needs it once, in
	// its first diagram, since an inline SVG's styles apply to the page.
	NoStyle bool
}

// Validate reports every problem of s, each naming the field at fault, for
// example `controlPlanes must be between 1 and 9, got 0`. Several problems
// are joined with errors.Join; unwrap with interface{ Unwrap() []error }.
func (s Spec) Validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	typeOK := s.Type == Stacked || s.Type == External
	if !typeOK {
		add("type must be %q or %q, got %q", Stacked, External, s.Type)
	}
	cpOK := s.ControlPlanes >= 1 && s.ControlPlanes <= MaxNodes
	if !cpOK {
		add("controlPlanes must be between 1 and %d, got %d", MaxNodes, s.ControlPlanes)
	}
	etcdOK := true
	if s.Type == External && (s.Etcd < 1 || s.Etcd > MaxNodes) {
		etcdOK = false
		add("etcd must be between 1 and %d for an external topology, got %d", MaxNodes, s.Etcd)
	}
	workersOK := s.Workers >= 0 && s.Workers <= MaxNodes
	if !workersOK {
		add("workers must be between 0 and %d, got %d", MaxNodes, s.Workers)
	}
	endpointOK := s.Endpoint == EndpointLB || s.Endpoint == EndpointNode
	if !endpointOK {
		add("endpoint must be %q or %q, got %q", EndpointLB, EndpointNode, s.Endpoint)
	}
	if n := len([]rune(s.EndpointAddr)); n > MaxLabelLen {
		add("endpointAddr must be at most %d characters, got %d", MaxLabelLen, n)
	}
	if s.IDPrefix != "" && !validIDPrefix(s.IDPrefix) {
		add("idPrefix must start with a letter and hold only letters, digits, \"-\" and \"_\", got %q", s.IDPrefix)
	}
	// Node ids can only be checked against counts that are themselves valid.
	if typeOK && cpOK && etcdOK && workersOK && endpointOK {
		seen := map[string]bool{}
		for _, id := range s.Down {
			if seen[id] {
				add("down: %q is listed twice", id)
				continue
			}
			seen[id] = true
			if msg := s.checkID(id, true); msg != "" {
				add("down: %s", msg)
			}
		}
		for _, field := range []struct {
			name string
			m    map[string]string
		}{{"addrs", s.Addrs}, {"oldAddrs", s.OldAddrs}} {
			for _, id := range slices.Sorted(maps.Keys(field.m)) {
				if msg := s.checkID(id, false); msg != "" {
					add("%s: %s", field.name, msg)
					continue
				}
				if n := len([]rune(field.m[id])); n > MaxLabelLen {
					add("%s: address of %q must be at most %d characters, got %d", field.name, id, MaxLabelLen, n)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// checkID explains why id names no node (or, if components is true, no
// component) of s; it returns "" for a valid id.
func (s Spec) checkID(id string, components bool) string {
	if comp, node, ok := strings.Cut(id, "@"); ok {
		if !components {
			return fmt.Sprintf("no node %q (components such as %q have no address of their own)", id, id)
		}
		n, isCP := index(node, "cp-")
		switch {
		case comp != "apiserver" && comp != "etcd":
			return fmt.Sprintf("no component %q (want apiserver@cp-N or etcd@cp-N)", id)
		case !isCP:
			return fmt.Sprintf("no component %q (components belong to control planes, cp-N)", id)
		case comp == "etcd" && s.Type == External:
			return fmt.Sprintf("no component %q (external etcd runs on %s)", id, span("etcd-", s.Etcd))
		case n < 1 || n > s.ControlPlanes:
			return fmt.Sprintf("no component %q (control planes are %s)", id, span("cp-", s.ControlPlanes))
		}
		return ""
	}
	if id == "lb" {
		if s.Endpoint != EndpointLB {
			return fmt.Sprintf("no node %q (endpoint is %q: there is no load balancer)", id, s.Endpoint)
		}
		return ""
	}
	if n, ok := index(id, "cp-"); ok {
		if n < 1 || n > s.ControlPlanes {
			return fmt.Sprintf("no node %q (control planes are %s)", id, span("cp-", s.ControlPlanes))
		}
		return ""
	}
	if n, ok := index(id, "etcd-"); ok {
		if s.Type == Stacked {
			return fmt.Sprintf("no node %q (stacked etcd runs inside the control planes: use etcd@cp-N)", id)
		}
		if n < 1 || n > s.Etcd {
			return fmt.Sprintf("no node %q (etcd members are %s)", id, span("etcd-", s.Etcd))
		}
		return ""
	}
	if n, ok := index(id, "worker-"); ok {
		if s.Workers == 0 {
			return fmt.Sprintf("no node %q (there are no workers)", id)
		}
		if n < 1 || n > s.Workers {
			return fmt.Sprintf("no node %q (workers are %s)", id, span("worker-", s.Workers))
		}
		return ""
	}
	want := "cp-N, worker-N, lb"
	if s.Type == External {
		want = "cp-N, etcd-N, worker-N, lb"
	}
	if components {
		want += ", apiserver@cp-N"
		if s.Type == Stacked {
			want += ", etcd@cp-N"
		}
	}
	return fmt.Sprintf("no node %q (want one of %s)", id, want)
}

// index parses "cp-3" with prefix "cp-" as 3.
func index(id, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(id, prefix)
	if !ok || rest == "" || len(rest) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || rest[0] < '1' || rest[0] > '9' {
		return 0, false
	}
	return n, true
}

// span names the ids prefix1..prefixN.
func span(prefix string, n int) string {
	if n == 1 {
		return prefix + "1"
	}
	return fmt.Sprintf("%s1..%s%d", prefix, prefix, n)
}

func validIDPrefix(p string) bool {
	for i, r := range p {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i == 0 && !letter {
			return false
		}
		if !letter && !(r >= '0' && r <= '9') && r != '-' && r != '_' {
			return false
		}
	}
	return true
}

// isDown reports whether id is listed in s.Down.
func (s Spec) isDown(id string) bool {
	for _, d := range s.Down {
		if d == id {
			return true
		}
	}
	return false
}

// ParseDown splits a comma-separated list of failed node ids, such as
// "cp-1, etcd@cp-2", trimming spaces and dropping empty items.
func ParseDown(list string) []string { return SplitList(list) }

// SplitList splits a comma-separated list, trimming spaces and dropping
// empty items.
func SplitList(list string) []string {
	var items []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f != "" {
			items = append(items, f)
		}
	}
	return items
}

// ParseAddrs parses comma-separated id=address pairs, such as
// "cp-1=10.0.0.120, cp-2=10.0.0.12". It returns nil for an empty list.
func ParseAddrs(list string) (map[string]string, error) {
	var m map[string]string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		id, addr, ok := strings.Cut(f, "=")
		id, addr = strings.TrimSpace(id), strings.TrimSpace(addr)
		if !ok || id == "" || addr == "" {
			return nil, fmt.Errorf("%q is not of the form node=address", f)
		}
		if m == nil {
			m = map[string]string{}
		}
		if _, dup := m[id]; dup {
			return nil, fmt.Errorf("%q is given twice", id)
		}
		m[id] = addr
	}
	return m, nil
}

// ParseSpec builds a Spec from shortcode-style arguments: type,
// controlPlanes, etcd, workers, endpoint, endpointAddr, down, addrs,
// oldAddrs, interactive ("true" or "false") and idPrefix. Type defaults to
// "stacked" and endpoint to "lb". An unknown argument is an error. The
// result is validated.
func ParseSpec(args map[string]string) (Spec, error) {
	s := Spec{Type: Stacked, Endpoint: EndpointLB}
	var errs []error
	num := func(key, v string) int {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s must be a whole number, got %q", key, v))
		}
		return n
	}
	for _, key := range slices.Sorted(maps.Keys(args)) {
		v := args[key]
		switch key {
		case "type":
			s.Type = strings.TrimSpace(v)
		case "controlPlanes":
			s.ControlPlanes = num(key, v)
		case "etcd":
			s.Etcd = num(key, v)
		case "workers":
			s.Workers = num(key, v)
		case "endpoint":
			s.Endpoint = strings.TrimSpace(v)
		case "endpointAddr":
			s.EndpointAddr = strings.TrimSpace(v)
		case "down":
			s.Down = ParseDown(v)
		case "addrs", "oldAddrs":
			m, err := ParseAddrs(v)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", key, err))
			}
			if key == "addrs" {
				s.Addrs = m
			} else {
				s.OldAddrs = m
			}
		case "interactive":
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				errs = append(errs, fmt.Errorf("interactive must be true or false, got %q", v))
			}
			s.Interactive = b
		case "idPrefix":
			s.IDPrefix = strings.TrimSpace(v)
		default:
			errs = append(errs, fmt.Errorf("unknown argument %q (want type, controlPlanes, etcd, workers, endpoint, endpointAddr, down, addrs, oldAddrs, interactive or idPrefix)", key))
		}
	}
	if len(errs) > 0 {
		return s, errors.Join(errs...)
	}
	return s, s.Validate()
}
