// kakehashi default theme: copy buttons on code blocks and the root page's
// language choice. (The table of contents folds on phones by CSS alone.)
(() => {
  "use strict";
  const doc = document;
  const live = () => doc.getElementById("live");

  const announce = (text) => {
    const el = live();
    if (!el) return;
    el.textContent = "";
    setTimeout(() => { el.textContent = text; }, 50);
  };

  // Copies text through a hidden textarea, for file:// and other
  // non-secure origins where navigator.clipboard is missing.
  const fallbackCopy = (text) => {
    const ta = doc.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.style.cssText = "position:fixed;top:0;left:0;opacity:0";
    doc.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = doc.execCommand("copy"); } catch (e) { ok = false; }
    ta.remove();
    return ok ? Promise.resolve() : Promise.reject(new Error("copy failed"));
  };

  const copy = (text) => {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(() => fallbackCopy(text));
    }
    return fallbackCopy(text);
  };

  doc.addEventListener("click", (ev) => {
    const btn = ev.target.closest && ev.target.closest(".code-copy");
    if (!btn) return;
    const fig = btn.closest("figure");
    const code = fig && fig.querySelector("pre code");
    if (!fig || !code) return;
    const text = fig.dataset.copy ?? code.textContent;
    const label = btn.dataset.label ?? (btn.dataset.label = btn.textContent);
    copy(text).then(() => {
      const done = btn.dataset.labelCopied || label;
      btn.textContent = done;
      btn.classList.add("copied");
      announce(done);
    }, () => {
      announce(doc.body.dataset.copyFailed || "");
    });
    clearTimeout(btn._t);
    btn._t = setTimeout(() => {
      btn.textContent = label;
      btn.classList.remove("copied");
    }, 2000);
  });

  // What the build configured: a JSON block in the head, which content
  // (always in the body) can neither write nor shadow; nothing is read
  // from attributes in the body. A script is loaded only from this site:
  // the same scheme and origin (from file://, another file).
  let config = {};
  try { config = JSON.parse(doc.head.querySelector("script#kakehashi-config").textContent); } catch (e) { /* none */ }
  const search = config.search;
  const own = (u) => u.protocol === location.protocol && u.origin === location.origin;

  // Search arrives when a reader first reaches for the box, not with the
  // page: its script, then (on its own) the index. The box is the theme's
  // own: the one that holds the combobox, which no markdown makes.
  const input = search && doc.querySelector('.search [role="combobox"]');
  const box = input && input.closest(".search");
  const script = box && new URL(search.script, location.href);
  if (script && own(script)) {
    const fetchSearch = () => {
      if (box.dataset.loading) return;
      box.dataset.loading = "1";
      const s = doc.createElement("script");
      s.src = script.href;
      doc.head.appendChild(s);
    };
    for (const ev of ["focusin", "pointerdown", "keydown"]) box.addEventListener(ev, fetchSearch, { once: true });
  }

  // The language switcher keeps the reader at the same section. Each link
  // lists its version's headings ("level:id"); the section read (scrolled
  // to, else the last one settled on, else the fragment) maps to the
  // twin's heading of the same level and rank, or the same id.
  const here = doc.querySelector(".lang-switch a[aria-current][data-anchors]");
  const words = (a) => a.dataset.anchors.split(" ").map((w) => {
    const i = w.indexOf(":");
    return { level: w.slice(0, i), id: w.slice(i + 1) };
  });
  const scrolledTo = (own) => {
    let at = -1;
    own.forEach((h, i) => {
      const el = doc.getElementById(h.id);
      if (el && el.getBoundingClientRect().top <= 96) at = i;
    });
    return at;
  };
  let reading = -1;
  const section = (own) => {
    const at = scrolledTo(own);
    if (at >= 0) return at;
    if (reading >= 0) return reading;
    const hash = decodeURIComponent(location.hash.slice(1));
    return own.findIndex((h) => h.id === hash);
  };
  const retarget = (a) => {
    const own = words(here), twin = words(a), at = section(own);
    const base = a.href.split("#")[0];
    if (at < 0) { a.href = base; return; }
    const h = own[at];
    let t = twin.find((x) => x.id === h.id);
    if (!t) {
      const rank = own.slice(0, at + 1).filter((x) => x.level === h.level).length;
      t = twin.filter((x) => x.level === h.level)[rank - 1];
    }
    a.href = t ? base + "#" + encodeURIComponent(t.id) : base;
  };
  if (here) {
    const own = words(here);
    let settle;
    addEventListener("scroll", () => {
      clearTimeout(settle);
      settle = setTimeout(() => {
        const at = scrolledTo(own);
        if (at >= 0) reading = at;
      }, 400);
    }, { passive: true });
    for (const a of doc.querySelectorAll(".lang-switch a[data-anchors]:not([aria-current])")) {
      for (const ev of ["pointerdown", "focus", "click"]) a.addEventListener(ev, () => retarget(a));
    }
  }

  // The root page sends the reader to their language, through the same
  // links a reader without JavaScript would follow: the first of the
  // browser's languages the site has (the tag itself, else its primary
  // language: en-GB finds en), else the site's first, listed first.
  if (doc.body.classList.contains("kind-root")) {
    const links = Array.from(doc.querySelectorAll(".lang-choice a[hreflang]"));
    const tag = (a) => a.getAttribute("hreflang").toLowerCase();
    const primary = (t) => t.split("-")[0];
    let a = null;
    for (const l of navigator.languages || [navigator.language || ""]) {
      const want = l.toLowerCase();
      a = links.find((x) => tag(x) === want) || links.find((x) => primary(tag(x)) === primary(want));
      if (a) break;
    }
    a = a || links[0];
    if (a) location.replace(a.getAttribute("href"));
  }
})();
