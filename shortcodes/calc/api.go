package calc

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// Functions lists the calculators Call knows, in the order the WebAssembly
// module registers them on globalThis.kakehashi.calc.
func Functions() []string {
	return []string{"quorum", "sans", "verifyHost", "haSimulate"}
}

// PEMParser reads the first certificate of a PEM text. Package
// shortcodes/calc/pemcert provides one; it lives apart because crypto/x509
// roughly doubles the size of the WebAssembly module.
type PEMParser func(pemText string) (CertInfo, error)

// API is the JS API. The zero value serves every calculator; verifyHost
// with a pem field answers err.pem-module unless ParsePEM is set.
type API struct {
	ParsePEM PEMParser
}

// Call runs Call on the zero API: no PEM parsing.
func Call(name string, in any) map[string]any { return API{}.Call(name, in) }

// Call runs the calculator name of the JS API on in, a plain object as
// decoded by encoding/json or converted from a JS value (map[string]any,
// []any, float64, string, bool, nil). The result is a plain object of the
// same kinds, ready for js.ValueOf or encoding/json. Call never panics: an
// invalid input, an unknown name or an internal failure becomes an object
// whose "error" field holds the localized message prefixed by the field,
// "errorText" the message alone (what to enter: a widget puts the field's
// visible label before it), "errorCode" its code ("err.empty" for a value
// not entered yet) and "errorField" the field at fault.
func (api API) Call(name string, in any) (out map[string]any) {
	lang := "ja"
	defer func() {
		if p := recover(); p != nil {
			msg := "panic"
			if e, ok := p.(error); ok {
				msg = e.Error()
			} else if s, ok := p.(string); ok {
				msg = s
			}
			out = errorOut(lang, &InputError{Field: name, Reason: R("err.internal", "value", msg)})
		}
	}()
	obj, ok := in.(map[string]any)
	if in == nil {
		obj, ok = map[string]any{}, true
	}
	if !ok {
		return errorOut(lang, inputErr("input", "err.type", "want", "object", "got", typeName(in)))
	}
	a := &fields{m: obj}
	lang = a.lang()
	if a.err != nil {
		return errorOut("ja", a.err)
	}
	switch name {
	case "quorum":
		return quorumAPI(a, lang)
	case "sans":
		return sansAPI(a, lang)
	case "verifyHost":
		return api.verifyAPI(a, lang)
	case "haSimulate":
		return haAPI(a, lang)
	}
	return errorOut(lang, inputErr("function", "err.unknown-function", "value", name))
}

func quorumAPI(a *fields, lang string) map[string]any {
	members := a.int("members", 3)
	failed := a.int("failed", 0)
	if a.err != nil {
		return errorOut(lang, a.err, "valid", false)
	}
	r, err := Quorum(members, failed)
	if err != nil {
		return errorOut(lang, err, "valid", false)
	}
	return map[string]any{
		"valid":     true,
		"members":   float64(r.Members),
		"failed":    float64(r.Failed),
		"quorum":    float64(r.Quorum),
		"tolerance": float64(r.Tolerance),
		"alive":     float64(r.Alive),
		"writable":  r.Writable,
		"advice":    reasonsOut(r.Advice, lang),
		"error":     nil,
	}
}

// errorOut is the output object for an error, with extra key/value pairs.
func errorOut(lang string, err error, kv ...any) map[string]any {
	out := map[string]any{"error": err.Error(), "errorText": err.Error(), "errorCode": "", "errorField": ""}
	if e, ok := err.(*InputError); ok {
		out["error"] = e.Text(lang)
		out["errorText"] = e.Reason.Text(lang)
		out["errorCode"] = e.Reason.Code
		out["errorField"] = e.Field
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func reasonOut(r Reason, lang string) map[string]any {
	args := map[string]any{}
	keys := make([]string, 0, len(r.Args))
	for k := range r.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args[k] = r.Args[k]
	}
	return map[string]any{"code": r.Code, "args": args, "text": r.Text(lang)}
}

func reasonsOut(rs []Reason, lang string) []any {
	out := make([]any, 0, len(rs))
	for _, r := range rs {
		out = append(out, reasonOut(r, lang))
	}
	return out
}

func stringsOut(ss []string) []any {
	out := make([]any, 0, len(ss))
	for _, s := range ss {
		out = append(out, s)
	}
	return out
}

// fields reads typed fields from a plain object, remembering the first
// error so a calculator can read all its fields and check once.
type fields struct {
	m      map[string]any
	prefix string
	err    *InputError
}

func (a *fields) name(k string) string {
	if a.prefix == "" {
		return k
	}
	return a.prefix + "." + k
}

func (a *fields) fail(e *InputError) {
	if a.err == nil {
		a.err = e
	}
}

// get returns the value of k; a missing key and null both count as absent.
func (a *fields) get(k string) (any, bool) {
	v, ok := a.m[k]
	if !ok || v == nil {
		return nil, false
	}
	return v, true
}

// lang is the language of the texts asked for, "ja" when none is; a
// language the catalogue has no texts in gets the English ones
// (Reason.Text).
func (a *fields) lang() string {
	return a.string("lang", "ja")
}

func (a *fields) int(k string, def int) int {
	v, ok := a.get(k)
	if !ok {
		return def
	}
	n, err := toInt(a.name(k), v)
	if err != nil {
		a.fail(err)
		return def
	}
	return n
}

// toInt reads an integer field: a number, or a string holding one, as a
// form field's value does. An empty string (or spaces), what a cleared
// field sends, is CodeEmpty; any other string that is not a decimal number
// is not an integer.
func toInt(field string, v any) (int, *InputError) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int:
		return x, nil
	case string:
		t := strings.TrimSpace(x)
		if t == "" {
			return 0, inputErr(field, CodeEmpty)
		}
		n, err := strconv.ParseFloat(t, 64)
		if err != nil || strings.ContainsAny(t, "xXpP_") {
			return 0, inputErr(field, "err.not-integer", "value", x)
		}
		f = n
	default:
		return 0, inputErr(field, "err.type", "want", "integer", "got", typeName(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return 0, inputErr(field, "err.not-integer", "value", strconv.FormatFloat(f, 'g', -1, 64))
	}
	return int(f), nil
}

func (a *fields) string(k, def string) string {
	v, ok := a.get(k)
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		a.fail(inputErr(a.name(k), "err.type", "want", "string", "got", typeName(v)))
		return def
	}
	return s
}

func (a *fields) strings(k string) []string {
	v, ok := a.get(k)
	if !ok {
		return nil
	}
	list, isList := v.([]any)
	if !isList {
		a.fail(inputErr(a.name(k), "err.type", "want", "array of strings", "got", typeName(v)))
		return nil
	}
	out := make([]string, 0, len(list))
	for i, e := range list {
		s, isStr := e.(string)
		if !isStr {
			a.fail(inputErr(a.name(k)+"["+strconv.Itoa(i)+"]", "err.type", "want", "string", "got", typeName(e)))
			return nil
		}
		out = append(out, s)
	}
	return out
}

// object returns the nested object k as fields, or nil when absent.
func (a *fields) object(k string) *fields {
	v, ok := a.get(k)
	if !ok {
		return nil
	}
	m, isObj := v.(map[string]any)
	if !isObj {
		a.fail(inputErr(a.name(k), "err.type", "want", "object", "got", typeName(v)))
		return nil
	}
	return &fields{m: m, prefix: a.name(k)}
}

// adopt takes the first error of a nested reader.
func (a *fields) adopt(b *fields) {
	if b != nil && b.err != nil {
		a.fail(b.err)
	}
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64, int:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func sansAPI(a *fields, lang string) map[string]any {
	in := SANsInput{
		Kind:                 a.string("kind", ""),
		NodeName:             a.string("nodeName", ""),
		AdvertiseAddress:     a.string("advertiseAddress", ""),
		ControlPlaneEndpoint: a.string("controlPlaneEndpoint", ""),
		ServiceSubnet:        a.string("serviceSubnet", ""),
		DNSDomain:            a.string("dnsDomain", ""),
		CertSANs:             a.strings("certSANs"),
		Etcd:                 a.string("etcd", ""),
	}
	if a.err != nil {
		return errorOut(lang, a.err)
	}
	r, err := SANs(in)
	if err != nil {
		return errorOut(lang, err)
	}
	certs := make([]any, 0, len(r.Certificates))
	for _, c := range r.Certificates {
		certs = append(certs, map[string]any{"name": c.Name, "file": c.BaseName + ".crt", "ca": c.CA})
	}
	return map[string]any{
		"created":      r.Created,
		"dns":          stringsOut(r.DNS),
		"ips":          stringsOut(r.IPs),
		"warnings":     reasonsOut(r.Warnings, lang),
		"certificates": certs,
		"defaulted": map[string]any{
			"nodeName":             r.NodeName,
			"controlPlaneEndpoint": r.ControlPlaneEndpoint,
			"certSANs":             stringsOut(r.CertSANs),
			"etcd":                 r.Etcd,
		},
		"error": nil,
	}
}

func (api API) verifyAPI(a *fields, lang string) map[string]any {
	dial := a.string("dial", "")
	pemText := a.string("pem", "")
	sans := a.object("sans")
	var names CertNames
	if sans != nil {
		names.DNS = sans.strings("dns")
		names.IPs = sans.strings("ips")
		a.adopt(sans)
	}
	if a.err != nil {
		return errorOut(lang, a.err, "ok", false)
	}
	var (
		r   VerifyResult
		err error
	)
	switch {
	case sans != nil && pemText != "":
		err = inputErr("pem", "err.sans-or-pem")
	case pemText != "":
		if api.ParsePEM == nil {
			err = inputErr("pem", "err.pem-module")
			break
		}
		var info CertInfo
		if info, err = api.ParsePEM(pemText); err == nil {
			r, err = verifyInfo(info, dial, "pem")
		}
	default:
		r, err = VerifyHost(names, dial)
	}
	if err != nil {
		return errorOut(lang, err, "ok", false)
	}
	out := map[string]any{
		"ok":        r.OK,
		"host":      r.Host,
		"matched":   r.Matched,
		"reason":    reasonOut(r.Reason, lang),
		"covers":    map[string]any{"dns": stringsOut(r.Cert.DNS), "ips": stringsOut(r.Cert.IPs)},
		"x509Error": r.X509Error,
		"error":     nil,
	}
	if pemText != "" {
		c := r.Cert
		out["cert"] = map[string]any{
			"subject": c.Subject, "issuer": c.Issuer, "notBefore": c.NotBefore, "notAfter": c.NotAfter,
		}
		out["certInfo"] = reasonOut(R(VerifyCertInfo, "subject", c.Subject, "issuer", c.Issuer,
			"notBefore", c.NotBefore, "notAfter", c.NotAfter), lang)
	}
	return out
}

func haAPI(a *fields, lang string) map[string]any {
	in := HAInput{Topology: a.string("topology", "")}
	nodes := func(k string) []Node {
		v, ok := a.get(k)
		if !ok {
			return nil
		}
		list, isList := v.([]any)
		if !isList {
			a.fail(inputErr(k, "err.type", "want", "array", "got", typeName(v)))
			return nil
		}
		out := make([]Node, 0, len(list))
		for i, e := range list {
			field := k + "[" + strconv.Itoa(i) + "]"
			switch x := e.(type) {
			case string:
				out = append(out, Node{Name: x})
			case map[string]any:
				f := &fields{m: x, prefix: field}
				out = append(out, Node{Name: f.string("name", ""), IP: f.string("ip", "")})
				a.adopt(f)
			default:
				a.fail(inputErr(field, "err.type", "want", "object or string", "got", typeName(e)))
			}
		}
		return out
	}
	in.ControlPlanes = nodes("controlPlanes")
	in.EtcdMembers = nodes("etcdMembers")
	if ep := a.object("endpoint"); ep != nil {
		in.Endpoint = Endpoint{Kind: ep.string("kind", ""), Address: ep.string("address", "")}
		a.adopt(ep)
	}
	in.Failed = a.strings("failed")
	if a.err != nil {
		return errorOut(lang, a.err)
	}
	r, err := HASimulate(in)
	if err != nil {
		return errorOut(lang, err)
	}
	reasons := make([]any, 0, len(r.Reasons))
	for _, hr := range r.Reasons {
		o := reasonOut(hr.Reason, lang)
		o["about"] = hr.About
		reasons = append(reasons, o)
	}
	return map[string]any{
		"etcdMembers":             float64(r.EtcdMembers),
		"etcdQuorum":              float64(r.EtcdQuorum),
		"etcdMembersAlive":        float64(len(r.EtcdMembersAlive)),
		"etcdAlive":               stringsOut(r.EtcdMembersAlive),
		"etcdWritable":            r.EtcdWritable,
		"apiserversServing":       stringsOut(r.ApiserversServing),
		"apiReachableViaEndpoint": r.APIReachableViaEndpoint,
		"kubectlWorks":            r.KubectlWorks,
		"workerKubeletsReachApi":  r.WorkerKubeletsReachAPI,
		"reasons":                 reasons,
		"error":                   nil,
	}
}
