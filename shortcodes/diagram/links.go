package diagram

import (
	"fmt"
	"strconv"
)

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
