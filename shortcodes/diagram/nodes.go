package diagram

import (
	"fmt"
	"strings"
)

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
	label := id + " " + d.l.ControlPlane
	if d.cpAddr {
		label = withAddr(label, id, addrLine(d.s.Addrs[id], d.s.OldAddrs[id]))
	}
	end := d.button(id, label)
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
	if addrRow {
		if id == "lb" || id == "" {
			label = withAddr(label, strings.TrimSuffix(name, d.downSuffix()), addrLine(d.s.EndpointAddr, ""))
		} else {
			label = withAddr(label, strings.TrimSuffix(name, d.downSuffix()), addrLine(d.s.Addrs[id], d.s.OldAddrs[id]))
		}
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
		// The space between the pieces, and between the name and the
		// address, is no glyph but is what an accessible name reads.
		fmt.Fprintf(b, ` <text class="%s%s" x="%d" y="%d" textLength="%d" lengthAdjust="spacingAndGlyphs" xml:space="preserve">%s</text>`, class, halo(dim), x, y, w, esc(text))
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

// addrLine is the text an address line shows: the old address, the arrow
// and the current one.
func addrLine(cur, old string) string {
	if old != "" && cur != "" {
		return old + " " + arrow + " " + cur
	}
	return old + cur
}

// withAddr puts the address a node shows into its button's label, right
// after the name it shows, so that the accessible name holds the visible
// text in its order (WCAG 2.5.3, label in name).
func withAddr(label, name, addr string) string {
	if addr == "" {
		return label
	}
	if rest, ok := strings.CutPrefix(label, name); ok {
		return name + " " + addr + rest
	}
	return name + " " + addr + " " + label
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
