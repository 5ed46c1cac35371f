package serve

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"
)

// pairPage lays out the translations of one page side by side.
var pairPage = template.Must(template.New("pair").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Rel}} · side by side</title>
<style>
html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
body { display: flex; flex-direction: column; }
header { padding: .4rem .8rem; border-bottom: 1px solid #ccc; font-size: .9rem; }
main { flex: 1; display: grid; grid-template-columns: repeat({{len .Cols}}, 1fr); min-height: 0; }
section { display: flex; flex-direction: column; min-width: 0; border-right: 1px solid #ccc; }
section h2 { margin: 0; padding: .3rem .8rem; font-size: .85rem; background: #f3f3f3; color: #222; }
iframe { flex: 1; width: 100%; border: 0; }
.missing { padding: 1rem; color: #8a1c1c; }
</style>
</head>
<body>
<header><code>{{.Rel}}</code></header>
<main>
{{- range .Cols}}
<section lang="{{.Lang}}" data-lang="{{.Lang}}">
<h2><a href="{{.URL}}" target="_top">{{.Lang}}</a> <code>{{.URL}}</code></h2>
{{- if .Exists}}
<iframe src="{{.URL}}" title="{{.Lang}}: {{.URL}}"></iframe>
{{- else}}
<p class="missing" role="status">No {{.Lang}} version of this page yet: {{.URL}} is not part of the site.</p>
{{- end}}
</section>
{{- end}}
</main>
<script>
// A missing translation appears once written: reload this page when the
// site changes and a column is still empty. The frames reload themselves.
(() => {
  if (!document.querySelector(".missing")) return;
  const es = new EventSource("/_kakehashi/events");
  es.addEventListener("reload", () => location.reload());
})();
</script>
</body>
</html>
`))

type pairCol struct {
	Lang, URL string
	Exists    bool
}

// servePair serves /_pair/<page>: the page in every language of the site,
// side by side. <page> may start with a language ("ja/cka/05-ha-cluster/")
// or not ("cka/05-ha-cluster/").
func (s *Server) servePair(w http.ResponseWriter, r *http.Request, st *state, rel string) {
	langs := st.langs
	if len(langs) == 0 {
		langs = []string{"ja", "ko"}
	}
	first, rest, _ := strings.Cut(rel, "/")
	for _, l := range langs {
		if first == l {
			rel = rest
			break
		}
	}
	rel = strings.TrimSuffix(rel, "/index.html")
	rel = strings.Trim(rel, "/")
	data := struct {
		Rel  string
		Cols []pairCol
	}{Rel: "/" + rel}
	for _, l := range langs {
		u := "/" + l + "/"
		if rel != "" {
			u += rel + "/"
		}
		f, _ := st.site.lookup(strings.Trim(u, "/"), true)
		data.Cols = append(data.Cols, pairCol{Lang: l, URL: u, Exists: f != nil})
	}
	var b bytes.Buffer
	if err := pairPage.Execute(&b, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b.Bytes())
}
