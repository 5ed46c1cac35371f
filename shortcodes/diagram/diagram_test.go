package diagram

import (
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/i18n"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldens are the diagrams pinned in testdata/<name>.svg.
var goldens = []struct {
	name string
	spec Spec
	ko   bool
}{
	{name: "stacked_lb_workers", spec: Spec{Type: Stacked, ControlPlanes: 3, Workers: 2, Endpoint: EndpointLB, EndpointAddr: "LOAD_BALANCER_DNS:6443"}},
	{name: "external_3cp_3etcd", spec: Spec{Type: External, ControlPlanes: 3, Etcd: 3, Workers: 2, Endpoint: EndpointLB}},
	{name: "stacked_cp1_down", spec: Spec{Type: Stacked, ControlPlanes: 3, Workers: 2, Endpoint: EndpointLB, Down: []string{"cp-1"}}},
	// Seed 000, case 2: controlPlaneEndpoint is cp-1's own address.
	{name: "endpoint_node_cp1_down", spec: Spec{Type: Stacked, ControlPlanes: 3, Workers: 4, Endpoint: EndpointNode,
		EndpointAddr: "10.0.0.120:6443", Down: []string{"cp-1"},
		Addrs: map[string]string{"cp-1": "10.0.0.120", "cp-2": "10.0.0.121", "cp-3": "10.0.0.122"}}},
	// Seed 000, case 1: DHCP moved cp-1 while everything still names .111.
	{name: "dhcp_moved", spec: Spec{Type: Stacked, ControlPlanes: 1, Workers: 2, Endpoint: EndpointNode,
		EndpointAddr: "10.0.0.111:6443", Down: []string{"apiserver@cp-1", "etcd@cp-1"},
		Addrs: map[string]string{"cp-1": "10.0.0.120"}, OldAddrs: map[string]string{"cp-1": "10.0.0.111"}}},
	{name: "etcd_at_cp2_down", spec: Spec{Type: Stacked, ControlPlanes: 3, Workers: 2, Endpoint: EndpointLB, Down: []string{"etcd@cp-2"}}},
	{name: "interactive", spec: Spec{Type: External, ControlPlanes: 3, Etcd: 3, Workers: 2, Endpoint: EndpointLB,
		Down: []string{"etcd-2", "apiserver@cp-3", "worker-2"}, Interactive: true}},
	{name: "interactive_ko", ko: true, spec: Spec{Type: Stacked, ControlPlanes: 2, Workers: 1, Endpoint: EndpointLB,
		Down: []string{"lb"}, Interactive: true}},
	{name: "external_9_9_9", spec: Spec{Type: External, ControlPlanes: 9, Etcd: 9, Workers: 9, Endpoint: EndpointLB,
		EndpointAddr: "10.0.0.100:6443", Down: []string{"cp-9", "etcd-5", "worker-9"}}},
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			l := Labels{Lang: "ja"}
			if g.ko {
				l = Labels{Lang: "ko"}
			}
			got, err := Topology(g.spec, l)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", g.name+".svg")
			if *update {
				if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got+"\n" != string(want) {
				t.Errorf("output differs from %s (run go test -update and review the diff)", path)
			}
			checkSVG(t, string(want), g.spec.Interactive)
		})
	}
}

// checkSVG checks that doc is well-formed XML with an accessible root.
func checkSVG(t *testing.T, doc string, interactive bool) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	var root *xml.StartElement
	ids := map[string]string{} // id → element name
	text := map[string]string{}
	var open []string
	for {
		tok, err := dec.Token()
		if err != nil {
			if err == io.EOF {
				break
			}
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == nil {
				c := tok.Copy()
				root = &c
			}
			for _, a := range tok.Attr {
				if a.Name.Local == "id" {
					if _, dup := ids[a.Value]; dup {
						t.Errorf("duplicate id %q", a.Value)
					}
					ids[a.Value] = tok.Name.Local
				}
			}
			open = append(open, tok.Name.Local)
		case xml.EndElement:
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) > 0 {
				text[open[len(open)-1]] += string(tok)
			}
		}
	}
	if root == nil || root.Name.Local != "svg" || root.Name.Space != "http://www.w3.org/2000/svg" {
		t.Fatalf("root is not an SVG element: %+v", root)
	}
	attr := map[string]string{}
	for _, a := range root.Attr {
		attr[a.Name.Local] = a.Value
	}
	wantRole := "img"
	if interactive {
		wantRole = "group"
	}
	if attr["role"] != wantRole {
		t.Errorf("role = %q, want %q", attr["role"], wantRole)
	}
	for _, a := range []string{"width", "height"} {
		if _, ok := attr[a]; ok {
			t.Errorf("root has a %s attribute", a)
		}
	}
	if !strings.HasPrefix(attr["viewBox"], "0 0 ") {
		t.Errorf("viewBox = %q", attr["viewBox"])
	}
	labelled := strings.Fields(attr["aria-labelledby"])
	if len(labelled) != 2 || ids[labelled[0]] != "title" || ids[labelled[1]] != "desc" {
		t.Errorf("aria-labelledby %q does not name a title and a desc (ids %v)", attr["aria-labelledby"], ids)
	}
	if strings.TrimSpace(text["title"]) == "" || strings.TrimSpace(text["desc"]) == "" {
		t.Errorf("empty title %q or desc %q", text["title"], text["desc"])
	}
}

func TestValidate(t *testing.T) {
	ok := Spec{Type: Stacked, ControlPlanes: 3, Workers: 2, Endpoint: EndpointLB}
	ext := Spec{Type: External, ControlPlanes: 3, Etcd: 3, Workers: 2, Endpoint: EndpointLB}
	with := func(s Spec, f func(*Spec)) Spec { f(&s); return s }
	tests := []struct {
		name string
		spec Spec
		want []string // one line per error; nil means valid
	}{
		{"stacked ok", ok, nil},
		{"external ok", ext, nil},
		{"stacked ignores etcd", with(ok, func(s *Spec) { s.Etcd = 40 }), nil},
		{"all components", with(ok, func(s *Spec) { s.Down = []string{"cp-1", "etcd@cp-2", "apiserver@cp-3", "lb", "worker-2"} }), nil},
		{"type", with(ok, func(s *Spec) { s.Type = "mixed" }), []string{`type must be "stacked" or "external", got "mixed"`}},
		{"zero control planes", with(ok, func(s *Spec) { s.ControlPlanes = 0 }), []string{`controlPlanes must be between 1 and 9, got 0`}},
		{"ten control planes", with(ok, func(s *Spec) { s.ControlPlanes = 10 }), []string{`controlPlanes must be between 1 and 9, got 10`}},
		{"external without etcd", with(ext, func(s *Spec) { s.Etcd = 0 }), []string{`etcd must be between 1 and 9 for an external topology, got 0`}},
		{"workers", with(ok, func(s *Spec) { s.Workers = -1 }), []string{`workers must be between 0 and 9, got -1`}},
		{"endpoint", with(ok, func(s *Spec) { s.Endpoint = "" }), []string{`endpoint must be "lb" or "node", got ""`}},
		{"endpointAddr", with(ok, func(s *Spec) { s.EndpointAddr = strings.Repeat("a", 65) }), []string{`endpointAddr must be at most 64 characters, got 65`}},
		{"idPrefix", with(ok, func(s *Spec) { s.IDPrefix = "2x" }), []string{`idPrefix must start with a letter and hold only letters, digits, "-" and "_", got "2x"`}},
		{"no cp-4", with(ok, func(s *Spec) { s.Down = []string{"cp-4"} }), []string{`down: no node "cp-4" (control planes are cp-1..cp-3)`}},
		{"only cp-1", with(ok, func(s *Spec) { s.ControlPlanes = 1; s.Down = []string{"cp-2"} }), []string{`down: no node "cp-2" (control planes are cp-1)`}},
		{"leading zero", with(ok, func(s *Spec) { s.Down = []string{"cp-01"} }), []string{`down: no node "cp-01" (want one of cp-N, worker-N, lb, apiserver@cp-N, etcd@cp-N)`}},
		{"cp-0", with(ok, func(s *Spec) { s.Down = []string{"cp-0"} }), []string{`down: no node "cp-0" (want one of cp-N, worker-N, lb, apiserver@cp-N, etcd@cp-N)`}},
		{"stacked etcd member", with(ok, func(s *Spec) { s.Down = []string{"etcd-1"} }), []string{`down: no node "etcd-1" (stacked etcd runs inside the control planes: use etcd@cp-N)`}},
		{"external etcd range", with(ext, func(s *Spec) { s.Down = []string{"etcd-4"} }), []string{`down: no node "etcd-4" (etcd members are etcd-1..etcd-3)`}},
		{"external etcd component", with(ext, func(s *Spec) { s.Down = []string{"etcd@cp-1"} }), []string{`down: no component "etcd@cp-1" (external etcd runs on etcd-1..etcd-3)`}},
		{"component range", with(ok, func(s *Spec) { s.Down = []string{"apiserver@cp-7"} }), []string{`down: no component "apiserver@cp-7" (control planes are cp-1..cp-3)`}},
		{"component kind", with(ok, func(s *Spec) { s.Down = []string{"scheduler@cp-1"} }), []string{`down: no component "scheduler@cp-1" (want apiserver@cp-N or etcd@cp-N)`}},
		{"component host", with(ok, func(s *Spec) { s.Down = []string{"etcd@worker-1"} }), []string{`down: no component "etcd@worker-1" (components belong to control planes, cp-N)`}},
		{"no workers", with(ok, func(s *Spec) { s.Workers = 0; s.Down = []string{"worker-1"} }), []string{`down: no node "worker-1" (there are no workers)`}},
		{"worker range", with(ok, func(s *Spec) { s.Down = []string{"worker-3"} }), []string{`down: no node "worker-3" (workers are worker-1..worker-2)`}},
		{"lb with node endpoint", with(ok, func(s *Spec) { s.Endpoint = EndpointNode; s.Down = []string{"lb"} }), []string{`down: no node "lb" (endpoint is "node": there is no load balancer)`}},
		{"duplicate", with(ok, func(s *Spec) { s.Down = []string{"cp-1", "cp-1"} }), []string{`down: "cp-1" is listed twice`}},
		{"unknown external", with(ext, func(s *Spec) { s.Down = []string{"master"} }), []string{`down: no node "master" (want one of cp-N, etcd-N, worker-N, lb, apiserver@cp-N)`}},
		{"addrs", with(ok, func(s *Spec) {
			s.Addrs = map[string]string{"cp-9": "x", "cp-1": strings.Repeat("1", 70)}
			s.OldAddrs = map[string]string{"etcd@cp-1": "y"}
		}), []string{
			`addrs: address of "cp-1" must be at most 64 characters, got 70`,
			`addrs: no node "cp-9" (control planes are cp-1..cp-3)`,
			`oldAddrs: no node "etcd@cp-1" (components such as "etcd@cp-1" have no address of their own)`,
		}},
		{"several", Spec{Type: "x", ControlPlanes: 0, Workers: 12, Endpoint: "vip", Down: []string{"cp-4"}}, []string{
			`type must be "stacked" or "external", got "x"`,
			`controlPlanes must be between 1 and 9, got 0`,
			`workers must be between 0 and 9, got 12`,
			`endpoint must be "lb" or "node", got "vip"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.spec.Validate()
			var got []string
			if err != nil {
				got = strings.Split(err.Error(), "\n")
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Validate() =\n%q\nwant\n%q", got, tt.want)
			}
			if _, terr := Topology(tt.spec, Labels{Lang: "ja"}); (terr != nil) != (tt.want != nil) {
				t.Errorf("Topology error = %v, want an error: %v", terr, tt.want != nil)
			}
		})
	}
}

func TestParse(t *testing.T) {
	if got, want := ParseDown(" cp-1, etcd@cp-2 ,,"), []string{"cp-1", "etcd@cp-2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ParseDown = %q, want %q", got, want)
	}
	if got := ParseDown(" "); got != nil {
		t.Errorf("ParseDown(blank) = %q, want nil", got)
	}

	addrTests := []struct {
		in      string
		want    map[string]string
		wantErr string
	}{
		{"", nil, ""},
		{"cp-1=10.0.0.120,cp-2=10.0.0.12", map[string]string{"cp-1": "10.0.0.120", "cp-2": "10.0.0.12"}, ""},
		{" cp-1 = 10.0.0.120 , ", map[string]string{"cp-1": "10.0.0.120"}, ""},
		{"cp-1", nil, `"cp-1" is not of the form node=address`},
		{"cp-1=", nil, `"cp-1=" is not of the form node=address`},
		{"cp-1=a,cp-1=b", nil, `"cp-1" is given twice`},
	}
	for _, tt := range addrTests {
		got, err := ParseAddrs(tt.in)
		if msg := errString(err); msg != tt.wantErr {
			t.Errorf("ParseAddrs(%q) error = %q, want %q", tt.in, msg, tt.wantErr)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseAddrs(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}

	specTests := []struct {
		name    string
		args    map[string]string
		want    Spec
		wantErr string
	}{
		{"defaults", map[string]string{"controlPlanes": "3"},
			Spec{Type: Stacked, ControlPlanes: 3, Endpoint: EndpointLB}, ""},
		{"shortcode", map[string]string{"type": "stacked", "controlPlanes": "3", "etcd": "3", "workers": "2", "endpoint": "lb", "down": "cp-1"},
			Spec{Type: Stacked, ControlPlanes: 3, Etcd: 3, Workers: 2, Endpoint: EndpointLB, Down: []string{"cp-1"}}, ""},
		{"everything", map[string]string{"type": "external", "controlPlanes": "2", "etcd": "3", "endpoint": "node",
			"endpointAddr": "10.0.0.120:6443", "addrs": "cp-1=10.0.0.120", "oldAddrs": "cp-1=10.0.0.111", "interactive": "true", "idPrefix": "ha"},
			Spec{Type: External, ControlPlanes: 2, Etcd: 3, Endpoint: EndpointNode, EndpointAddr: "10.0.0.120:6443",
				Addrs: map[string]string{"cp-1": "10.0.0.120"}, OldAddrs: map[string]string{"cp-1": "10.0.0.111"}, Interactive: true, IDPrefix: "ha"}, ""},
		{"not a number", map[string]string{"controlPlanes": "three"}, Spec{}, `controlPlanes must be a whole number, got "three"`},
		{"unknown", map[string]string{"controlPlanes": "1", "nodes": "3"}, Spec{},
			`unknown argument "nodes" (want type, controlPlanes, etcd, workers, endpoint, endpointAddr, down, addrs, oldAddrs, interactive or idPrefix)`},
		{"bad bool", map[string]string{"controlPlanes": "1", "interactive": "yes please"}, Spec{}, `interactive must be true or false, got "yes please"`},
		{"bad addrs", map[string]string{"controlPlanes": "1", "addrs": "cp-1"}, Spec{}, `addrs: "cp-1" is not of the form node=address`},
		{"invalid", map[string]string{"controlPlanes": "1", "down": "cp-2"}, Spec{}, `down: no node "cp-2" (control planes are cp-1)`},
	}
	for _, tt := range specTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSpec(tt.args)
			if msg := errString(err); msg != tt.wantErr {
				t.Fatalf("error = %q, want %q", msg, tt.wantErr)
			}
			if tt.wantErr == "" && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseSpec = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestDescribe(t *testing.T) {
	stacked := Spec{Type: Stacked, ControlPlanes: 3, Workers: 2, Endpoint: EndpointLB, Down: []string{"cp-1"}}
	external := Spec{Type: External, ControlPlanes: 3, Etcd: 5, Endpoint: EndpointLB, EndpointAddr: "LOAD_BALANCER_DNS:6443"}
	node := Spec{Type: Stacked, ControlPlanes: 1, Workers: 2, Endpoint: EndpointNode, EndpointAddr: "10.0.0.111:6443",
		Down:  []string{"apiserver@cp-1", "etcd@cp-1"},
		Addrs: map[string]string{"cp-1": "10.0.0.120"}, OldAddrs: map[string]string{"cp-1": "10.0.0.111"}}
	tests := []struct {
		name  string
		spec  Spec
		l     Labels
		title string
		desc  string
	}{
		{"ja stacked", stacked, Labels{Lang: "ja"}, "stacked etcd トポロジー",
			"stacked etcd: control plane 3 台 (各ノードに apiserver と etcd)、ワーカー 2 台、前段のロードバランサー経由。停止: cp-1。"},
		{"ko stacked", stacked, Labels{Lang: "ko"}, "stacked etcd 토폴로지",
			"stacked etcd: 컨트롤 플레인 3대(각 노드에 apiserver와 etcd), 워커 2대, 앞단 로드밸런서 경유. 장애: cp-1."},
		{"ja external", external, Labels{Lang: "ja"}, "external etcd トポロジー",
			"external etcd: control plane 3 台 (apiserver が外部の etcd へ接続)、別クラスターの etcd 5 台、前段のロードバランサー (LOAD_BALANCER_DNS:6443) 経由。"},
		{"ko external", external, Labels{Lang: "ko"}, "external etcd 토폴로지",
			"external etcd: 컨트롤 플레인 3대(apiserver가 외부 etcd에 접속), 별도 클러스터의 etcd 5대, 앞단 로드밸런서(LOAD_BALANCER_DNS:6443) 경유."},
		{"ja node", node, Labels{Lang: "ja"}, "stacked etcd トポロジー",
			"stacked etcd: control plane 1 台 (各ノードに apiserver と etcd)、ワーカー 2 台、エンドポイント (10.0.0.111:6443) は cp-1 自身のアドレス。" +
				"停止: cp-1 の apiserver、cp-1 の etcd。cp-1 のアドレス: 10.0.0.111 → 10.0.0.120。"},
		{"ko node", node, Labels{Lang: "ko"}, "stacked etcd 토폴로지",
			"stacked etcd: 컨트롤 플레인 1대(각 노드에 apiserver와 etcd), 워커 2대, 엔드포인트(10.0.0.111:6443)는 cp-1 노드의 주소. " +
				"장애: cp-1의 apiserver, cp-1의 etcd. cp-1 주소: 10.0.0.111 → 10.0.0.120."},
		{"caller title and describe", stacked, Labels{Title: "HA", Describe: func(s Spec) string { return fmt.Sprint(s.ControlPlanes, " nodes") }},
			"HA", "3 nodes"},
		{"ja one node", Spec{Type: Stacked, ControlPlanes: 1, Endpoint: EndpointNode}, Labels{Lang: "ja"}, "stacked etcd トポロジー",
			"stacked etcd: control plane 1 台 (各ノードに apiserver と etcd)、エンドポイントは cp-1 自身のアドレス。"},
		// English counts take their plural forms.
		{"en stacked", stacked, Labels{Lang: "en"}, "stacked etcd topology",
			"stacked etcd: 3 control planes (each running apiserver and etcd), 2 workers, behind a load balancer. down: cp-1."},
		{"en one of each", Spec{Type: External, ControlPlanes: 1, Etcd: 1, Workers: 1, Endpoint: EndpointNode}, Labels{Lang: "en"}, "external etcd topology",
			"external etcd: 1 control plane (its apiserver connects to an external etcd), 1 etcd member in a separate cluster, 1 worker, the endpoint is cp-1's own address."},
		// The page's strings, as a site words them, over the embedded.
		{"the site's words", Spec{Type: Stacked, ControlPlanes: 2, Endpoint: EndpointLB}, Labels{Lang: "en", T: func(k string) string {
			return map[string]string{"diagram_load_balancer": "proxy", i18n.Count("diagram_stacked", 2): "%[3]d × %[2]s"}[k]
		}}, "stacked etcd topology", "2 × control plane, behind a proxy."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.l.withDefaults()
			if got := l.title(tt.spec); got != tt.title {
				t.Errorf("title = %q, want %q", got, tt.title)
			}
			if got := l.describe(tt.spec); got != tt.desc {
				t.Errorf("describe =\n%q\nwant\n%q", got, tt.desc)
			}
			svg, err := Topology(tt.spec, tt.l)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(svg, ">"+esc(tt.desc)+"</desc>") {
				t.Errorf("the SVG does not carry the description")
			}
		})
	}
}

func TestEscaping(t *testing.T) {
	hostile := `<script>alert("x")</script>&'`
	l := Labels{ControlPlane: hostile, Etcd: hostile, Worker: hostile, LoadBalancer: hostile, Endpoint: hostile,
		Down: hostile, Apiserver: hostile, Title: hostile}
	specs := []Spec{
		{Type: Stacked, ControlPlanes: 2, Workers: 1, Endpoint: EndpointLB, EndpointAddr: hostile,
			Down: []string{"cp-1", "etcd@cp-2", "lb", "worker-1"}, Addrs: map[string]string{"cp-1": hostile}, OldAddrs: map[string]string{"cp-1": hostile + "\x00\x1b"}, Interactive: true},
		{Type: External, ControlPlanes: 1, Etcd: 1, Endpoint: EndpointNode, EndpointAddr: hostile, Down: []string{"etcd-1"}, Interactive: true},
	}
	for i, s := range specs {
		got, err := Topology(s, l)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got, "<script") || strings.Contains(got, `alert("x")`) {
			t.Errorf("spec %d: hostile text reached the output unescaped", i)
		}
		if !strings.Contains(got, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;") {
			t.Errorf("spec %d: escaped label missing", i)
		}
		checkSVG(t, got, true)
	}
}

func TestDeterministicIDs(t *testing.T) {
	a := Spec{Type: Stacked, ControlPlanes: 3, Workers: 2, Endpoint: EndpointLB}
	b := a
	b.Down = []string{"cp-1"}
	c := a
	c.IDPrefix = "topo-2"
	d := a
	d.Addrs = map[string]string{"cp-1": "10.0.0.11", "cp-2": "10.0.0.12"}
	e := a
	e.Addrs = map[string]string{"cp-2": "10.0.0.12", "cp-1": "10.0.0.11"}

	render := func(s Spec) string {
		out, err := Topology(s, Labels{Lang: "ja"})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if render(a) != render(a) || render(d) != render(e) {
		t.Error("same spec, different bytes")
	}
	if ia, ib := elementID(a), elementID(b); ia == ib {
		t.Errorf("different specs share id %q", ia)
	}
	if ic := elementID(c); !strings.HasPrefix(ic, "topo-2-") || ic == elementID(a) {
		t.Errorf("IDPrefix not used: %q", ic)
	}
	if ia := elementID(a); !strings.HasPrefix(ia, "topo-") || len(ia) != len("topo-")+8 {
		t.Errorf("id %q is not topo-<8 hex>", ia)
	}
}

// TestLayoutNoOverlap lays out every count combination, with long names
// and addresses, and checks that no two boxes overlap and that all fit.
func TestLayoutNoOverlap(t *testing.T) {
	long := "LOAD_BALANCER_DNS.example.internal:6443"
	ko := Labels{Lang: "ko"}.withDefaults()
	for _, typ := range []string{Stacked, External} {
		for _, ep := range []string{EndpointLB, EndpointNode} {
			for cp := 1; cp <= MaxNodes; cp++ {
				for etcd := 1; etcd <= MaxNodes; etcd++ {
					if typ == Stacked && etcd > 1 {
						break
					}
					for w := 0; w <= MaxNodes; w++ {
						s := Spec{Type: typ, ControlPlanes: cp, Etcd: etcd, Workers: w, Endpoint: ep, EndpointAddr: long,
							Addrs: map[string]string{"cp-1": "10.0.0.120"}, OldAddrs: map[string]string{"cp-1": "10.0.0.111"}}
						if w > 0 {
							s.Addrs["worker-"+fmt.Sprint(w)] = long
						}
						if err := s.Validate(); err != nil {
							t.Fatal(err)
						}
						d := &drawer{s: s, l: ko}
						d.layout()
						checkLayout(t, fmt.Sprintf("%s/%s/%d/%d/%d", typ, ep, cp, etcd, w), d)
					}
				}
			}
		}
	}
}

func checkLayout(t *testing.T, name string, d *drawer) {
	t.Helper()
	var boxes []rect
	boxes = append(boxes, d.cp...)
	boxes = append(boxes, d.workers...)
	boxes = append(boxes, d.front)
	if d.s.Type == External {
		boxes = append(boxes, d.cluster)
		for _, e := range d.etcd {
			if !inside(e, d.cluster) {
				t.Errorf("%s: etcd member %v outside its frame %v", name, e, d.cluster)
			}
		}
		if len(d.etcd) != d.s.Etcd {
			t.Errorf("%s: %d etcd boxes, want %d", name, len(d.etcd), d.s.Etcd)
		}
		if d.busY >= d.cp[0].y {
			t.Errorf("%s: etcd bus at %d is not above the control planes at %d", name, d.busY, d.cp[0].y)
		}
	}
	if len(d.cp) != d.s.ControlPlanes || len(d.workers) != d.s.Workers {
		t.Errorf("%s: %d control planes and %d workers drawn", name, len(d.cp), len(d.workers))
	}
	canvas := rect{0, 0, d.width, d.height}
	for i, a := range boxes {
		if !inside(a, canvas) || a.x < pad || a.y < pad {
			t.Errorf("%s: box %v leaves the canvas %v", name, a, canvas)
		}
		if a.x <= d.legendX {
			t.Errorf("%s: box %v overlaps the row captions ending at %d", name, a, d.legendX)
		}
		for _, b := range boxes[i+1:] {
			if overlap(a, b) {
				t.Errorf("%s: boxes %v and %v overlap", name, a, b)
			}
		}
	}
	if d.midY <= d.cp[0].bottom() || d.midY >= d.front.y {
		t.Errorf("%s: bus %d not between control planes and front", name, d.midY)
	}
	if len(d.workers) > 0 && (d.lowY <= d.front.bottom() || d.lowY >= d.workers[0].y) {
		t.Errorf("%s: bus %d not between front and workers", name, d.lowY)
	}
}

func inside(a, b rect) bool {
	return a.x >= b.x && a.y >= b.y && a.x+a.w <= b.x+b.w && a.y+a.h <= b.y+b.h
}

func overlap(a, b rect) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

func TestEscFunction(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain 日本語 한국어", "plain 日本語 한국어"},
		{`a<b>&"c'`, "a&lt;b&gt;&amp;&quot;c&#39;"},
		{"nul\x00esc\x1b\ufffe", "nul\ufffdesc\ufffd\ufffd"},
		{"bad utf8 \xff", "bad utf8 \ufffd"},
	}
	for _, tt := range tests {
		if got := esc(tt.in); got != tt.want {
			t.Errorf("esc(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestInteractive(t *testing.T) {
	tests := []struct {
		spec    Spec
		buttons []string // data-node values in document order
	}{
		{Spec{Type: Stacked, ControlPlanes: 2, Workers: 1, Endpoint: EndpointLB, Down: []string{"etcd@cp-2", "lb"}},
			[]string{"cp-1", "apiserver@cp-1", "etcd@cp-1", "cp-2", "apiserver@cp-2", "etcd@cp-2", "lb", "worker-1"}},
		{Spec{Type: External, ControlPlanes: 1, Etcd: 2, Endpoint: EndpointNode, Down: []string{"cp-1", "etcd-2"}},
			[]string{"cp-1", "apiserver@cp-1", "etcd-1", "etcd-2"}},
	}
	for _, tt := range tests {
		s := tt.spec
		s.Interactive = true
		out, err := Topology(s, Labels{Lang: "ja"})
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(strings.NewReader(out))
		var got, pressed []string
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			el, ok := tok.(xml.StartElement)
			if !ok {
				continue
			}
			a := map[string]string{}
			for _, at := range el.Attr {
				a[at.Name.Local] = at.Value
			}
			id, ok := a["data-node"]
			if !ok {
				continue
			}
			got = append(got, id)
			if a["tabindex"] != "0" || a["role"] != "button" || a["aria-label"] == "" {
				t.Errorf("%s: attributes %v", id, a)
			}
			if a["aria-pressed"] == "true" {
				pressed = append(pressed, id)
				if strings.Count(a["aria-label"], "停止") != 1 {
					t.Errorf("%s: aria-label %q should name the failure once", id, a["aria-label"])
				}
			}
		}
		if !reflect.DeepEqual(got, tt.buttons) {
			t.Errorf("buttons = %q, want %q", got, tt.buttons)
		}
		if !reflect.DeepEqual(pressed, s.Down) {
			t.Errorf("pressed = %q, want %q", pressed, s.Down)
		}
		static, err := Topology(tt.spec, Labels{Lang: "ja"})
		if err != nil {
			t.Fatal(err)
		}
		for _, attr := range []string{`data-node="`, `tabindex="`, `aria-pressed="`} {
			if strings.Contains(static, attr) {
				t.Errorf("non-interactive output carries %s", attr)
			}
		}
	}
}
