package diagram

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/i18n/particle"
)

// Labels are the words a diagram shows and the sentences of its
// accessible description, in the page's language. They are UI strings,
// the diagram_* keys (LabelKeys) of the page's strings (the site's
// i18n/<lang>.toml over those embedded in the binary): the words by name,
// the description's sentences as Go fmt patterns with numbered arguments,
// so that a language may reorder them, and with plural forms where they
// show a count (i18n.Count). A Korean particle
// after an argument is a marker, "%[1]s{은/는}", that package particle
// resolves once the arguments are in, since a site may rename the words.
type Labels struct {
	// Lang is the page's language.
	Lang string
	// T looks a UI string up in Lang (the shortcode's Context.T); nil,
	// or a string it does not have, gives the one embedded in the
	// binary (i18n.Fallback).
	T func(key string) string
	// The words, each a UI string; one set here is used instead.
	ControlPlane string // row caption and description word: diagram_control_plane
	Etcd         string // etcd sub-box and etcd cluster caption: diagram_etcd
	Worker       string // row caption and description word: diagram_worker
	LoadBalancer string // load balancer box: diagram_load_balancer
	Endpoint     string // endpoint pointer when clients point at cp-1: diagram_endpoint
	Down         string // suffix of a failed node's label: diagram_down
	Apiserver    string // apiserver sub-box: diagram_apiserver
	// Title is the diagram's accessible title; empty means the
	// diagram_title pattern filled with the topology's name, e.g.
	// "stacked etcd トポロジー".
	Title string
	// Describe, if set, writes the accessible description; otherwise the
	// description is built from the words and the diagram_* sentences.
	Describe func(s Spec) string
}

// LabelKeys are the UI string keys a diagram asks for (the build checks
// that every language of the site has each; i18n.CodeKeys lists them).
func LabelKeys() []string {
	return []string{
		"diagram_apiserver", "diagram_component", "diagram_control_plane", "diagram_down", "diagram_down_list",
		"diagram_end", "diagram_endpoint", "diagram_etcd", "diagram_external", "diagram_external_etcd",
		"diagram_list_sep", "diagram_load_balancer", "diagram_moved", "diagram_sep", "diagram_stacked",
		"diagram_title", "diagram_via_lb", "diagram_via_lb_addr", "diagram_via_node", "diagram_via_node_addr",
		"diagram_worker", "diagram_workers",
	}
}

// t is the UI string for key in l's language.
func (l Labels) t(key string) string {
	if l.T != nil {
		if s := l.T(key); s != "" {
			return s
		}
	}
	return i18n.Fallback(l.Lang, key)
}

// withDefaults fills the empty words from the UI strings, and makes T
// fall back on the embedded ones, read once for the diagram.
func (l Labels) withDefaults() Labels {
	l.T = i18n.WithFallback(l.Lang, l.T)
	or := func(p *string, s string) {
		if *p == "" {
			*p = s
		}
	}
	or(&l.ControlPlane, l.t("diagram_control_plane"))
	or(&l.Etcd, l.t("diagram_etcd"))
	or(&l.Worker, l.t("diagram_worker"))
	or(&l.LoadBalancer, l.t("diagram_load_balancer"))
	or(&l.Endpoint, l.t("diagram_endpoint"))
	or(&l.Down, l.t("diagram_down"))
	or(&l.Apiserver, l.t("diagram_apiserver"))
	return l
}

// topologyName is the language-neutral name of the topology type.
func topologyName(s Spec) string { return s.Type + " etcd" }

// title returns the diagram's accessible title.
func (l Labels) title(s Spec) string {
	if l.Title != "" {
		return l.Title
	}
	return fmt.Sprintf(l.t("diagram_title"), topologyName(s))
}

// describe returns the diagram's accessible description: a first
// sentence of clauses (the nodes, the workers, the endpoint), then one
// sentence of the failed nodes and one per moved address, each of which
// carries the space that goes before it.
func (l Labels) describe(s Spec) string {
	if l.Describe != nil {
		return l.Describe(s)
	}
	var clauses []string
	if s.Type == External {
		clauses = append(clauses,
			fmt.Sprintf(l.t(i18n.Count("diagram_external", s.ControlPlanes)), topologyName(s), l.ControlPlane, s.ControlPlanes, l.Apiserver, l.Etcd),
			fmt.Sprintf(l.t(i18n.Count("diagram_external_etcd", s.Etcd)), l.Etcd, s.Etcd))
	} else {
		clauses = append(clauses, fmt.Sprintf(l.t(i18n.Count("diagram_stacked", s.ControlPlanes)), topologyName(s), l.ControlPlane, s.ControlPlanes, l.Apiserver, l.Etcd))
	}
	if s.Workers > 0 {
		clauses = append(clauses, fmt.Sprintf(l.t(i18n.Count("diagram_workers", s.Workers)), l.Worker, s.Workers))
	}
	switch {
	case s.Endpoint == EndpointNode && s.EndpointAddr != "":
		clauses = append(clauses, fmt.Sprintf(l.t("diagram_via_node_addr"), l.Endpoint, s.EndpointAddr, "cp-1"))
	case s.Endpoint == EndpointNode:
		clauses = append(clauses, fmt.Sprintf(l.t("diagram_via_node"), l.Endpoint, "cp-1"))
	case s.EndpointAddr != "":
		clauses = append(clauses, fmt.Sprintf(l.t("diagram_via_lb_addr"), l.LoadBalancer, s.EndpointAddr))
	default:
		clauses = append(clauses, fmt.Sprintf(l.t("diagram_via_lb"), l.LoadBalancer))
	}
	out := strings.Join(clauses, l.t("diagram_sep")) + l.t("diagram_end")

	if len(s.Down) > 0 {
		names := make([]string, len(s.Down))
		for i, id := range s.Down {
			names[i] = id
			if comp, node, ok := strings.Cut(id, "@"); ok {
				word := l.Apiserver
				if comp == "etcd" {
					word = l.Etcd
				}
				names[i] = fmt.Sprintf(l.t("diagram_component"), node, word)
			}
		}
		out += fmt.Sprintf(l.t("diagram_down_list"), l.Down, strings.Join(names, l.t("diagram_list_sep")))
	}
	for _, id := range slices.Sorted(maps.Keys(s.OldAddrs)) {
		if addr := s.Addrs[id]; addr != "" {
			out += fmt.Sprintf(l.t("diagram_moved"), id, s.OldAddrs[id], addr)
		}
	}
	return particle.Resolve(out)
}
