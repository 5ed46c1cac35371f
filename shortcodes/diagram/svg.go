package diagram

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// style is shared by every diagram; colours come only from CSS variables so
// that a theme can restyle dark mode and print.
const style = `.topology{font-family:inherit;font-size:13px}` +
	`.topology text{font-family:inherit;fill:var(--topo-text,#1f2328)}` +
	`.topology .box{fill:var(--topo-node,#fff);stroke:var(--topo-stroke,#333);stroke-width:1.5}` +
	`.topology .sub{fill:var(--topo-api,#e7eefa);stroke:var(--topo-stroke,#333);stroke-width:1}` +
	`.topology .lb{fill:var(--topo-lb,#fdf3e1)}` +
	`.topology .etcd{fill:var(--topo-etcd,#e3f4e6)}` +
	`.topology .endpoint{stroke-dasharray:5 3}` +
	`.topology .cluster{fill:none;stroke:var(--topo-muted,#777);stroke-width:1;stroke-dasharray:4 3}` +
	`.topology .link{fill:none;stroke:var(--topo-stroke,#333);stroke-width:1.5}` +
	`.topology .link.dead{stroke:var(--topo-down,#c00);stroke-dasharray:6 4}` +
	`.topology .head{fill:var(--topo-stroke,#333)}` +
	`.topology .head.dead{fill:var(--topo-down,#c00)}` +
	`.topology .name{font-weight:600;text-anchor:middle}` +
	`.topology .label{font-size:12px;text-anchor:middle}` +
	`.topology .caption{font-size:12px;fill:var(--topo-muted,#666)}` +
	`.topology .right{text-anchor:end}` +
	`.topology .addr{font-family:var(--topo-mono,ui-monospace,SFMono-Regular,Menlo,Consolas,monospace);font-size:11px}` +
	`.topology .old{fill:var(--topo-muted,#666)}` +
	`.topology .strike{stroke:var(--topo-down,#c00);stroke-width:1.2}` +
	`.topology .downmark{fill:var(--topo-down,#c00)}` +
	`.topology .dim{opacity:.4}` +
	`.topology .x{stroke:var(--topo-down,#c00);stroke-width:3;stroke-linecap:round}` +
	`.topology .x.thin{stroke-width:2}` +
	`.topology .halo{paint-order:stroke;stroke:var(--topo-node,#fff);stroke-width:4px;stroke-linejoin:round}` +
	`.topology [data-node]{cursor:pointer}` +
	`.topology [data-node]:focus{outline:none}` +
	`.topology [data-node]:focus-visible rect{stroke:var(--topo-focus,#0969da);stroke-width:3}`

// Topology validates s and draws it as an <svg> element whose words come
// from l. The element has only a viewBox (it scales with CSS width), an
// accessible title and description, and ids derived from s so that two
// diagrams on one page differ.
func Topology(s Spec, l Labels) (string, error) {
	if err := s.Validate(); err != nil {
		return "", err
	}
	d := &drawer{s: s, l: l.withDefaults(), id: elementID(s)}
	d.layout()
	return d.render(), nil
}

// elementID derives the id stem of s's elements from a hash of the spec.
func elementID(s Spec) string {
	h := fnv.New64a()
	w := func(parts ...string) {
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
	}
	w(s.Type, strconv.Itoa(s.ControlPlanes), strconv.Itoa(s.Workers), s.Endpoint, s.EndpointAddr, strconv.FormatBool(s.Interactive))
	if s.Type == External {
		w(strconv.Itoa(s.Etcd))
	}
	w("down")
	w(s.Down...)
	for _, m := range []map[string]string{s.Addrs, s.OldAddrs} {
		w("addrs")
		for _, k := range slices.Sorted(maps.Keys(m)) {
			w(k, m[k])
		}
	}
	prefix := s.IDPrefix
	if prefix == "" {
		prefix = "topo"
	}
	return fmt.Sprintf("%s-%08x", prefix, uint32(h.Sum64()))
}

// drawer holds the layout of one diagram while it is drawn.
type drawer struct {
	s  Spec
	l  Labels
	id string

	width, height int
	legendX       int // right edge of the row captions

	cp       []rect // control planes
	subs     []string
	cpAddr   bool // the control plane row shows addresses
	etcd     []rect
	etcdAddr bool
	cluster  rect // frame around external etcd members
	workers  []rect
	wAddr    bool
	front    rect // load balancer, or the endpoint pointer
	frontAdr bool
	busY     int // apiserver → external etcd bus
	midY     int // control planes → front bus
	lowY     int // front → workers bus

	b strings.Builder
}

func (d *drawer) downSuffix() string { return " (" + d.l.Down + ")" }

// nodeName is the visible name of node id, with the down mark if it failed.
func (d *drawer) nodeName(id string) string {
	if d.s.isDown(id) {
		return id + d.downSuffix()
	}
	return id
}

func (d *drawer) hasAddr(id string) bool { return d.s.Addrs[id] != "" || d.s.OldAddrs[id] != "" }

func (d *drawer) anyAddr(prefix string, n int) bool {
	for i := 1; i <= n; i++ {
		if d.hasAddr(prefix + strconv.Itoa(i)) {
			return true
		}
	}
	return false
}

func cpID(i int) string { return "cp-" + strconv.Itoa(i) }

func (d *drawer) render() string {
	s, l := d.s, d.l
	role := "img"
	if s.Interactive {
		// Buttons inside role="img" would be hidden from assistive
		// technology: an interactive diagram is a group of controls.
		role = "group"
	}
	b := &d.b
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="%s" aria-labelledby="%s-title %s-desc" class="topology topology-%s">`,
		d.width, d.height, role, d.id, d.id, s.Type)
	fmt.Fprintf(b, `<title id="%s-title">%s</title>`, d.id, esc(l.title(s)))
	fmt.Fprintf(b, `<desc id="%s-desc">%s</desc>`, d.id, esc(l.describe(s)))
	if !s.NoStyle {
		fmt.Fprintf(b, "<style>%s</style>", style)
	}
	fmt.Fprintf(b, `<defs>`)
	for _, class := range []string{"head", "head dead"} {
		dead := class != "head"
		fmt.Fprintf(b, `<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="%s" d="M0 0L10 5L0 10z"/></marker>`, d.marker(dead), class)
	}
	b.WriteString(`</defs>`)

	// Row captions.
	if len(d.cp) > 0 {
		d.caption(d.legendX, d.cp[0].y+d.cp[0].h/2+4, l.ControlPlane, true)
	}
	if len(d.workers) > 0 {
		d.caption(d.legendX, d.workers[0].y+d.workers[0].h/2+4, l.Worker, true)
	}

	b.WriteString(`<g class="links">`)
	d.links()
	b.WriteString(`</g>`)
	b.WriteString(`<g class="nodes">`)
	for i := range d.cp {
		d.controlPlane(i + 1)
	}
	if s.Type == External {
		c := d.cluster
		fmt.Fprintf(b, `<rect class="cluster" x="%d" y="%d" width="%d" height="%d" rx="%d"/>`, c.x, c.y, c.w, c.h, radius+2)
		d.caption(c.x+12, c.y+17, l.Etcd, false)
		for i, r := range d.etcd {
			d.simple("etcd-"+strconv.Itoa(i+1), "box etcd", r, d.nodeName("etcd-"+strconv.Itoa(i+1)), l.Etcd, d.etcdAddr)
		}
	}
	if s.Endpoint == EndpointLB {
		d.simple("lb", "box lb", d.front, d.labelOf("lb", l.LoadBalancer), l.LoadBalancer, d.frontAdr)
	} else {
		d.simple("", "box endpoint", d.front, l.Endpoint, l.Endpoint, d.frontAdr)
	}
	for i, r := range d.workers {
		id := "worker-" + strconv.Itoa(i+1)
		d.simple(id, "box", r, d.nodeName(id), l.Worker, d.wAddr)
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

// labelOf is like nodeName for a node whose visible name is not its id.
func (d *drawer) labelOf(id, name string) string {
	if d.s.isDown(id) {
		return name + d.downSuffix()
	}
	return name
}

func (d *drawer) marker(dead bool) string {
	if dead {
		return d.id + "-arrow-dead"
	}
	return d.id + "-arrow"
}

func (d *drawer) caption(x, y int, text string, right bool) {
	class := "caption"
	if right {
		class += " right"
	}
	fmt.Fprintf(&d.b, `<text class="%s" x="%d" y="%d">%s</text>`, class, x, y, esc(text))
}

// esc escapes s for XML text and attribute values, replacing characters
// XML cannot carry with U+FFFD.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
				b.WriteRune(r)
			} else {
				b.WriteRune('\uFFFD')
			}
		}
	}
	return b.String()
}
