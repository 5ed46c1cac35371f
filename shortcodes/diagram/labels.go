package diagram

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/i18n/particle"
)

// Labels holds the words a diagram shows, in the page's language. Callers
// take them from the site's UI strings; empty fields fall back to
// JapaneseLabels, so a Korean page should start from KoreanLabels.
type Labels struct {
	ControlPlane string // row caption and description word: "control plane"
	Etcd         string // etcd sub-box and etcd cluster caption: "etcd"
	Worker       string // row caption and description word: "ワーカー"
	LoadBalancer string // load balancer box: "ロードバランサー"
	Endpoint     string // endpoint pointer when clients point at cp-1: "エンドポイント"
	Down         string // suffix of a failed node's label: "停止"
	Apiserver    string // apiserver sub-box: "apiserver"
	// Title is the diagram's accessible title; empty means Desc.Title
	// filled with the topology's name, e.g. "stacked etcd トポロジー".
	Title string
	// Describe, if set, writes the accessible description; otherwise the
	// description is built from the fields above and Desc.
	Describe func(s Spec) string
	// Desc holds the per-language sentence patterns of the default
	// description.
	Desc DescFormat
}

// DescFormat holds fmt patterns for the default description. Each names
// its arguments; explicit argument indexes (%[2]s) let a language reorder
// them. A Korean particle after an argument is a marker, "%[1]s{은/는}",
// that package particle resolves once the arguments are in, since a site
// may rename the words.
type DescFormat struct {
	Title       string // %[1]s topology name ("stacked etcd")
	Stacked     string // %[1]s topology name, %[2]s ControlPlane, %[3]d count, %[4]s Apiserver, %[5]s Etcd
	External    string // as Stacked, then %[6]d etcd member count
	Workers     string // %[1]s Worker, %[2]d count
	ViaLB       string // %[1]s LoadBalancer
	ViaLBAddr   string // %[1]s LoadBalancer, %[2]s EndpointAddr
	ViaNode     string // %[1]s Endpoint, %[2]s node ("cp-1")
	ViaNodeAddr string // %[1]s Endpoint, %[2]s EndpointAddr, %[3]s node ("cp-1")
	Component   string // %[1]s node ("cp-2"), %[2]s component word (Apiserver or Etcd)
	DownList    string // a whole sentence: %[1]s Down, %[2]s failed nodes joined by ListSep
	Moved       string // a whole sentence: %[1]s node, %[2]s old address, %[3]s new address
	Sep         string // between the clauses of the first sentence
	ListSep     string // between failed nodes
	End         string // ends the first sentence
	SentenceSep string // between sentences
}

// JapaneseLabels returns the Japanese words and sentence patterns.
func JapaneseLabels() Labels {
	return Labels{
		ControlPlane: "control plane",
		Etcd:         "etcd",
		Worker:       "ワーカー",
		LoadBalancer: "ロードバランサー",
		Endpoint:     "エンドポイント",
		Down:         "停止",
		Apiserver:    "apiserver",
		Desc: DescFormat{
			Title:       "%[1]s トポロジー",
			Stacked:     "%[1]s: %[2]s %[3]d 台 (各ノードに %[4]s と %[5]s)",
			External:    "%[1]s: %[2]s %[3]d 台 (%[4]s が外部の %[5]s へ接続)、別クラスターの %[5]s %[6]d 台",
			Workers:     "%[1]s %[2]d 台",
			ViaLB:       "前段の%[1]s経由",
			ViaLBAddr:   "前段の%[1]s (%[2]s) 経由",
			ViaNode:     "%[1]sは %[2]s 自身のアドレス",
			ViaNodeAddr: "%[1]s (%[2]s) は %[3]s 自身のアドレス",
			Component:   "%[1]s の %[2]s",
			DownList:    "%[1]s: %[2]s。",
			Moved:       "%[1]s のアドレス: %[2]s → %[3]s。",
			Sep:         "、",
			ListSep:     "、",
			End:         "。",
			SentenceSep: "",
		},
	}
}

// KoreanLabels returns the Korean words and sentence patterns.
func KoreanLabels() Labels {
	return Labels{
		ControlPlane: "control plane",
		Etcd:         "etcd",
		Worker:       "워커",
		LoadBalancer: "로드밸런서",
		Endpoint:     "엔드포인트",
		Down:         "장애",
		Apiserver:    "apiserver",
		Desc: DescFormat{
			Title:       "%[1]s 토폴로지",
			Stacked:     "%[1]s: %[2]s %[3]d대 (각 노드에 %[4]s{과/와} %[5]s)",
			External:    "%[1]s: %[2]s %[3]d대 (%[4]s{이/가} 외부 %[5]s에 접속), 별도 클러스터의 %[5]s %[6]d대",
			Workers:     "%[1]s %[2]d대",
			ViaLB:       "앞단 %[1]s 경유",
			ViaLBAddr:   "앞단 %[1]s(%[2]s) 경유",
			ViaNode:     "%[1]s{은/는} %[2]s 노드의 주소",
			ViaNodeAddr: "%[1]s(%[2]s){은/는} %[3]s 노드의 주소",
			Component:   "%[1]s의 %[2]s",
			DownList:    "%[1]s: %[2]s.",
			Moved:       "%[1]s 주소: %[2]s → %[3]s.",
			Sep:         ", ",
			ListSep:     ", ",
			End:         ".",
			SentenceSep: " ",
		},
	}
}

// withDefaults fills the empty fields of l from JapaneseLabels.
func (l Labels) withDefaults() Labels {
	d := JapaneseLabels()
	or := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	or(&l.ControlPlane, d.ControlPlane)
	or(&l.Etcd, d.Etcd)
	or(&l.Worker, d.Worker)
	or(&l.LoadBalancer, d.LoadBalancer)
	or(&l.Endpoint, d.Endpoint)
	or(&l.Down, d.Down)
	or(&l.Apiserver, d.Apiserver)
	f, g := &l.Desc, d.Desc
	or(&f.Title, g.Title)
	or(&f.Stacked, g.Stacked)
	or(&f.External, g.External)
	or(&f.Workers, g.Workers)
	or(&f.ViaLB, g.ViaLB)
	or(&f.ViaLBAddr, g.ViaLBAddr)
	or(&f.ViaNode, g.ViaNode)
	or(&f.ViaNodeAddr, g.ViaNodeAddr)
	or(&f.Component, g.Component)
	or(&f.DownList, g.DownList)
	or(&f.Moved, g.Moved)
	or(&f.Sep, g.Sep)
	or(&f.ListSep, g.ListSep)
	or(&f.End, g.End)
	// SentenceSep may legitimately be empty (Japanese).
	return l
}

// topologyName is the language-neutral name of the topology type.
func topologyName(s Spec) string { return s.Type + " etcd" }

// title returns the diagram's accessible title.
func (l Labels) title(s Spec) string {
	if l.Title != "" {
		return l.Title
	}
	return fmt.Sprintf(l.Desc.Title, topologyName(s))
}

// describe returns the diagram's accessible description.
func (l Labels) describe(s Spec) string {
	if l.Describe != nil {
		return l.Describe(s)
	}
	f := l.Desc
	var clauses []string
	if s.Type == External {
		clauses = append(clauses, fmt.Sprintf(f.External, topologyName(s), l.ControlPlane, s.ControlPlanes, l.Apiserver, l.Etcd, s.Etcd))
	} else {
		clauses = append(clauses, fmt.Sprintf(f.Stacked, topologyName(s), l.ControlPlane, s.ControlPlanes, l.Apiserver, l.Etcd))
	}
	if s.Workers > 0 {
		clauses = append(clauses, fmt.Sprintf(f.Workers, l.Worker, s.Workers))
	}
	switch {
	case s.Endpoint == EndpointNode && s.EndpointAddr != "":
		clauses = append(clauses, fmt.Sprintf(f.ViaNodeAddr, l.Endpoint, s.EndpointAddr, "cp-1"))
	case s.Endpoint == EndpointNode:
		clauses = append(clauses, fmt.Sprintf(f.ViaNode, l.Endpoint, "cp-1"))
	case s.EndpointAddr != "":
		clauses = append(clauses, fmt.Sprintf(f.ViaLBAddr, l.LoadBalancer, s.EndpointAddr))
	default:
		clauses = append(clauses, fmt.Sprintf(f.ViaLB, l.LoadBalancer))
	}
	sentences := []string{strings.Join(clauses, f.Sep) + f.End}

	if len(s.Down) > 0 {
		names := make([]string, len(s.Down))
		for i, id := range s.Down {
			names[i] = id
			if comp, node, ok := strings.Cut(id, "@"); ok {
				word := l.Apiserver
				if comp == "etcd" {
					word = l.Etcd
				}
				names[i] = fmt.Sprintf(f.Component, node, word)
			}
		}
		sentences = append(sentences, fmt.Sprintf(f.DownList, l.Down, strings.Join(names, f.ListSep)))
	}
	for _, id := range slices.Sorted(maps.Keys(s.OldAddrs)) {
		if addr := s.Addrs[id]; addr != "" {
			sentences = append(sentences, fmt.Sprintf(f.Moved, id, s.OldAddrs[id], addr))
		}
	}
	return particle.Resolve(strings.Join(sentences, f.SentenceSep))
}
