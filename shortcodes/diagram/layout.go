package diagram

import (
	"strconv"
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

// rect is a box in viewBox units.
type rect struct{ x, y, w, h int }

func (r rect) cx() int { return r.x + r.w/2 }

func (r rect) bottom() int { return r.y + r.h }

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

// layout sizes every box, then places the rows: captions on the left,
// control planes, the front and workers centred on one axis, the external
// etcd frame to the right of the control planes.
func (d *drawer) layout() {
	cpW, cpH := d.controlPlaneSize()
	ew, eh, frameW, frameH := d.etcdSize()
	ww, wh := d.workerSize()
	fw, fh := d.frontSize()
	cpRowW, wRowW := rowWidth(d.s.ControlPlanes, cpW), rowWidth(d.s.Workers, ww)
	axis, frameX := d.horizontal(cpRowW, fw, wRowW, frameW)
	d.vertical(axis, frameX, rect{w: cpW, h: cpH}, rect{w: ew, h: eh}, rect{w: frameW, h: frameH}, rect{w: ww, h: wh}, fw, fh)
}

// controlPlaneSize is the one width and height of the control plane row,
// and picks the sub-boxes each control plane holds.
func (d *drawer) controlPlaneSize() (w, h int) {
	s := d.s
	d.subs = []string{"apiserver"}
	if s.Type == Stacked {
		d.subs = append(d.subs, "etcd")
	}
	d.cpAddr = d.anyAddr("cp-", s.ControlPlanes)
	w = minCPW
	for i := 1; i <= s.ControlPlanes; i++ {
		id := cpID(i)
		w = max(w, textWidth(d.nodeName(id), nameFS, true)+2*inset, d.addrWidth(id)+2*inset)
		for _, c := range d.subs {
			w = max(w, textWidth(d.subLabel(c, id), labelFS, false)+4*inset)
		}
	}
	h = 30 + len(d.subs)*subH + (len(d.subs)-1)*subGap + inset
	if d.cpAddr {
		h += 16
	}
	return w, h
}

// etcdSize sizes the external etcd members, in a grid inside a dashed
// frame; all zero for a stacked topology.
func (d *drawer) etcdSize() (ew, eh, frameW, frameH int) {
	s := d.s
	if s.Type != External {
		return 0, 0, 0, 0
	}
	d.etcdAddr = d.anyAddr("etcd-", s.Etcd)
	for i := 1; i <= s.Etcd; i++ {
		id := "etcd-" + strconv.Itoa(i)
		w, h := simpleSize(textWidth(d.nodeName(id), nameFS, true), d.addrWidth(id), d.etcdAddr)
		ew, eh = max(ew, w), h
	}
	cols := min(s.Etcd, gridCols)
	rows := (s.Etcd + gridCols - 1) / gridCols
	frameW = max(2*12+rowWidth(cols, ew), textWidth(d.l.Etcd, labelFS, false)+24)
	frameH = 26 + rows*eh + (rows-1)*12 + 12
	return ew, eh, frameW, frameH
}

// workerSize is the one width and height of the worker row.
func (d *drawer) workerSize() (ww, wh int) {
	s := d.s
	d.wAddr = d.anyAddr("worker-", s.Workers)
	for i := 1; i <= s.Workers; i++ {
		id := "worker-" + strconv.Itoa(i)
		w, h := simpleSize(textWidth(d.nodeName(id), nameFS, true), d.addrWidth(id), d.wAddr)
		ww, wh = max(ww, w), h
	}
	return ww, wh
}

// frontSize sizes the front: the load balancer or the endpoint pointer.
func (d *drawer) frontSize() (fw, fh int) {
	s, l := d.s, d.l
	frontName := l.LoadBalancer
	if s.Endpoint == EndpointNode {
		frontName = l.Endpoint
	} else if s.isDown("lb") {
		frontName += d.downSuffix()
	}
	d.frontAdr = s.EndpointAddr != ""
	fw, fh = simpleSize(textWidth(frontName, nameFS, true), monoWidth(s.EndpointAddr), d.frontAdr)
	return max(fw, 140), fh
}

// horizontal places the captions and returns the axis the rows are
// centred on and the left edge of the etcd frame; it sets the width.
func (d *drawer) horizontal(cpRowW, fw, wRowW, frameW int) (axis, frameX int) {
	s, l := d.s, d.l
	legendW := textWidth(l.ControlPlane, labelFS, false)
	if s.Workers > 0 {
		legendW = max(legendW, textWidth(l.Worker, labelFS, false))
	}
	d.legendX = pad + legendW
	half := max(cpRowW, fw, wRowW) / 2
	axis = d.legendX + 18 + half
	right := axis + half
	frameX = axis + max(cpRowW, fw)/2 + 40
	if s.Type == External {
		right = max(right, frameX+frameW)
	}
	d.width = right + pad
	return axis, frameX
}

// vertical places the rows top to bottom, given the sizes of one control
// plane, one etcd member, the etcd frame, one worker and the front; it
// sets the height.
func (d *drawer) vertical(axis, frameX int, cp, e, frame, wk rect, fw, fh int) {
	s := d.s
	top := pad
	if s.Type == External {
		d.busY = pad + 2
		top = pad + 24
	}
	x := axis - rowWidth(s.ControlPlanes, cp.w)/2
	for i := 0; i < s.ControlPlanes; i++ {
		d.cp = append(d.cp, rect{x, top, cp.w, cp.h})
		x += cp.w + gapX
	}
	lowest := top + cp.h
	if s.Type == External {
		d.cluster = rect{frameX, top, frame.w, frame.h}
		for i := 0; i < s.Etcd; i++ {
			col, row := i%gridCols, i/gridCols
			d.etcd = append(d.etcd, rect{frameX + 12 + col*(e.w+12), top + 26 + row*(e.h+12), e.w, e.h})
		}
	}
	d.midY = top + cp.h + rowGap/2
	d.front = rect{axis - fw/2, top + cp.h + rowGap, fw, fh}
	lowest = max(lowest, d.front.bottom())
	if s.Type == External {
		lowest = max(lowest, d.cluster.bottom())
	}
	if s.Workers > 0 {
		wTop := max(d.front.bottom()+rowGap, lowest+32)
		d.lowY = wTop - rowGap/2
		x := axis - rowWidth(s.Workers, wk.w)/2
		for i := 0; i < s.Workers; i++ {
			d.workers = append(d.workers, rect{x, wTop, wk.w, wk.h})
			x += wk.w + gapX
		}
		lowest = wTop + wk.h
	}
	d.height = lowest + pad
}

func rowWidth(n, w int) int {
	if n == 0 {
		return 0
	}
	return n*w + (n-1)*gapX
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
