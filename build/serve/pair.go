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
.drift { max-height: 40vh; overflow: auto; border-top: 2px solid #ccc; padding: .4rem .8rem; font-size: .85rem; }
.drift p { margin: .3rem 0; }
.drift .stale { color: #8a4b00; }
.drift pre { margin: .3rem 0; padding: .3rem .5rem; white-space: pre-wrap; border-left: 4px solid #ccc; background: #fafafa; }
.drift .changed pre, .drift .added pre { border-color: #d08a00; background: #fff6e0; }
.drift .removed pre { border-color: #b33; background: #fdecec; text-decoration: line-through; }
.drift .same { color: #777; font-style: italic; }
.drift details { margin-left: 1rem; }
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
{{- with .Notes}}
<footer class="drift" aria-label="translation status">
{{- range .}}
<div class="note" data-lang="{{.Lang}}" data-state="{{.State}}">
{{- if eq .State "current"}}
<p class="current">{{.Lang}}: current (marked {{.Marked}}): <code>{{.Path}}</code> is up to date with <code>{{.Orig}}</code>.</p>
{{- else if eq .State "unmarked"}}
<p class="unmarked">{{.Lang}}: not marked: <code>{{.Path}}</code> does not say which version of <code>{{.Orig}}</code> it translates. When it is up to date: <code>kakehashi translations mark {{.Path}}</code></p>
{{- else}}
<p class="stale">{{.Lang}}: stale{{if .Since}} since {{.Since}}{{end}} (marked {{.Marked}}): <code>{{.Orig}}</code> changed since <code>{{.Path}}</code> was marked. When it is up to date again: <code>kakehashi translations mark {{.Path}}</code></p>
{{- if .NoCopy}}
<p class="nocopy">The original as it was when marked is not in <code>{{.Store}}</code>: the translation was marked on another machine, or before the cache was cleared, so the changed blocks cannot be shown. <code>git log -p {{.Orig}}</code> shows the original's history.</p>
{{- else}}
<p>The blocks of the original ({{.OrigLang}}) that changed since it was marked:</p>
{{- range .Blocks}}
{{- if eq .Kind "same"}}
<p class="same">… {{.Folded}} unchanged block{{if ne .Folded 1}}s{{end}} …</p>
{{- else}}
<div class="{{.Kind}}"><p>{{.Kind}}{{if .Line}}, line {{.Line}}{{end}}:</p><pre>{{.Text}}</pre>
{{- if .Was}}<details><summary>as it was when marked</summary><pre>{{.Was}}</pre></details>{{end}}</div>
{{- end}}
{{- end}}
{{- with .Removed}}
<p>Removed since it was marked:</p>
{{- range .}}
<div class="removed"><pre>{{.Text}}</pre></div>
{{- end}}
{{- end}}
{{- end}}
{{- end}}
</div>
{{- end}}
</footer>
{{- end}}
<script>
// A missing translation appears once written, and the translations'
// status follows their edits: reload this page when the site changes and a
// column is still empty or a status is shown. The frames reload
// themselves.
(() => {
  if (!document.querySelector(".missing, .drift")) return;
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
		Rel   string
		Cols  []pairCol
		Notes []pairNote
	}{Rel: "/" + rel}
	for _, l := range langs {
		u := "/" + l + "/"
		if rel != "" {
			u += rel + "/"
		}
		f, _ := st.site.lookup(strings.Trim(u, "/"), true)
		data.Cols = append(data.Cols, pairCol{Lang: l, URL: u, Exists: f != nil && !st.untranslated[u]})
	}
	// Under the frames: how each translation stands against its original.
	data.Notes = st.pairs.notes(rel)
	var b bytes.Buffer
	if err := pairPage.Execute(&b, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b.Bytes())
}
