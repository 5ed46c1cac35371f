package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// uiStrings is the repository's UI strings.
func uiStrings(t *testing.T) *i18n.Bundle {
	t.Helper()
	root, _ := filepath.Abs("../..")
	b, ds := i18n.Load(context.Background(), afero.NewOsFs(), filepath.Join(root, "i18n"))
	if ds.Err() != nil {
		t.Fatal(ds.Err())
	}
	return b
}

// startCalculators makes the page start its calculators at once, as a
// reader's pointer over a widget does.
var startCalculators chromedp.Action[chromedp.Void] = func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
	_, err := chromedp.Evaluate[bool](`(document.querySelector("[data-calc]").dispatchEvent(new Event("pointerover")), true)`)(ctx, t)
	return chromedp.Void{}, err
}

// noteState is what a widget's note shows: the visible text of its
// loading note and of its <noscript>, and whether the note is visible at
// all.
type noteState struct {
	Loading  string `json:"loading"`
	NoScript string `json:"noscript"`
	Visible  bool   `json:"visible"`
	Busy     string `json:"busy"`
}

func readNote(t *testing.T, ctx context.Context, widget string) noteState {
	t.Helper()
	w := quoteJS(`[data-calc="` + widget + `"]`)
	st, err := chromedp.Run(ctx, chromedp.Evaluate[noteState](`(() => {
		const root = document.querySelector(`+w+`);
		const vis = (el) => !!el && el.checkVisibility({visibilityProperty: true});
		const l = root.querySelector("[data-loading]"), n = root.querySelector("noscript");
		return {loading: vis(l) ? l.textContent : "", noscript: vis(n) ? n.textContent : "",
			visible: vis(root.querySelector("[data-static]")), busy: root.querySelector("form")?.getAttribute("aria-busy") ?? "(none)"};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestCalcLoadingState holds the calculator module back and checks that
// meanwhile each widget says it is loading (not that JavaScript is
// required) and its form is busy; once the module runs, the note goes,
// keeping its room, and the form is no longer busy.
func TestCalcLoadingState(t *testing.T) {
	dir := calcLangPages(t)
	gate := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	files := http.FileServer(http.Dir(dir))
	base := serveHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(release) // before the server closes
	ui := uiStrings(t)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	for _, lang := range []string{"ja", "ko"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+lang+"/cka/widgets/"), chromedp.WaitVisible(chromedp.CSS(`[data-calc="quorum"]`)), startCalculators); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"quorum", "san", "ha-sim"} {
			st := readNote(t, ctx, w)
			if want := ui.T(lang, "calc_loading"); st.Loading != want || st.NoScript != "" || !st.Visible || st.Busy != "true" {
				t.Errorf("%s %s while loading: %+v, want the note %q shown and the form busy", lang, w, st, want)
			}
		}
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, "JavaScript") {
			t.Errorf("%s: with JavaScript on, the page says JavaScript is needed", lang)
		}
	}
	release()
	waitReady(t, b, 3)
	for _, w := range []string{"quorum", "san", "ha-sim"} {
		if st := readNote(t, ctx, w); st.Visible || st.Busy != "(none)" {
			t.Errorf("%s once live: %+v, want the note gone and the form not busy", w, st)
		}
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// TestCalcLoadFailed serves no module: each widget keeps its build-time
// answers and says the calculator could not be loaded.
func TestCalcLoadFailed(t *testing.T) {
	dir := calcLangPages(t)
	files := http.FileServer(http.Dir(dir))
	base := serveHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, ".wasm") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	ui := uiStrings(t)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/ko/cka/widgets/"), chromedp.WaitVisible(chromedp.CSS(`[data-calc="quorum"]`)), startCalculators); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('[data-calc][data-ready="false"]').length === 3 || null`)); err != nil {
		t.Fatalf("the widgets were not marked static: %v", err)
	}
	for _, w := range []string{"quorum", "san", "ha-sim"} {
		if st := readNote(t, ctx, w); st.Loading != ui.T("ko", "calc_load_failed") || st.Busy != "(none)" {
			t.Errorf("%s: %+v, want the note %q", w, st, ui.T("ko", "calc_load_failed"))
		}
	}
	waitText(t, ctx, `[data-calc="quorum"] [data-out="status"]`, "쓰기 가능")
}

// TestCalcNoScriptNote turns JavaScript off: the note says JavaScript is
// needed to try other values, and nothing says the calculator is loading.
func TestCalcNoScriptNote(t *testing.T) {
	base := serve(t, calcLangPages(t))
	ui := uiStrings(t)
	b := browsertest.New(t, browsertest.Options{DisableJS: true})
	ctx := b.Ctx
	for _, lang := range []string{"ja", "ko"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+lang+"/cka/widgets/"), chromedp.WaitVisible(chromedp.CSS(`[data-calc="quorum"]`))); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"quorum", "san", "ha-sim"} {
			if st := readNote(t, ctx, w); st.Loading != "" || st.NoScript != ui.T(lang, "calc_noscript") || !st.Visible {
				t.Errorf("%s %s without JavaScript: %+v, want only %q", lang, w, st, ui.T(lang, "calc_noscript"))
			}
		}
	}
}

// TestSingleFileWidgetsInBrowser opens the single-file course of each
// language, which ships no calculator: its widgets show their answers as
// results, with no control to use, no loading note and no word of
// JavaScript, and each drawing's arrows and accessible name resolve.
func TestSingleFileWidgetsInBrowser(t *testing.T) {
	dir := singleFileCourse(t)
	ui := uiStrings(t)
	for _, lang := range []string{"ja", "ko"} {
		t.Run(lang, func(t *testing.T) {
			file := filepath.Join(dir, "course-"+lang+".html")
			if _, err := os.Stat(file); err != nil {
				t.Fatal(err)
			}
			b := browsertest.New(t, browsertest.Options{})
			ctx := b.Ctx
			if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file), chromedp.WaitVisible(chromedp.CSS(`main h1`))); err != nil {
				t.Fatal(err)
			}
			type state struct {
				Widgets, Notes, Controls, Dangling int
				Text                               string
			}
			st, err := chromedp.Run(ctx, chromedp.Evaluate[state](`(() => {
				const widgets = [...document.querySelectorAll("[data-calc]")];
				const note = `+quoteJS(ui.T(lang, "calc_static"))+`;
				let dangling = 0;
				for (const el of document.querySelectorAll("[aria-labelledby], [aria-describedby], [for], [marker-end]")) {
					const refs = (el.getAttribute("aria-labelledby") || "") + " " + (el.getAttribute("aria-describedby") || "") + " " +
						(el.getAttribute("for") || "") + " " + (el.getAttribute("marker-end") || "").replace(/^url\(#(.*)\)$/, "$1");
					for (const id of refs.split(/\s+/).filter(Boolean)) if (!document.getElementById(id)) dangling++;
				}
				return {
					widgets: widgets.length,
					notes: widgets.filter(w => w.querySelector(".calc-static")?.checkVisibility() && w.querySelector(".calc-static").textContent === note).length,
					controls: document.querySelectorAll("[data-calc] :is(input, select, textarea, button, [tabindex])").length,
					dangling: dangling,
					text: document.body.innerText,
				};
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if st.Widgets == 0 || st.Notes != st.Widgets {
				t.Errorf("%d of %d widgets say their answers are for the starting values", st.Notes, st.Widgets)
			}
			if st.Controls != 0 {
				t.Errorf("%d controls in the widgets, which nothing runs", st.Controls)
			}
			if st.Dangling != 0 {
				t.Errorf("%d references to ids no element has", st.Dangling)
			}
			for _, bad := range []string{"JavaScript", ui.T(lang, "calc_loading"), ui.T(lang, "calc_hint")} {
				if strings.Contains(st.Text, bad) {
					t.Errorf("the course shows %q", bad)
				}
			}
		})
	}
}
