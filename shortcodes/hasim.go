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

func (wd *widgets) haSim(w io.Writer, c *Context) error {
	topology := c.String("topology")
	cps, etcdN, workers := c.Int("controlPlanes"), c.Int("etcd"), c.Int("workers")
	bad := false
	report := func(format string, args ...any) { bad = true; c.Report(format, args...) }
	if cps < 1 || cps > diagram.MaxNodes {
		report("ha-sim: controlPlanes must be between 1 and %d, got %d", diagram.MaxNodes, cps)
	}
	if topology == calc.TopologyExternal && (etcdN < 1 || etcdN > diagram.MaxNodes) {
		report("ha-sim: etcd must be between 1 and %d, got %d", diagram.MaxNodes, etcdN)
	}
	if workers < 0 || workers > diagram.MaxNodes {
		report("ha-sim: workers must be between 0 and %d, got %d", diagram.MaxNodes, workers)
	}
	addrs, err := diagram.ParseAddrs(c.String("addrs"))
	if err != nil {
		report("ha-sim: addrs: %v", err)
	}
	if bad {
		return nil
	}
	in := haInput{Topology: topology, Failed: diagram.ParseDown(c.String("failed")), Endpoints: map[string]haEndpoint{}}
	if in.Failed == nil {
		in.Failed = []string{}
	}
	known := map[string]bool{}
	for i := 1; i <= cps; i++ {
		name := "cp-" + strconv.Itoa(i)
		ip := "10.0.0." + strconv.Itoa(10+i)
		if a, ok := addrs[name]; ok {
			ip = a
		}
		in.ControlPlanes = append(in.ControlPlanes, haNode{name, ip})
		known[name] = true
	}
	if topology == calc.TopologyExternal {
		for i := 1; i <= etcdN; i++ {
			name := "etcd-" + strconv.Itoa(i)
			ip := "10.0.0." + strconv.Itoa(20+i)
			if a, ok := addrs[name]; ok {
				ip = a
			}
			in.EtcdMembers = append(in.EtcdMembers, haNode{name, ip})
			known[name] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(addrs)) {
		if !known[k] {
			report("ha-sim: addrs: no node %q (the simulator names control planes cp-N and external etcd members etcd-N)", k)
		}
	}
	lbAddr := c.String("lbAddr")
	nodeAddr := in.ControlPlanes[0].IP + ":6443"
	if a := c.String("endpointAddr"); a != "" {
		if c.String("endpoint") == calc.EndpointLB {
			lbAddr = a
		} else {
			nodeAddr = a
		}
	}
	in.Endpoints[calc.EndpointLB] = haEndpoint{calc.EndpointLB, lbAddr}
	in.Endpoints[calc.EndpointNode] = haEndpoint{calc.EndpointNode, nodeAddr}
	in.Endpoint = in.Endpoints[c.String("endpoint")]
	if bad {
		return nil
	}

	sim := calc.HAInput{Topology: topology, Endpoint: calc.Endpoint{Kind: in.Endpoint.Kind, Address: in.Endpoint.Address}, Failed: in.Failed}
	for _, n := range in.ControlPlanes {
		sim.ControlPlanes = append(sim.ControlPlanes, calc.Node{Name: n.Name, IP: n.IP})
	}
	for _, n := range in.EtcdMembers {
		sim.EtcdMembers = append(sim.EtcdMembers, calc.Node{Name: n.Name, IP: n.IP})
	}
	res, herr := calc.HASimulate(sim)
	// The node endpoint is drawn pointing at cp-1; check the address
	// names cp-1 (the simulator itself accepts any control plane).
	if herr == nil && in.Endpoint.Kind == calc.EndpointNode {
		host := nodeAddr
		if i := strings.LastIndexByte(host, ':'); i > 0 && !strings.HasSuffix(host, "]") {
			host = host[:i]
		}
		if host != in.ControlPlanes[0].IP && host != in.ControlPlanes[0].Name {
			report("ha-sim: endpointAddr %q must be cp-1's address (%s) when endpoint is \"node\"", nodeAddr, in.ControlPlanes[0].IP)
			return nil
		}
	}

	keys := []string{"endpoint", "endpoint_lb", "endpoint_node", "reset", "hint", "down", "none", "apiservers",
		"endpointReach", "kubectl", "kubelets", "yes", "no", "works", "fails", "reachable", "unreachable",
		"etcd_ok", "etcd_lost", "ha_ok", "ha_fail"}
	r, err := newRoot(c, "ha-sim", "calc_ha_title_"+topology, in, keys)
	if err != nil {
		return err
	}
	labels := diagram.JapaneseLabels()
	if c.Lang == "ko" {
		labels = diagram.KoreanLabels()
	}
	data := struct {
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
	}{root: r, DownLabel: " (" + labels.Down + ")"}
	data.Reasons.Name = "reasons"
	for _, kind := range []string{calc.EndpointLB, calc.EndpointNode} {
		ep := in.Endpoints[kind]
		data.Endpoints = append(data.Endpoints, option{Value: kind, Label: fill(r.L["endpoint_"+kind], "addr", ep.Address), Selected: kind == in.Endpoint.Kind})
		spec := diagram.Spec{Type: topology, ControlPlanes: cps, Etcd: etcdN, Workers: workers, Endpoint: kind,
			EndpointAddr: ep.Address, Addrs: map[string]string{}, Interactive: true, IDPrefix: r.ID + "-" + kind,
			NoStyle: !c.First("topology-style")}
		if topology == calc.TopologyStacked {
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
				report("ha-sim: %v", derr)
				return nil
			}
			// The other endpoint's drawing starts with nothing failed.
			spec.Down = nil
			if svg, derr = diagram.Topology(spec, labels); derr != nil {
				return derr
			}
		}
		svg = workerButton.ReplaceAllString(svg, "<g>")
		data.Diagrams = append(data.Diagrams, diagramView{Endpoint: kind, Shown: kind == in.Endpoint.Kind, SVG: template.HTML(svg)})
	}
	if herr != nil {
		c.Report("ha-sim: %s", inputErrorText(herr, "en"))
		data.Error = inputErrorText(herr, r.Lang)
		return wd.tmpl.ExecuteTemplate(w, "ha-sim", data)
	}
	data.R = res
	data.Reasons = notes("reasons", haReasons(res), r.Lang)
	data.Status, data.FailedText, data.Etcd, data.Apiservers, data.Reach, data.Kubectl, data.Kubelets = haTexts(r.L, in.Failed, res)
	return wd.tmpl.ExecuteTemplate(w, "ha-sim", data)
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
