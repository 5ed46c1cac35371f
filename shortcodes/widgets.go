package shortcodes

import (
	"encoding/json"
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

// AssetLinker is implemented by the page value a build puts in
// markdown.Env.Values["page"] when calculator widgets should link the
// WebAssembly modules relative to the page. Rel turns a site-absolute path
// such as "/calc/calc.wasm" into a page-relative one
// ("../../../calc/calc.wasm"), so links work under any base URL and from
// file://. Without it the widgets carry no module URLs and calc.js
// resolves them beside its own script ("../calc/calc.wasm").
type AssetLinker interface {
	Rel(sitePath string) string
}

// Site paths of the calculator assets the build writes.
const (
	CalcWasmPath     = "/calc/calc.wasm"
	CalcX509WasmPath = "/calc/calc-x509.wasm"
	WasmExecPath     = "/js/wasm_exec.js"
	CalcScriptPath   = "/js/calc.js"
	CalcStylePath    = "/css/calc.css"
)

// widgetText is the data the widgets' markup is executed with.
type widgetText map[string]any

// widgetTemplates are the three calculators' markup. Every value comes from
// the page's UI strings, the calculators or the shortcode's arguments and
// is escaped by html/template.
const widgetTemplates = `
{{define "root"}} data-calc="{{.Kind}}" id="{{.ID}}" lang="{{.Lang}}" aria-labelledby="{{.ID}}-title" data-input="{{.Input}}" data-text="{{.Text}}"
{{- with .Wasm}} data-wasm="{{.}}"{{end}}{{with .WasmX509}} data-wasm-x509="{{.}}"{{end}}{{with .WasmExec}} data-wasm-exec="{{.}}"{{end}}{{end}}
{{define "head"}}<p class="calc-title" id="{{.ID}}-title">{{.Title}}</p>
<p class="calc-static" data-static>{{.Static}}</p>
{{end}}
{{define "error"}}<p class="calc-error" data-out="error" role="alert"{{if not .Error}} hidden{{end}}>{{.Error}}</p>{{end}}
{{define "notes"}}<ul class="calc-notes" data-out="{{.Name}}">
{{- range .Items}}
<li data-code="{{.Code}}">{{.Text}}</li>
{{- end}}
</ul>{{end}}

{{define "quorum"}}<section class="calc calc-quorum"{{template "root" .}}>
{{template "head" .}}<form class="calc-form" data-form>
<fieldset class="calc-fields" disabled>
<legend class="visually-hidden">{{.Title}}</legend>
<label for="{{.ID}}-members">{{.L.members}}<input type="number" id="{{.ID}}-members" name="members" min="1" max="99" step="1" value="{{.Members}}" inputmode="numeric" required></label>
<label for="{{.ID}}-failed">{{.L.failed}}<input type="number" id="{{.ID}}-failed" name="failed" min="0" max="99" step="1" value="{{.Failed}}" inputmode="numeric" required></label>
</fieldset>
</form>
<output class="calc-status" for="{{.ID}}-members {{.ID}}-failed" aria-live="polite" data-out="status">{{.Status}}</output>
{{template "error" .}}
<dl class="calc-facts">
<div><dt>{{.L.quorum}}</dt><dd data-out="quorum">{{.R.Quorum}}</dd></div>
<div><dt>{{.L.tolerance}}</dt><dd data-out="tolerance">{{.R.Tolerance}}</dd></div>
<div><dt>{{.L.alive}}</dt><dd data-out="alive">{{.R.Alive}}</dd></div>
<div><dt>{{.L.writable}}</dt><dd data-out="writable" data-ok="{{.R.Writable}}">{{.Writable}}</dd></div>
</dl>
{{template "notes" .Advice}}
</section>
{{end}}

{{define "san"}}<section class="calc calc-san"{{template "root" .}}>
{{template "head" .}}<form class="calc-form" data-form>
<fieldset class="calc-fields" disabled>
<legend class="visually-hidden">{{.Title}}</legend>
<label for="{{.ID}}-kind">{{.L.kind}}<select id="{{.ID}}-kind" name="kind">
{{- range .Kinds}}
<option value="{{.Value}}"{{if .Selected}} selected{{end}}>{{.Label}}</option>
{{- end}}
</select></label>
<label for="{{.ID}}-nodeName">{{.L.nodeName}}<input type="text" id="{{.ID}}-nodeName" name="nodeName" value="{{.In.NodeName}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-advertiseAddress">{{.L.advertiseAddress}}<input type="text" id="{{.ID}}-advertiseAddress" name="advertiseAddress" value="{{.In.AdvertiseAddress}}" spellcheck="false" autocomplete="off" inputmode="decimal"></label>
<label for="{{.ID}}-controlPlaneEndpoint">{{.L.controlPlaneEndpoint}}<input type="text" id="{{.ID}}-controlPlaneEndpoint" name="controlPlaneEndpoint" value="{{.In.ControlPlaneEndpoint}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-serviceSubnet">{{.L.serviceSubnet}}<input type="text" id="{{.ID}}-serviceSubnet" name="serviceSubnet" value="{{.In.ServiceSubnet}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-dnsDomain">{{.L.dnsDomain}}<input type="text" id="{{.ID}}-dnsDomain" name="dnsDomain" value="{{.In.DNSDomain}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-certSANs">{{.L.certSANs}}<input type="text" id="{{.ID}}-certSANs" name="certSANs" value="{{.CertSANs}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-dial">{{.L.dial}}<input type="text" id="{{.ID}}-dial" name="dial" value="{{.Dial}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-pem" class="calc-wide">{{.L.pem}}<textarea id="{{.ID}}-pem" name="pem" rows="3" spellcheck="false" autocomplete="off" placeholder="-----BEGIN CERTIFICATE-----"></textarea></label>
</fieldset>
</form>
<output class="calc-status" for="{{.ID}}-nodeName {{.ID}}-advertiseAddress {{.ID}}-controlPlaneEndpoint {{.ID}}-dial {{.ID}}-pem" aria-live="polite" data-out="status" data-ok="{{.OK}}">{{.Status}}</output>
{{template "error" .}}
<dl class="calc-facts calc-sans">
<div><dt>{{.L.dns}}</dt><dd data-out="dns">{{range $i, $n := .R.DNS}}{{if $i}}, {{end}}<code>{{$n}}</code>{{end}}</dd></div>
<div><dt>{{.L.ips}}</dt><dd data-out="ips">{{range $i, $n := .R.IPs}}{{if $i}}, {{end}}<code>{{$n}}</code>{{end}}</dd></div>
<div><dt>{{.L.verify}}</dt><dd data-out="verify">{{.Verify}}</dd></div>
</dl>
{{template "notes" .Warnings}}
</section>
{{end}}

{{define "ha-sim"}}<section class="calc calc-ha"{{template "root" .}} data-down-label="{{.DownLabel}}">
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

// note is one advice, warning or reason line.
type note struct{ Code, Text string }

// noteList is a list of notes and the data-out name JS fills it by.
type noteList struct {
	Name  string
	Items []note
}

// option is one <option> of a select.
type option struct {
	Value, Label string
	Selected     bool
}

// widgets renders the calculator widgets; it holds the parsed templates.
type widgets struct {
	tmpl *template.Template
}

func newWidgets() *widgets {
	return &widgets{tmpl: template.Must(template.New("widgets").Parse(widgetTemplates))}
}

// shortcodes returns the quorum, san and ha-sim shortcodes.
func (wd *widgets) shortcodes() []*Shortcode {
	return []*Shortcode{
		{
			Name: "quorum", Block: true,
			Args: []ArgSpec{
				{Name: "members", Type: Int, Default: int64(3), Position: 1},
				{Name: "failed", Type: Int, Default: int64(0), Position: 2},
			},
			Render: wd.quorum,
		},
		{
			Name: "san", Block: true,
			Args: []ArgSpec{
				{Name: "kind", Type: String, Default: calc.KindAPIServer, OneOf: []string{calc.KindAPIServer, calc.KindEtcdServer, calc.KindEtcdPeer}},
				{Name: "nodeName", Type: String, Default: "cp-1"},
				{Name: "advertiseAddress", Type: String, Default: "10.0.0.111"},
				{Name: "controlPlaneEndpoint", Type: String},
				{Name: "serviceSubnet", Type: String, Default: calc.DefaultServiceSubnet},
				{Name: "dnsDomain", Type: String, Default: calc.DefaultDNSDomain},
				{Name: "certSANs", Type: String},
				{Name: "dial", Type: String},
			},
			Render: wd.san,
		},
		{
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
		},
	}
}

// root is what every widget's root element carries.
type root struct {
	Kind, ID, Lang, Title, Static string
	Input, Text                   string // JSON
	Wasm, WasmX509, WasmExec      string
	Error                         string
	L                             map[string]string
}

// newRoot fills the common part of a widget; keys are the UI strings (after
// the "calc_" prefix) the markup and calc.js need.
func newRoot(c *Context, kind, title string, input any, keys []string) (root, error) {
	r := root{Kind: kind, ID: c.ID("calc-" + kind), Lang: c.Lang, L: map[string]string{}}
	if r.Lang == "" {
		r.Lang = "ja"
	}
	for _, k := range keys {
		r.L[k] = c.T("calc_" + k)
	}
	r.Title = c.T(title)
	r.Static = c.T("calc_static")
	in, err := json.Marshal(input)
	if err != nil {
		return r, err
	}
	text, err := json.Marshal(r.L)
	if err != nil {
		return r, err
	}
	r.Input, r.Text = string(in), string(text)
	if l, ok := c.Page.(AssetLinker); ok {
		r.Wasm, r.WasmX509, r.WasmExec = l.Rel(CalcWasmPath), l.Rel(CalcX509WasmPath), l.Rel(WasmExecPath)
	}
	return r, nil
}

// fill replaces {name} placeholders in s with the values of kv.
func fill(s string, kv ...string) string {
	for i := 0; i+1 < len(kv); i += 2 {
		s = strings.ReplaceAll(s, "{"+kv[i]+"}", kv[i+1])
	}
	return s
}

func notes(name string, rs []calc.Reason, lang string) noteList {
	l := noteList{Name: name}
	for _, r := range rs {
		l.Items = append(l.Items, note{Code: r.Code, Text: r.Text(lang)})
	}
	return l
}

// inputErrorText is the localized text of a calculator error.
func inputErrorText(err error, lang string) string {
	if e, ok := err.(*calc.InputError); ok {
		return e.Text(lang)
	}
	return err.Error()
}

func (wd *widgets) quorum(w io.Writer, c *Context) error {
	members, failed := c.Int("members"), c.Int("failed")
	keys := []string{"failed", "alive", "writable", "yes", "no", "quorum_ok", "quorum_lost"}
	r, err := newRoot(c, "quorum", "calc_quorum_title",
		map[string]any{"members": members, "failed": failed}, keys)
	if err != nil {
		return err
	}
	r.L["members"], r.L["quorum"], r.L["tolerance"] = c.T("quorum_members"), c.T("quorum_quorum"), c.T("quorum_tolerance")
	res, qerr := calc.Quorum(members, failed)
	data := struct {
		root
		Members, Failed  int
		R                calc.QuorumResult
		Status, Writable string
		Advice           noteList
	}{root: r, Members: members, Failed: failed, R: res}
	if qerr != nil {
		c.Report("quorum: %s", inputErrorText(qerr, "en"))
		data.Error = inputErrorText(qerr, r.Lang)
	} else {
		data.Status = quorumStatus(r.L, res)
		data.Writable = mark(res.Writable, r.L["yes"], r.L["no"])
		data.Advice = notes("advice", res.Advice, r.Lang)
	}
	data.Advice.Name = "advice"
	return wd.tmpl.ExecuteTemplate(w, "quorum", data)
}

func quorumStatus(l map[string]string, r calc.QuorumResult) string {
	key := "quorum_lost"
	if r.Writable {
		key = "quorum_ok"
	}
	return fill(l[key], "alive", strconv.Itoa(r.Alive), "members", strconv.Itoa(r.Members), "quorum", strconv.Itoa(r.Quorum))
}

func (wd *widgets) san(w io.Writer, c *Context) error {
	in := calc.SANsInput{
		Kind:                 c.String("kind"),
		NodeName:             c.String("nodeName"),
		AdvertiseAddress:     c.String("advertiseAddress"),
		ControlPlaneEndpoint: c.String("controlPlaneEndpoint"),
		ServiceSubnet:        c.String("serviceSubnet"),
		DNSDomain:            c.String("dnsDomain"),
		CertSANs:             diagram.SplitList(c.String("certSANs")),
	}
	dial := c.String("dial")
	if dial == "" {
		dial = in.AdvertiseAddress + ":6443"
	}
	input := map[string]any{
		"kind": in.Kind, "nodeName": in.NodeName, "advertiseAddress": in.AdvertiseAddress,
		"controlPlaneEndpoint": in.ControlPlaneEndpoint, "serviceSubnet": in.ServiceSubnet,
		"dnsDomain": in.DNSDomain, "certSANs": nonNil(in.CertSANs), "dial": dial,
	}
	keys := []string{"kind", "nodeName", "advertiseAddress", "controlPlaneEndpoint", "serviceSubnet", "dnsDomain",
		"certSANs", "dial", "pem", "dns", "ips", "verify", "san_ok", "san_fail", "pem_loading", "none"}
	r, err := newRoot(c, "san", "calc_san_title", input, keys)
	if err != nil {
		return err
	}
	data := struct {
		root
		In       calc.SANsInput
		CertSANs string
		Dial     string
		Kinds    []option
		R        calc.SANsResult
		OK       bool
		Status   string
		Verify   string
		Warnings noteList
	}{root: r, In: in, CertSANs: strings.Join(in.CertSANs, ", "), Dial: dial}
	for _, k := range []string{calc.KindAPIServer, calc.KindEtcdServer, calc.KindEtcdPeer} {
		data.Kinds = append(data.Kinds, option{Value: k, Label: c.T("calc_kind_" + strings.ReplaceAll(k, "-", "_")), Selected: k == in.Kind})
	}
	data.Warnings.Name = "warnings"
	res, serr := calc.SANs(in)
	if serr != nil {
		c.Report("san: %s", inputErrorText(serr, "en"))
		data.Error = inputErrorText(serr, r.Lang)
		return wd.tmpl.ExecuteTemplate(w, "san", data)
	}
	data.R = res
	data.Warnings = notes("warnings", res.Warnings, r.Lang)
	v, verr := calc.VerifyHost(calc.CertNames{DNS: res.DNS, IPs: res.IPs}, dial)
	if verr != nil {
		c.Report("san: %s", inputErrorText(verr, "en"))
		data.Error = inputErrorText(verr, r.Lang)
		return wd.tmpl.ExecuteTemplate(w, "san", data)
	}
	data.OK = v.OK
	data.Verify = v.Reason.Text(r.Lang)
	data.Status = sanStatus(r.L, dial, v.OK)
	return wd.tmpl.ExecuteTemplate(w, "san", data)
}

func sanStatus(l map[string]string, dial string, ok bool) string {
	if ok {
		return fill(l["san_ok"], "dial", dial)
	}
	return fill(l["san_fail"], "dial", dial)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
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

// mark prefixes a verdict with a sign, so it does not rest on colour.
func mark(ok bool, yes, no string) string {
	if ok {
		return "✓ " + yes
	}
	return "✗ " + no
}
