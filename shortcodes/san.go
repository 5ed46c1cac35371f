package shortcodes

import (
	"io"
	"strings"

	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
	"github.com/kakehashi-dev/kakehashi/shortcodes/diagram"
)

// sanTemplate is the markup of the certificate SAN calculator.
const sanTemplate = `{{define "san"}}<section class="calc calc-san"{{template "root" .}}>
{{template "head" .}}<form class="calc-form" data-form>
<fieldset class="calc-fields" disabled>
<legend class="visually-hidden">{{.Title}}</legend>
<label for="{{.ID}}-kind">{{.L.kind}}<select id="{{.ID}}-kind" name="kind">
{{- range .Kinds}}
<option value="{{.Value}}"{{if .Selected}} selected{{end}}>{{.Label}}</option>
{{- end}}
</select></label>
<label for="{{.ID}}-etcd">{{.L.etcd}}<select id="{{.ID}}-etcd" name="etcd">
{{- range .EtcdModes}}
<option value="{{.Value}}"{{if .Selected}} selected{{end}}>{{.Label}}</option>
{{- end}}
</select></label>
<label for="{{.ID}}-node-name">{{.L.nodeName}}<input type="text" id="{{.ID}}-node-name" name="node-name" value="{{.In.NodeName}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-advertiseAddress">{{.L.advertiseAddress}}<input type="text" id="{{.ID}}-advertiseAddress" name="advertiseAddress" value="{{.In.AdvertiseAddress}}" spellcheck="false" autocomplete="off" inputmode="decimal"></label>
<label for="{{.ID}}-controlPlaneEndpoint">{{.L.controlPlaneEndpoint}}<input type="text" id="{{.ID}}-controlPlaneEndpoint" name="controlPlaneEndpoint" value="{{.In.ControlPlaneEndpoint}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-serviceSubnet">{{.L.serviceSubnet}}<input type="text" id="{{.ID}}-serviceSubnet" name="serviceSubnet" value="{{.In.ServiceSubnet}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-dnsDomain">{{.L.dnsDomain}}<input type="text" id="{{.ID}}-dnsDomain" name="dnsDomain" value="{{.In.DNSDomain}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-certSANs">{{.L.certSANs}}<input type="text" id="{{.ID}}-certSANs" name="certSANs" value="{{.CertSANs}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-dial">{{.L.dial}}<input type="text" id="{{.ID}}-dial" name="dial" value="{{.Dial}}" spellcheck="false" autocomplete="off"></label>
<label for="{{.ID}}-pem" class="calc-wide">{{.L.pem}}<textarea id="{{.ID}}-pem" name="pem" rows="3" spellcheck="false" autocomplete="off" placeholder="-----BEGIN CERTIFICATE-----"></textarea></label>
</fieldset>
</form>
<output class="calc-status" for="{{.ID}}-kind {{.ID}}-etcd {{.ID}}-node-name {{.ID}}-advertiseAddress {{.ID}}-controlPlaneEndpoint {{.ID}}-dial {{.ID}}-pem" aria-live="polite" data-out="status"{{if .R.Created}} data-ok="{{.OK}}"{{end}}>{{.Status}}</output>
{{template "error" .}}
<dl class="calc-facts calc-sans">
<div><dt>{{.L.dns}}</dt><dd data-out="dns">{{range $i, $n := .R.DNS}}{{if $i}}, {{end}}<code>{{$n}}</code>{{else}}{{if .R.Certificates}}{{.L.none}}{{end}}{{end}}</dd></div>
<div><dt>{{.L.ips}}</dt><dd data-out="ips">{{range $i, $n := .R.IPs}}{{if $i}}, {{end}}<code>{{$n}}</code>{{else}}{{if .R.Certificates}}{{.L.none}}{{end}}{{end}}</dd></div>
<div><dt>{{.L.verify}}</dt><dd data-out="verify">{{.Verify}}</dd></div>
<div><dt>{{.L.certs}}</dt><dd data-out="certs">{{range $i, $c := .R.Certificates}}{{if $i}}, {{end}}<code>{{$c.BaseName}}.crt</code>{{end}}</dd></div>
</dl>
{{template "notes" .Warnings}}
</section>
{{end}}

`

// sanShortcode is the SAN calculator: the names kubeadm puts in a
// certificate, and whether an address a client dials is among them.
func (wd *widgets) sanShortcode() *Shortcode {
	return &Shortcode{
		Name: "san", Block: true,
		Args: []ArgSpec{
			{Name: "kind", Type: String, Default: calc.KindAPIServer, OneOf: []string{calc.KindAPIServer, calc.KindEtcdServer, calc.KindEtcdPeer}},
			{Name: "etcd", Type: String, Default: calc.EtcdStacked, OneOf: []string{calc.EtcdStacked, calc.EtcdExternal}},
			{Name: "nodeName", Type: String, Default: "cp-1"},
			{Name: "advertiseAddress", Type: String, Default: "10.0.0.111"},
			{Name: "controlPlaneEndpoint", Type: String},
			{Name: "serviceSubnet", Type: String, Default: calc.DefaultServiceSubnet},
			{Name: "dnsDomain", Type: String, Default: calc.DefaultDNSDomain},
			{Name: "certSANs", Type: String},
			{Name: "dial", Type: String},
		},
		Render: wd.san,
	}
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
		Etcd:                 c.String("etcd"),
	}
	dial := c.String("dial")
	if dial == "" {
		dial = in.AdvertiseAddress + ":6443"
	}
	input := map[string]any{
		"kind": in.Kind, "nodeName": in.NodeName, "advertiseAddress": in.AdvertiseAddress,
		"controlPlaneEndpoint": in.ControlPlaneEndpoint, "serviceSubnet": in.ServiceSubnet,
		"dnsDomain": in.DNSDomain, "certSANs": nonNil(in.CertSANs), "dial": dial, "etcd": in.Etcd,
	}
	keys := []string{"kind", "etcd", "nodeName", "advertiseAddress", "controlPlaneEndpoint", "serviceSubnet", "dnsDomain",
		"certSANs", "dial", "pem", "dns", "ips", "verify", "certs", "san_ok", "san_fail", "no_cert", "pem_loading", "none"}
	r, err := newRoot(c, "san", "calc_san_title", input, keys)
	if err != nil {
		return err
	}
	data := struct {
		root
		In        calc.SANsInput
		CertSANs  string
		Dial      string
		Kinds     []option
		EtcdModes []option
		R         calc.SANsResult
		OK        bool
		Status    string
		Verify    string
		Warnings  noteList
	}{root: r, In: in, CertSANs: strings.Join(in.CertSANs, ", "), Dial: dial}
	for _, k := range []string{calc.KindAPIServer, calc.KindEtcdServer, calc.KindEtcdPeer} {
		data.Kinds = append(data.Kinds, option{Value: k, Label: c.T("calc_kind_" + strings.ReplaceAll(k, "-", "_")), Selected: k == in.Kind})
	}
	for _, m := range []string{calc.EtcdStacked, calc.EtcdExternal} {
		data.EtcdModes = append(data.EtcdModes, option{Value: m, Label: c.T("calc_etcd_" + m), Selected: m == in.Etcd})
	}
	data.Warnings.Name = "warnings"
	res, serr := calc.SANs(in)
	if serr != nil {
		c.Report("san: %s", inputErrorText(serr))
		data.Error = r.fieldError(serr)
		return wd.tmpl.ExecuteTemplate(w, "san", data)
	}
	data.R = res
	data.Warnings = notes("warnings", res.Warnings, r.Lang)
	if !res.Created {
		// kubeadm makes no such certificate: nothing to verify.
		data.Status, data.Verify = r.L["no_cert"], "\u2014"
		return wd.tmpl.ExecuteTemplate(w, "san", data)
	}
	v, verr := calc.VerifyHost(calc.CertNames{DNS: res.DNS, IPs: res.IPs}, dial)
	if verr != nil {
		c.Report("san: %s", inputErrorText(verr))
		data.Error = r.fieldError(verr)
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
