package diagram

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Geometry, in viewBox units (CSS pixels at 1:1).
const (
	pad      = 20 // outer margin
	gapX     = 16 // between boxes in a row
	inset    = 10 // text padding inside a box
	rowGap   = 44 // between rows, room for the links
	subH     = 24 // apiserver and etcd sub-boxes
	subGap   = 6
	nameFS   = 13 // node names, bold
	labelFS  = 12 // sub-box labels and captions
	addrFS   = 11 // addresses, monospace
	radius   = 8  // box corners
	minBoxW  = 96
	minCPW   = 120
	gridCols = 3 // external etcd members per row
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
		for _, k := range sortedKeys(m) {
			w(k, m[k])
		}
	}
	prefix := s.IDPrefix
	if prefix == "" {
		prefix = "topo"
	}
	return fmt.Sprintf("%s-%08x", prefix, uint32(h.Sum64()))
}

// rect is a box in viewBox units.
type rect struct{ x, y, w, h int }

func (r rect) cx() int     { return r.x + r.w/2 }
func (r rect) bottom() int { return r.y + r.h }

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

// addrWidth is the width of id's address line.
func (d *drawer) addrWidth(id string) int {
	return addrLineWidth(d.s.Addrs[id], d.s.OldAddrs[id])
}

func addrLineWidth(cur, old string) int {
	switch {
	case cur != "" && old != "":
		return monoWidth(old) + monoWidth(arrow) + monoWidth(cur)
	case old != "":
		return monoWidth(old)
	}
	return monoWidth(cur)
}

const arrow = " → "

// simpleSize sizes a box holding one name and an optional address line.
func simpleSize(nameW, addrW int, addrRow bool) (w, h int) {
	w = max(minBoxW, nameW+2*inset, addrW+2*inset)
	h = 36
	if addrRow {
		h = 54
	}
	return w, h
}

func (d *drawer) layout() {
	s, l := d.s, d.l

	// Control planes: one width and height for the whole row.
	d.subs = []string{"apiserver"}
	if s.Type == Stacked {
		d.subs = append(d.subs, "etcd")
	}
	d.cpAddr = d.anyAddr("cp-", s.ControlPlanes)
	cpW := minCPW
	for i := 1; i <= s.ControlPlanes; i++ {
		id := cpID(i)
		cpW = max(cpW, textWidth(d.nodeName(id), nameFS, true)+2*inset, d.addrWidth(id)+2*inset)
		for _, c := range d.subs {
			cpW = max(cpW, textWidth(d.subLabel(c, id), labelFS, false)+4*inset)
		}
	}
	cpH := 30 + len(d.subs)*subH + (len(d.subs)-1)*subGap + inset
	if d.cpAddr {
		cpH += 16
	}
	cpRowW := rowWidth(s.ControlPlanes, cpW)

	// External etcd members in a grid inside a dashed frame.
	var ew, eh, frameW, frameH int
	if s.Type == External {
		d.etcdAddr = d.anyAddr("etcd-", s.Etcd)
		for i := 1; i <= s.Etcd; i++ {
			id := "etcd-" + strconv.Itoa(i)
			w, h := simpleSize(textWidth(d.nodeName(id), nameFS, true), d.addrWidth(id), d.etcdAddr)
			ew, eh = max(ew, w), h
		}
		cols := min(s.Etcd, gridCols)
		rows := (s.Etcd + gridCols - 1) / gridCols
		frameW = max(2*12+rowWidth(cols, ew), textWidth(l.Etcd, labelFS, false)+24)
		frameH = 26 + rows*eh + (rows-1)*12 + 12
	}

	// Workers.
	var ww, wh int
	d.wAddr = d.anyAddr("worker-", s.Workers)
	for i := 1; i <= s.Workers; i++ {
		id := "worker-" + strconv.Itoa(i)
		w, h := simpleSize(textWidth(d.nodeName(id), nameFS, true), d.addrWidth(id), d.wAddr)
		ww, wh = max(ww, w), h
	}
	wRowW := rowWidth(s.Workers, ww)

	// The front: load balancer or endpoint pointer.
	frontName := l.LoadBalancer
	if s.Endpoint == EndpointNode {
		frontName = l.Endpoint
	} else if s.isDown("lb") {
		frontName += d.downSuffix()
	}
	d.frontAdr = s.EndpointAddr != ""
	fw, fh := simpleSize(textWidth(frontName, nameFS, true), monoWidth(s.EndpointAddr), d.frontAdr)
	fw = max(fw, 140)

	// Horizontal: captions on the left, then everything centred on one axis,
	// the etcd frame to the right of the control planes.
	legendW := textWidth(l.ControlPlane, labelFS, false)
	if s.Workers > 0 {
		legendW = max(legendW, textWidth(l.Worker, labelFS, false))
	}
	d.legendX = pad + legendW
	half := max(cpRowW, fw, wRowW) / 2
	axis := d.legendX + 18 + half
	right := axis + half
	frameX := axis + max(cpRowW, fw)/2 + 40
	if s.Type == External {
		right = max(right, frameX+frameW)
	}
	d.width = right + pad

	// Vertical.
	top := pad
	if s.Type == External {
		d.busY = pad + 2
		top = pad + 24
	}
	x := axis - cpRowW/2
	for i := 0; i < s.ControlPlanes; i++ {
		d.cp = append(d.cp, rect{x, top, cpW, cpH})
		x += cpW + gapX
	}
	lowest := top + cpH
	if s.Type == External {
		d.cluster = rect{frameX, top, frameW, frameH}
		for i := 0; i < s.Etcd; i++ {
			col, row := i%gridCols, i/gridCols
			d.etcd = append(d.etcd, rect{frameX + 12 + col*(ew+12), top + 26 + row*(eh+12), ew, eh})
		}
	}
	d.midY = top + cpH + rowGap/2
	d.front = rect{axis - fw/2, top + cpH + rowGap, fw, fh}
	lowest = max(lowest, d.front.bottom())
	if s.Type == External {
		lowest = max(lowest, d.cluster.bottom())
	}
	if s.Workers > 0 {
		wTop := max(d.front.bottom()+rowGap, lowest+32)
		d.lowY = wTop - rowGap/2
		x := axis - wRowW/2
		for i := 0; i < s.Workers; i++ {
			d.workers = append(d.workers, rect{x, wTop, ww, wh})
			x += ww + gapX
		}
		lowest = wTop + wh
	}
	d.height = lowest + pad
}

func cpID(i int) string { return "cp-" + strconv.Itoa(i) }

func rowWidth(n, w int) int {
	if n == 0 {
		return 0
	}
	return n*w + (n-1)*gapX
}

// subLabel is the visible label of component c ("apiserver" or "etcd") of
// control plane node.
func (d *drawer) subLabel(c, node string) string {
	word := d.l.Apiserver
	if c == "etcd" {
		word = d.l.Etcd
	}
	if d.s.isDown(c + "@" + node) {
		word += d.downSuffix()
	}
	return word
}

// apiDown reports whether control plane i's apiserver cannot serve.
func (d *drawer) apiDown(i int) bool {
	id := cpID(i)
	return d.s.isDown(id) || d.s.isDown("apiserver@"+id)
}

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

// link is one orthogonal connector.
type link struct {
	d     string
	dead  bool
	arrow bool
}

// links draws every connector, failed ones first so that working links
// sharing a segment are drawn over them.
func (d *drawer) links() {
	s := d.s
	var ls []link
	path := func(dead, arrow bool, format string, args ...any) {
		ls = append(ls, link{fmt.Sprintf(format, args...), dead, arrow})
	}
	axis := d.front.cx()

	if s.Type == External {
		anyAPI := false
		for i, r := range d.cp {
			dead := d.apiDown(i + 1)
			anyAPI = anyAPI || !dead
			path(dead, false, "M%d %dV%dH%d", r.cx(), r.y, d.busY, d.cluster.cx())
		}
		path(!anyAPI, true, "M%d %dV%d", d.cluster.cx(), d.busY, d.cluster.y)
	}

	lbDown := s.isDown("lb")
	if s.Endpoint == EndpointLB {
		anyAPI := false
		for i, r := range d.cp {
			dead := d.apiDown(i+1) || lbDown
			anyAPI = anyAPI || !d.apiDown(i+1)
			path(dead, false, "M%d %dV%dH%d", r.cx(), r.bottom(), d.midY, axis)
		}
		path(lbDown || !anyAPI, false, "M%d %dV%d", axis, d.midY, d.front.y)
	} else {
		// Every client dials cp-1's own address.
		cp1 := d.cp[0]
		path(d.apiDown(1), true, "M%d %dV%dH%dV%d", axis, d.front.y, d.midY, cp1.cx(), cp1.bottom())
	}

	if len(d.workers) > 0 {
		path(lbDown, false, "M%d %dV%d", axis, d.front.bottom(), d.lowY)
		for i, r := range d.workers {
			dead := lbDown || s.isDown("worker-"+strconv.Itoa(i+1))
			path(dead, false, "M%d %dH%dV%d", axis, d.lowY, r.cx(), r.y)
		}
	}

	for _, pass := range []bool{true, false} {
		for _, k := range ls {
			if k.dead != pass {
				continue
			}
			class := "link"
			if k.dead {
				class += " dead"
			}
			end := ""
			if k.arrow {
				end = fmt.Sprintf(` marker-end="url(#%s)"`, d.marker(k.dead))
			}
			fmt.Fprintf(&d.b, `<path class="%s" d="%s"%s/>`, class, k.d, end)
		}
	}
}

// button opens the group of a focusable node or component in interactive
// mode; it returns the closing tag to write after its content.
func (d *drawer) button(id, label string) string {
	if !d.s.Interactive || id == "" {
		return ""
	}
	down := d.s.isDown(id)
	if down {
		label += d.downSuffix()
	}
	fmt.Fprintf(&d.b, `<g data-node="%s" tabindex="0" role="button" aria-pressed="%t" aria-label="%s">`, esc(id), down, esc(label))
	return "</g>"
}

// controlPlane draws control plane i with its sub-boxes.
func (d *drawer) controlPlane(i int) {
	b, id, r := &d.b, cpID(i), d.cp[i-1]
	down := d.s.isDown(id)
	b.WriteString(`<g class="node cp">`)
	end := d.button(id, id+" "+d.l.ControlPlane)
	if down {
		b.WriteString(`<g class="dim">`)
	}
	fmt.Fprintf(b, `<rect class="box" x="%d" y="%d" width="%d" height="%d" rx="%d"/>`, r.x, r.y, r.w, r.h, radius)
	if down {
		b.WriteString(`</g>`)
		d.cross(r, 8, "x")
	}
	d.name(r.cx(), r.y+20, id)
	y := r.y + 30
	if d.cpAddr {
		d.addr(r.cx(), y+9, id, down)
		y += 16
	}
	b.WriteString(end)

	for _, c := range d.subs {
		sid := c + "@" + id
		sr := rect{r.x + inset, y, r.w - 2*inset, subH}
		subDown := d.s.isDown(sid)
		class := "sub"
		if c == "etcd" {
			class += " etcd"
		}
		word := d.l.Apiserver
		if c == "etcd" {
			word = d.l.Etcd
		}
		end := d.button(sid, id+" "+word)
		if down || subDown {
			b.WriteString(`<g class="dim">`)
		}
		fmt.Fprintf(b, `<rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="4"/>`, class, sr.x, sr.y, sr.w, sr.h)
		if down || subDown {
			b.WriteString(`</g>`)
		}
		if subDown {
			d.cross(sr, 4, "x thin")
		}
		fmt.Fprintf(b, `<text class="label%s" x="%d" y="%d">%s`, halo(down || subDown), sr.cx(), sr.y+16, esc(word))
		if subDown {
			fmt.Fprintf(b, `<tspan class="downmark">%s</tspan>`, esc(d.downSuffix()))
		}
		b.WriteString(`</text>`)
		b.WriteString(end)
		y += subH + subGap
	}
	b.WriteString(`</g>`)
}

// simple draws a box with a name and an optional address line: an etcd
// member, the load balancer, the endpoint pointer or a worker. id is ""
// for the endpoint pointer, which is not a node.
func (d *drawer) simple(id, class string, r rect, name, kind string, addrRow bool) {
	b := &d.b
	down := id != "" && d.s.isDown(id)
	b.WriteString(`<g class="node">`)
	label := id + " " + kind
	if id == "lb" {
		label = kind
	}
	end := d.button(id, label)
	if down {
		b.WriteString(`<g class="dim">`)
	}
	fmt.Fprintf(b, `<rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="%d"/>`, class, r.x, r.y, r.w, r.h, radius)
	if down {
		b.WriteString(`</g>`)
		d.cross(r, 8, "x")
	}
	base := r.y + 23
	if addrRow {
		base = r.y + 22
	}
	plain := strings.TrimSuffix(name, d.downSuffix())
	fmt.Fprintf(b, `<text class="name%s" x="%d" y="%d">%s`, halo(down), r.cx(), base, esc(plain))
	if plain != name {
		fmt.Fprintf(b, `<tspan class="downmark">%s</tspan>`, esc(d.downSuffix()))
	}
	b.WriteString(`</text>`)
	if addrRow {
		if id == "lb" || id == "" {
			d.addrText(r.cx(), r.y+40, d.s.EndpointAddr, "", down)
		} else {
			d.addr(r.cx(), r.y+40, id, down)
		}
	}
	b.WriteString(end)
	b.WriteString(`</g>`)
}

// name writes node id's bold name centred at x, with its down mark.
func (d *drawer) name(x, y int, id string) {
	fmt.Fprintf(&d.b, `<text class="name%s" x="%d" y="%d">%s`, halo(d.s.isDown(id)), x, y, esc(id))
	if d.s.isDown(id) {
		fmt.Fprintf(&d.b, `<tspan class="downmark">%s</tspan>`, esc(d.downSuffix()))
	}
	d.b.WriteString(`</text>`)
}

// addr writes node id's address line centred at x on baseline y.
func (d *drawer) addr(x, y int, id string, dim bool) {
	d.addrText(x, y, d.s.Addrs[id], d.s.OldAddrs[id], dim)
}

// addrText writes an address line: the old address struck through, an
// arrow, the current address. Each piece is pinned with textLength so the
// strike line matches the text in any monospace font.
func (d *drawer) addrText(cx, y int, cur, old string, dim bool) {
	b := &d.b
	if cur == "" && old == "" {
		return
	}
	if dim {
		b.WriteString(`<g class="dim">`)
	}
	x := cx - addrLineWidth(cur, old)/2
	piece := func(class, text string) {
		w := monoWidth(text)
		fmt.Fprintf(b, `<text class="%s%s" x="%d" y="%d" textLength="%d" lengthAdjust="spacingAndGlyphs" xml:space="preserve">%s</text>`, class, halo(dim), x, y, w, esc(text))
		x += w
	}
	if old != "" {
		start := x
		piece("addr old", old)
		fmt.Fprintf(b, `<line class="strike" x1="%d" y1="%d" x2="%d" y2="%d"/>`, start-1, y-4, x+1, y-4)
		if cur != "" {
			piece("addr old", arrow)
		}
	}
	if cur != "" {
		piece("addr", cur)
	}
	if dim {
		b.WriteString(`</g>`)
	}
}

// halo returns the class that outlines text drawn over a red X.
func halo(on bool) string {
	if on {
		return " halo"
	}
	return ""
}

// cross draws a red X of the given class over r, inset by in; text drawn
// after it stays readable through its halo.
func (d *drawer) cross(r rect, in int, class string) {
	fmt.Fprintf(&d.b, `<path class="%s" d="M%d %dL%d %dM%d %dL%d %d"/>`,
		class, r.x+in, r.y+in, r.x+r.w-in, r.y+r.h-in,
		r.x+r.w-in, r.y+in, r.x+in, r.y+r.h-in)
}

// textWidth estimates the advance of s at font size fs in a proportional
// font: wide East Asian characters take a full em, others a generous
// average so that boxes never clip their text.
func textWidth(s string, fs int, bold bool) int {
	narrow := 0.6
	if bold {
		narrow = 0.64
	}
	w := 0.0
	for _, r := range s {
		if wide(r) {
			w += 1
		} else {
			w += narrow
		}
	}
	return int(w*float64(fs) + 0.999)
}

// monoWidth is the advance of s in a monospace font at the address size.
func monoWidth(s string) int {
	w := 0.0
	for _, r := range s {
		if wide(r) {
			w += 1.2
		} else {
			w += 0.6
		}
	}
	return int(w*addrFS + 0.999)
}

// wide reports whether r is drawn a full em wide (CJK, kana, Hangul,
// full-width forms).
func wide(r rune) bool {
	switch {
	case r >= 0x1100 && r <= 0x115F, // Hangul Jamo
		r >= 0x2E80 && r <= 0xA4CF, // CJK radicals … Yi, incl. kana and ideographs
		r >= 0xAC00 && r <= 0xD7A3, // Hangul syllables
		r >= 0xF900 && r <= 0xFAFF, // CJK compatibility ideographs
		r >= 0xFE30 && r <= 0xFE4F, // CJK compatibility forms
		r >= 0xFF00 && r <= 0xFF60, // full-width forms
		r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x20000 && r <= 0x3FFFD:
		return true
	}
	return false
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
