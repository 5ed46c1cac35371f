// kakehashi default theme: copy buttons on code blocks, the header's theme
// choice and search button, the table of contents' section in view and the
// root page's language choice. (The table of contents folds on phones by
// CSS alone.)
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

  // The theme: light, dark or auto (the OS's), kept for the next pages
  // and visits; js/theme.js applies it before the first paint.
  const root = doc.documentElement;
  const themeKey = "kakehashi-theme";
  const choice = doc.querySelector(".theme-choice select");
  const stored = () => {
    try { return localStorage.getItem(themeKey); } catch (e) { return null; }
  };
  const applyTheme = (v) => {
    v = v === "light" || v === "dark" ? v : "auto";
    if (v === "auto") delete root.dataset.theme; else root.dataset.theme = v;
    if (choice) choice.value = v;
  };
  if (choice) {
    applyTheme(root.dataset.theme);
    choice.addEventListener("change", () => {
      const v = choice.value;
      applyTheme(v);
      try {
        if (v === "auto") localStorage.removeItem(themeKey); else localStorage.setItem(themeKey, v);
      } catch (e) { /* this page only */ }
    });
    // Chosen in another tab, or before going back to a page kept in memory.
    addEventListener("storage", (ev) => { if (ev.key === themeKey) applyTheme(ev.newValue); });
    addEventListener("pageshow", (ev) => { if (ev.persisted) applyTheme(stored()); });
  }

  // On phones the search box is a row under the bar that the header's
  // button opens (focusing the box) and closes, as Escape does.
  const header = doc.querySelector(".site-header");
  const toggle = header && header.querySelector(".search-toggle");
  const q = doc.getElementById("q");
  let openSearch = () => {};
  if (toggle && q) {
    openSearch = (on) => {
      header.classList.toggle("search-open", on);
      toggle.setAttribute("aria-expanded", on);
      if (on) q.focus();
    };
    toggle.addEventListener("click", () => openSearch(!header.classList.contains("search-open")));
    header.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape" || ev.defaultPrevented || !header.classList.contains("search-open")) return;
      openSearch(false);
      toggle.focus();
    });
  }
  // "/" or Ctrl+K (⌘K) goes to the search box from anywhere but a field.
  if (q) {
    doc.addEventListener("keydown", (ev) => {
      const slash = ev.key === "/" && !ev.ctrlKey && !ev.metaKey && !ev.altKey;
      const k = (ev.key === "k" || ev.key === "K") && (ev.ctrlKey || ev.metaKey) && !ev.altKey;
      const t = ev.target;
      if (!(slash || k) || ev.defaultPrevented || ev.isComposing || t === q) return;
      if (slash && t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      ev.preventDefault();
      if (toggle && getComputedStyle(toggle).display !== "none") openSearch(true);
      else q.focus();
      q.select();
    });
  }

  // The table of contents marks the section in view: the last heading
  // above a line 30% down the window (the last one at the page's end).
  const tocLinks = Array.from(doc.querySelectorAll('.toc nav a[href^="#"]'));
  const targets = tocLinks.map((a) => {
    try { return doc.getElementById(decodeURIComponent(a.hash.slice(1))); } catch (e) { return null; }
  });
  if (tocLinks.length && window.IntersectionObserver) {
    let marked = null;
    const mark = () => {
      const line = innerHeight * 0.3;
      let at = -1;
      targets.forEach((h, i) => { if (h && h.getBoundingClientRect().top < line) at = i; });
      if (innerHeight + scrollY >= root.scrollHeight - 2) at = targets.length - 1;
      const a = tocLinks[at] || null;
      if (a === marked) return;
      if (marked) marked.removeAttribute("aria-current");
      if (a) a.setAttribute("aria-current", "true");
      marked = a;
    };
    const io = new IntersectionObserver(mark, { rootMargin: "0px 0px -70% 0px" });
    for (const h of targets) if (h) io.observe(h);
    const foot = doc.querySelector(".site-footer");
    if (foot) new IntersectionObserver(mark).observe(foot);
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
