package particle

import (
	"regexp"
)

// particles are the particles a Korean text attaches to the word before
// it, each as a whole Hangul word; the forms that change with that word
// come first.
const (
	varying = `은|는|이|가|을|를|과|와|으로|로|이나|나|이랑|랑|이라|라|이라는|라는|이라고|라고|이며|며|이든|든|이야|야|이어야|여야|이에요|예요|으로는|로는|으로만|로만|으로도|로도|으로의|로의|으로서|로서|으로써|로써|으로부터|로부터|과는|와는|과의|와의|과도|와도|과만|와만|은요|는요`
	fixed   = `의|에|에서|에게|에는|에서는|에도|에만|도|만|부터|까지|처럼|보다|마다|뿐`
)

// A token a particle would attach to: a Latin word, a number, a closing
// bracket or quote, or a placeholder ({name}, %s, %d, %[2]s).
const token = `(?:\{[A-Za-z]+\}|%(?:\[\d+\])?[sdv]|[A-Za-z0-9)\]}` + "`" + `'"%])`

var (
	spacedRe   = regexp.MustCompile(token + ` (` + varying + `|` + fixed + `)(?:([^가-힣])|$)`)
	unchosenRe = regexp.MustCompile(`(\{[A-Za-z]+\}|%(?:\[\d+\])?[sdv]) ?(` + varying + `)(?:[^가-힣]|$)`)
)

// Spaced returns the places in s where a particle stands apart from the
// word before it ("etcd 는", "{node} 가", "Tab 으로"): Korean attaches
// particles to Latin words, numbers and inline code too. Each place is
// returned as the token, the space and the particle. Only a particle that
// is a whole word counts, so "3 이상", "L4 로드밸런서" and "API 이용" pass,
// and so does the demonstrative in "kubeadm 이 노드".
func Spaced(s string) []string {
	var out []string
	for _, m := range spacedRe.FindAllStringSubmatchIndex(s, -1) {
		if s[m[2]:m[3]] == "이" && m[4] >= 0 && s[m[4]:m[5]] == " " && isHangulStart(s[m[5]:]) {
			continue // "이 노드": the demonstrative, not the particle
		}
		out = append(out, s[m[0]:m[3]])
	}
	return out
}

func isHangulStart(s string) bool {
	for _, r := range s {
		return isSyllable(r)
	}
	return false
}

// Unchosen returns the places in a template where a particle whose form
// depends on the word before it follows a placeholder ({name}, %s, %d)
// directly or after a space: "{quorum}을", "{node} 가", "%[1]s는". The
// value is not known when the template is written, so such a particle
// must be a marker Resolve chooses, "{quorum}{을/를}", or the sentence
// rephrased so that a fixed word carries it: "{node} 노드가".
func Unchosen(template string) []string {
	var out []string
	for _, m := range unchosenRe.FindAllStringSubmatchIndex(template, -1) {
		out = append(out, template[m[0]:m[5]])
	}
	return out
}

// Markers returns the particle markers ({은/는}, {이/가}, …) in s. Text
// that JavaScript fills at run time must have none: only Go resolves them.
func Markers(s string) []string {
	var out []string
	for _, m := range markerRe.FindAllStringSubmatch(s, -1) {
		if IsPair(m[1]) {
			out = append(out, m[0])
		}
	}
	return out
}

var markerRe = regexp.MustCompile(`\{([가-힣]+/[가-힣]+)\}`)
