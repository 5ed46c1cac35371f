package particle

import "strings"

// letterFinal is how the Korean name of each Latin letter ends: 에이 비 씨 디
// 이 에프 지 에이치 아이 제이 케이 엘 엠 엔 오 피 큐 알 에스 티 유 브이 더블유
// 엑스 와이 제트. Only L, M, N and R end in a consonant.
func letterFinal(c byte) Final {
	switch c | 0x20 {
	case 'l', 'r':
		return Rieul
	case 'm', 'n':
		return Consonant
	}
	return Vowel
}

// words are common words of the course read otherwise than spelled, by
// their usual Korean reading, lowercased.
var words = map[string]Final{
	// spelled out, though they have a vowel letter
	"etcd": Vowel, "api": Vowel, "vip": Vowel, "ip": Vowel, "ipv": Vowel, "ca": Vowel,
	"cpu": Vowel, "gpu": Vowel, "os": Vowel, "ok": Vowel, "id": Vowel, "io": Vowel,
	"cli": Vowel, "ui": Vowel, "aws": Vowel, "oidc": Vowel, "cni": Vowel, "cri": Vowel,
	"csi": Vowel, "san": Consonant, "pem": Consonant, "yaml": Rieul, "yml": Rieul,
	"json": Consonant, "cidr": Vowel, "url": Rieul, "uri": Vowel, "html": Rieul,
	"xml": Rieul, "sql": Rieul, "ssl": Rieul, "ha": Vowel, "eks": Vowel, "gke": Vowel,
	"aks": Vowel, "vm": Consonant, "lan": Consonant, "wan": Consonant, "ram": Consonant,
	"nat": Consonant, "rbac": Consonant, "ascii": Vowel, "uuid": Vowel, "gui": Vowel,
	"sa": Vowel, "pki": Vowel, "ttl": Rieul, "faq": Vowel, "ssd": Vowel, "usb": Vowel,
	// the Kubernetes tools and parts, as Korean writes them
	"kubectl": Rieul, "etcdctl": Rieul, "crictl": Rieul, "kubeadm": Consonant,
	"kubelet": Consonant, "apiserver": Vowel, "kubernetes": Vowel, "k8s": Vowel,
	"containerd": Vowel, "systemd": Vowel, "coredns": Vowel, "nginx": Vowel,
	"helm": Consonant, "cilium": Consonant, "calico": Vowel, "flannel": Rieul,
	"haproxy": Vowel, "keepalived": Vowel, "kube": Vowel, "admin": Consonant,
	// words the ending rules below get wrong
	"root": Vowel, "boot": Vowel, "bit": Vowel, "hub": Vowel, "pod": Vowel,
	"cert": Vowel, "conf": Vowel, "key": Vowel, "seed": Vowel, "go": Vowel,
	"tab": Consonant, "web": Consonant, "job": Consonant, "lab": Consonant,
}

// latin reads the run of ASCII letters that ends s, with any digits glued
// in front of it ("k8s").
func latin(s string) Final {
	end := len(s)
	start := end
	for start > 0 && isASCIILetter(s[start-1]) {
		start--
	}
	run := s[start:end]
	// A whole word in the table, with what is glued before it ("k8s").
	w := start
	for w > 0 && (isASCIILetter(s[w-1]) || isDigit(s[w-1])) {
		w--
	}
	if f, ok := words[strings.ToLower(s[w:end])]; ok {
		return f
	}
	// camelCase and TitleCase: the last part decides ("nodeName" → Name,
	// "kubeAPI" → API).
	seg := lastSegment(run)
	if f, ok := words[strings.ToLower(seg)]; ok {
		return f
	}
	if isUpper(seg) {
		// An acronym is read letter by letter; one letter by its name.
		return letterFinal(seg[len(seg)-1])
	}
	lower := strings.ToLower(seg)
	if len(lower) == 1 || !strings.ContainsAny(lower, "aeiouy") {
		return letterFinal(lower[len(lower)-1]) // cp, lb, crt, dns: spelled out
	}
	return english(lower)
}

// lastSegment returns the last word of a camelCase or TitleCase run: the
// trailing capitals of "kubeAPI", "Name" of "nodeName".
func lastSegment(run string) string {
	i := len(run)
	if isUpperByte(run[i-1]) {
		for i > 0 && isUpperByte(run[i-1]) {
			i--
		}
		return run[i:]
	}
	for i > 0 && !isUpperByte(run[i-1]) {
		i--
	}
	if i > 0 {
		i-- // the capital that starts the word: "HTTPServer" → Server
	}
	return run[i:]
}

// english guesses how Korean writes the end of an English word, from its
// spelling: server 서버, node 노드, file 파일, name 네임, engine 엔진,
// ping 핑, set 셋, secret 시크릿, host 호스트, check 체크, book 북, app 앱.
func english(w string) Final {
	n := len(w)
	last := w[n-1]
	prev := byte(0)
	if n > 1 {
		prev = w[n-2]
	}
	switch last {
	case 'l':
		return Rieul
	case 'm', 'n':
		return Consonant
	case 'g':
		if prev == 'n' {
			return Consonant // 핑
		}
		return Vowel // 태그
	case 'e':
		if n > 2 && !isVowel(prev) {
			switch prev {
			case 'l':
				return Rieul // 파일, 테이블
			case 'm', 'n':
				return Consonant // 네임, 엔진
			}
		}
		return Vowel // 노드, 코어
	case 't':
		if strings.HasSuffix(w, "oot") {
			return Vowel // 루트
		}
		if isVowel(prev) {
			return Consonant // 셋, 시크릿, 아웃
		}
		return Vowel // 호스트, 포트
	case 'k', 'c':
		if prev == 'c' {
			return Vowel // 체크
		}
		if isVowel(prev) {
			return Consonant // 북, 스펙
		}
		return Vowel // 디스크, 싱크
	case 'p', 'b':
		if isVowel(prev) || prev == last {
			return Consonant // 앱, 그룹, 웹
		}
		return Vowel // 덤프, 헬프
	}
	return Vowel // r 서버, s 스, d 드, x 엑스, y 시, h 치, f 프, o, a, i, u, w
}

func isVowel(c byte) bool       { return strings.IndexByte("aeiou", c) >= 0 }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isUpperByte(c byte) bool   { return c >= 'A' && c <= 'Z' }
func isASCIILetter(c byte) bool { return isUpperByte(c) || (c >= 'a' && c <= 'z') }

func isUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isUpperByte(s[i]) {
			return false
		}
	}
	return true
}
