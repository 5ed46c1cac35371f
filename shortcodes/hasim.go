package shortcodes

import (
	"html/template"
	"io"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
	"github.com/kakehashi-dev/kakehashi/shortcodes/diagram"
)

// haSimTemplate is the markup of the HA cluster simulator.
const haSimTemplate = `{{define "ha-sim"}}<section class="calc calc-ha"{{template "root" .}} data-down-label="{{.DownLabel}}">
{{template "head" .}}<form class="calc-form" data-form>
<fieldset class="calc-fields" disabled>
<legend class="visually-hidden">{{.Title}}</legend>
<label for="{{.ID}}-endpoint">{{.L.endpoint}}<select id="{{.ID}}-endpoint" name="endpoint">
{{- range .Endpoints}}
<option value="{{.Value}}"{{if .Selected}} selected{{end}}>{{.Label}}</option>
{{- end}}
</select></label>
<button type="button" data-reset>{{.L.reset}}</button>
</fieldset>
</form>
<p class="calc-hint" id="{{.ID}}-hint">{{.L.hint}}</p>
{{- range .Diagrams}}
<div class="diagram calc-diagram" data-endpoint="{{.Endpoint}}" aria-describedby="{{$.ID}}-hint"{{if not .Shown}} hidden{{end}}>
{{.SVG}}
</div>
{{- end}}
<output class="calc-status" for="{{.ID}}-endpoint" aria-live="polite" data-out="status" data-ok="{{.R.KubectlWorks}}">{{.Status}}</output>
{{template "error" .}}
<dl class="calc-facts">
<div><dt>{{.L.down}}</dt><dd data-out="failed">{{.FailedText}}</dd></div>
<div><dt>etcd</dt><dd data-out="etcd" data-ok="{{.R.EtcdWritable}}">{{.Etcd}}</dd></div>
<div><dt>{{.L.apiservers}}</dt><dd data-out="apiservers">{{.Apiservers}}</dd></div>
<div><dt>{{.L.endpointReach}}</dt><dd data-out="endpoint" data-ok="{{.R.APIReachableViaEndpoint}}">{{.Reach}}</dd></div>
<div><dt>{{.L.kubectl}}</dt><dd data-out="kubectl" data-ok="{{.R.KubectlWorks}}">{{.Kubectl}}</dd></div>
<div><dt>{{.L.kubelets}}</dt><dd data-out="kubelets" data-ok="{{.R.WorkerKubeletsReachAPI}}">{{.Kubelets}}</dd></div>
</dl>
{{template "notes" .Reasons}}
</section>
{{end}}
`

// haSimShortcode is the HA simulator: a topology drawn with its nodes as
// buttons, and what still works when some of them fail.
func (wd *widgets) haSimShortcode() *Shortcode {
	return &Shortcode{
		Name: "ha-sim", Block: true,
		Args: []ArgSpec{
			{Name: "topology", Type: String, Default: calc.TopologyStacked, OneOf: []string{calc.TopologyStacked, calc.TopologyExternal}},
			{Name: "controlPlanes", Type: Int, Default: int64(3)},
			{Name: "etcd", Type: Int, Default: int64(3)},
			{Name: "workers", Type: Int, Default: int64(2)},
			{Name: "endpoint", Type: String, Default: calc.EndpointLB, OneOf: []string{calc.EndpointLB, calc.EndpointNode}},
			{Name: "endpointAddr", Type: String},
			{Name: "lbAddr", Type: String, Default: "10.0.0.100:6443"},
			{Name: "addrs", Type: String},
			{Name: "failed", Type: String},
		},
		Render: wd.haSim,
	}
}

// workerButton matches a worker's toggle in an interactive diagram: the
// simulator does not fail workers, so they are drawn as plain groups.
var workerButton = regexp.MustCompile(`<g data-node="worker-\d+" tabindex="0" role="button" aria-pressed="(?:true|false)" aria-label="[^"]*">`)

// haNode is a node of the simulator's input as JSON.
type haNode struct {
	Name string `json:"name"`
	IP   string `json:"ip"`
}

// haEndpoint is the simulator's endpoint as JSON.
type haEndpoint struct {
	Kind    string `json:"kind"`
	Address string `json:"address"`
}

// haInput is the simulator's starting input as JSON (the haSimulate API's
// fields) with the two endpoints the reader can switch between.
type haInput struct {
	Topology      string                `json:"topology"`
	ControlPlanes []haNode              `json:"controlPlanes"`
	EtcdMembers   []haNode              `json:"etcdMembers,omitempty"`
	Endpoint      haEndpoint            `json:"endpoint"`
	Failed        []string              `json:"failed"`
	Endpoints     map[string]haEndpoint `json:"endpoints"`
}

// diagramView is one drawing of the simulator: one per endpoint kind.
type diagramView struct {
	Endpoint string
	Shown    bool
	SVG      template.HTML
}

// haArgs are the simulator's arguments, checked.
type haArgs struct {
	topology                string
	cps, etcd, workers      int
	addrs                   map[string]string
	bad                     bool // a problem was reported: render nothing
	report                  func(format string, args ...any)
	lbAddr, endpoint, given string
}

func (wd *widgets) haSim(w io.Writer, c *Context) error {
	a := haCheckArgs(c)
	if a.bad {
		return nil
	}
	in, nodeAddr := a.input(c)
	if a.bad {
		return nil
	}
	res, herr := haRun(in)
	// The node endpoint is drawn pointing at cp-1; check the address
	// names cp-1 (the simulator itself accepts any control plane).
	if herr == nil && in.Endpoint.Kind == calc.EndpointNode && !namesCP1(nodeAddr, in.ControlPlanes[0]) {
		a.report("ha-sim: endpointAddr %q must be cp-1's address (%s) when endpoint is \"node\"", nodeAddr, in.ControlPlanes[0].IP)
		return nil
	}
	keys := []string{"endpoint", "endpoint_lb", "endpoint_node", "reset", "hint", "down", "none", "apiservers",
		"endpointReach", "kubectl", "kubelets", "yes", "no", "works", "fails", "reachable", "unreachable",
		"etcd_ok", "etcd_lost", "ha_ok", "ha_fail"}
	r, err := newRoot(c, "ha-sim", "calc_ha_title_"+a.topology, in, keys)
	if err != nil {
		return err
	}
	labels := diagram.Labels{Lang: c.Lang, T: c.T}
	data := haData{root: r, DownLabel: " (" + c.T("diagram_down") + ")"}
	data.Reasons.Name = "reasons"
	if ok, err := wd.haDiagrams(c, a, &in, herr, labels, &data); !ok || err != nil {
		return err
	}
	if herr != nil {
		c.Report("ha-sim: %s", inputErrorText(herr))
		data.Error = r.fieldError(herr)
		return wd.tmpl.ExecuteTemplate(w, "ha-sim", data)
	}
	data.R = res
	data.Reasons = notes("reasons", haReasons(res), r.Lang)
	data.Status, data.FailedText, data.Etcd, data.Apiservers, data.Reach, data.Kubectl, data.Kubelets = haTexts(r.L, in.Failed, res)
	return wd.tmpl.ExecuteTemplate(w, "ha-sim", data)
}

// haData is what the simulator's markup executes with.
type haData struct {
	root
	DownLabel  string
	Endpoints  []option
	Diagrams   []diagramView
	R          calc.HAResult
	Status     string
	FailedText string
	Etcd       string
	Apiservers string
	Reach      string
	Kubectl    string
	Kubelets   string
	Reasons    noteList
}

// haCheckArgs reads the simulator's arguments and reports those out of
// range.
func haCheckArgs(c *Context) *haArgs {
	a := &haArgs{topology: c.String("topology"), cps: c.Int("controlPlanes"), etcd: c.Int("etcd"), workers: c.Int("workers"),
		lbAddr: c.String("lbAddr"), endpoint: c.String("endpoint"), given: c.String("endpointAddr")}
	a.report = func(format string, args ...any) { a.bad = true; c.Report(format, args...) }
	if a.cps < 1 || a.cps > diagram.MaxNodes {
		a.report("ha-sim: controlPlanes must be between 1 and %d, got %d", diagram.MaxNodes, a.cps)
	}
	if a.topology == calc.TopologyExternal && (a.etcd < 1 || a.etcd > diagram.MaxNodes) {
		a.report("ha-sim: etcd must be between 1 and %d, got %d", diagram.MaxNodes, a.etcd)
	}
	if a.workers < 0 || a.workers > diagram.MaxNodes {
		a.report("ha-sim: workers must be between 0 and %d, got %d", diagram.MaxNodes, a.workers)
	}
	var err error
	if a.addrs, err = diagram.ParseAddrs(c.String("addrs")); err != nil {
		a.report("ha-sim: addrs: %v", err)
	}
	return a
}

// input is the simulator's starting input: the nodes with their
// addresses, what failed, and both endpoints; nodeAddr is the node
// endpoint's address. An address for a node the topology lacks is reported.
func (a *haArgs) input(c *Context) (in haInput, nodeAddr string) {
	in = haInput{Topology: a.topology, Failed: diagram.ParseDown(c.String("failed")), Endpoints: map[string]haEndpoint{}}
	if in.Failed == nil {
		in.Failed = []string{}
	}
	known := map[string]bool{}
	node := func(prefix string, i, base int) haNode {
		name := prefix + strconv.Itoa(i)
		ip := "10.0.0." + strconv.Itoa(base+i)
		if addr, ok := a.addrs[name]; ok {
			ip = addr
		}
		known[name] = true
		return haNode{name, ip}
	}
	for i := 1; i <= a.cps; i++ {
		in.ControlPlanes = append(in.ControlPlanes, node("cp-", i, 10))
	}
	if a.topology == calc.TopologyExternal {
		for i := 1; i <= a.etcd; i++ {
			in.EtcdMembers = append(in.EtcdMembers, node("etcd-", i, 20))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.addrs)) {
		if !known[k] {
			a.report("ha-sim: addrs: no node %q (the simulator names control planes cp-N and external etcd members etcd-N)", k)
		}
	}
	lbAddr := a.lbAddr
	nodeAddr = in.ControlPlanes[0].IP + ":6443"
	if a.given != "" {
		if a.endpoint == calc.EndpointLB {
			lbAddr = a.given
		} else {
			nodeAddr = a.given
		}
	}
	in.Endpoints[calc.EndpointLB] = haEndpoint{calc.EndpointLB, lbAddr}
	in.Endpoints[calc.EndpointNode] = haEndpoint{calc.EndpointNode, nodeAddr}
	in.Endpoint = in.Endpoints[a.endpoint]
	return in, nodeAddr
}

// haRun runs the simulator on the starting input.
func haRun(in haInput) (calc.HAResult, error) {
	sim := calc.HAInput{Topology: in.Topology, Endpoint: calc.Endpoint{Kind: in.Endpoint.Kind, Address: in.Endpoint.Address}, Failed: in.Failed}
	for _, n := range in.ControlPlanes {
		sim.ControlPlanes = append(sim.ControlPlanes, calc.Node{Name: n.Name, IP: n.IP})
	}
	for _, n := range in.EtcdMembers {
		sim.EtcdMembers = append(sim.EtcdMembers, calc.Node{Name: n.Name, IP: n.IP})
	}
	return calc.HASimulate(sim)
}

// namesCP1 reports whether the host of addr is cp-1's address or name.
func namesCP1(addr string, cp1 haNode) bool {
	host := addr
	if i := strings.LastIndexByte(host, ':'); i > 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	return host == cp1.IP || host == cp1.Name
}

// haDiagrams draws the topology once per endpoint kind, the starting one
// shown, into data with the endpoint options. It returns false when a
// problem was reported and the widget renders nothing.
func (wd *widgets) haDiagrams(c *Context, a *haArgs, in *haInput, herr error, labels diagram.Labels, data *haData) (bool, error) {
	r := data.root
	for _, kind := range []string{calc.EndpointLB, calc.EndpointNode} {
		ep := in.Endpoints[kind]
		data.Endpoints = append(data.Endpoints, option{Value: kind, Label: fill(r.L["endpoint_"+kind], "addr", ep.Address), Selected: kind == in.Endpoint.Kind})
		spec := diagram.Spec{Type: a.topology, ControlPlanes: a.cps, Etcd: a.etcd, Workers: a.workers, Endpoint: kind,
			EndpointAddr: ep.Address, Addrs: map[string]string{}, Interactive: true, IDPrefix: r.ID + "-" + kind,
			NoStyle: !c.First("topology-style")}
		if a.topology == calc.TopologyStacked {
			spec.Etcd = 0
		}
		for _, n := range append(append([]haNode{}, in.ControlPlanes...), in.EtcdMembers...) {
			spec.Addrs[n.Name] = n.IP
		}
		for _, f := range in.Failed {
			if herr == nil && (f != "lb" || kind == calc.EndpointLB) {
				spec.Down = append(spec.Down, f)
			}
		}
		svg, derr := diagram.Topology(spec, labels)
		if derr != nil {
			if kind == in.Endpoint.Kind && herr == nil {
				a.report("ha-sim: %v", derr)
				return false, nil
			}
			// The other endpoint's drawing starts with nothing failed.
			spec.Down = nil
			if svg, derr = diagram.Topology(spec, labels); derr != nil {
				return false, derr
			}
		}
		svg = workerButton.ReplaceAllString(svg, "<g>")
		data.Diagrams = append(data.Diagrams, diagramView{Endpoint: kind, Shown: kind == in.Endpoint.Kind, SVG: template.HTML(svg)})
	}
	return true, nil
}

func haReasons(r calc.HAResult) []calc.Reason {
	out := make([]calc.Reason, len(r.Reasons))
	for i, hr := range r.Reasons {
		out[i] = hr.Reason
	}
	return out
}

// haTexts are the simulator's summary values; calc.js builds the same
// from the JS API's result.
func haTexts(l map[string]string, failed []string, r calc.HAResult) (status, failedText, etcd, apis, reach, kubectl, kubelets string) {
	yesNo := func(ok bool, yes, no string) string { return mark(ok, l[yes], l[no]) }
	status = l["ha_fail"]
	if r.KubectlWorks {
		status = l["ha_ok"]
	}
	failedText = l["none"]
	if len(failed) > 0 {
		s := append([]string(nil), failed...)
		sort.Strings(s)
		failedText = strings.Join(s, ", ")
	}
	ek := "etcd_lost"
	if r.EtcdWritable {
		ek = "etcd_ok"
	}
	etcd = fill(l[ek], "alive", strconv.Itoa(len(r.EtcdMembersAlive)), "members", strconv.Itoa(r.EtcdMembers), "quorum", strconv.Itoa(r.EtcdQuorum))
	apis = l["none"]
	if len(r.ApiserversServing) > 0 {
		apis = strings.Join(r.ApiserversServing, ", ")
	}
	reach = yesNo(r.APIReachableViaEndpoint, "reachable", "unreachable")
	kubectl = yesNo(r.KubectlWorks, "works", "fails")
	kubelets = yesNo(r.WorkerKubeletsReachAPI, "reachable", "unreachable")
	return
}
