// kakehashi serve: live reload. Loaded only by pages the authoring server
// serves (it injects the script tag); a built site never references it.
// Listens on /_kakehashi/events: "reload" reloads keeping the scroll
// position, "css" swaps the changed stylesheets in place, "error" shows the
// build's errors in an overlay, "ok" (on connect) clears it.
(() => {
  "use strict";
  if (window.__kakehashiLive || !window.EventSource) return;
  window.__kakehashiLive = true;
  const doc = document;
  const key = "kakehashi:scroll:" + location.pathname;

  // Scroll position, kept across reloads per path.
  try {
    const saved = sessionStorage.getItem(key);
    if (saved) {
      sessionStorage.removeItem(key);
      const pos = JSON.parse(saved);
      const restore = () => window.scrollTo(pos.x, pos.y);
      restore();
      window.addEventListener("load", restore, { once: true });
    }
  } catch (e) { /* storage unavailable: reload without keeping scroll */ }

  const reload = () => {
    try {
      sessionStorage.setItem(key, JSON.stringify({ x: window.scrollX, y: window.scrollY }));
    } catch (e) { /* ignore */ }
    location.reload();
  };

  // Swap the stylesheets that changed: a fingerprinted one for its new
  // hashed name (swap maps old path to new), another with a cache-busting
  // query.
  const swapCSS = (paths, swap, version) => {
    for (const link of doc.querySelectorAll('link[rel~="stylesheet"]')) {
      const u = new URL(link.href, location.href);
      if (u.origin !== location.origin) continue;
      if (Object.prototype.hasOwnProperty.call(swap, u.pathname)) {
        u.pathname = swap[u.pathname];
        link.href = u.pathname + u.search;
        continue;
      }
      if (!paths.includes(u.pathname)) continue;
      u.searchParams.set("kakehashi", version);
      link.href = u.pathname + u.search;
    }
  };

  // The error overlay lives in a shadow root, untouched by the page's CSS.
  let host = null;
  let dismissed = "";
  const style = `
    .panel { position: fixed; inset: auto 1rem 1rem 1rem; max-height: 70vh; overflow: auto;
      z-index: 2147483647; background: #1e1e1e; color: #eee; border: 2px solid #e5484d;
      border-radius: 8px; box-shadow: 0 8px 30px rgba(0,0,0,.45);
      font: 14px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
    .head { display: flex; align-items: center; gap: 1rem; padding: .5rem .8rem;
      background: #3b1215; position: sticky; top: 0; }
    h2 { margin: 0; font-size: 15px; flex: 1; color: #ffb4b4; }
    button { font: inherit; background: #333; color: #fff; border: 1px solid #888;
      border-radius: 4px; padding: .15rem .6rem; cursor: pointer; }
    button:focus-visible { outline: 2px solid #8ab4ff; outline-offset: 2px; }
    section { padding: .6rem .8rem; border-top: 1px solid #444; }
    .loc { color: #8ab4ff; font-weight: bold; }
    .msg { margin: .2rem 0 .4rem; white-space: pre-wrap; }
    pre { margin: 0; padding: .4rem .6rem; background: #111; border-radius: 4px; overflow-x: auto; }
    .line { display: block; white-space: pre; }
    .line.bad { background: #4a1d1f; }
    .num { display: inline-block; min-width: 3.5em; color: #888; user-select: none; }
    .caret { color: #ff6b6b; }`;

  const hide = () => {
    if (!host) return;
    const h = host;
    const hadFocus = h.shadowRoot.activeElement !== null;
    host = null;
    h.remove();
    // Focus was on the dismiss button: hand it back to the page, not lost.
    if (hadFocus) {
      doc.body.setAttribute("tabindex", "-1");
      doc.body.focus({ preventScroll: true });
      doc.body.removeAttribute("tabindex");
    }
  };

  const el = (tag, cls, text) => {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const render = (errors) => {
    const panel = el("div", "panel");
    panel.setAttribute("role", "alertdialog");
    panel.setAttribute("aria-modal", "false");
    panel.setAttribute("aria-labelledby", "kh-title");
    panel.setAttribute("aria-describedby", "kh-body");
    const head = el("div", "head");
    const title = el("h2", "", errors.length === 1 ? "Build failed: 1 error" : `Build failed: ${errors.length} errors`);
    title.id = "kh-title";
    const close = el("button", "", "Dismiss");
    close.type = "button";
    close.setAttribute("aria-label", "Dismiss the build errors");
    head.append(title, close);
    const body = el("div");
    body.id = "kh-body";
    for (const d of errors) {
      const sec = el("section");
      let loc = d.path || "";
      if (d.line > 0) loc += `:${d.line}:${d.col}`;
      sec.append(el("div", "loc", loc), el("p", "msg", d.msg));
      if (d.line > 0 && (d.context || d.source)) {
        const pre = el("pre");
        const lines = d.context && d.context.length ? d.context : [d.source];
        const start = d.context && d.context.length ? d.contextStart : d.line;
        lines.forEach((text, i) => {
          const n = start + i;
          const row = el("span", n === d.line ? "line bad" : "line");
          row.append(el("span", "num", (n === d.line ? "> " : "  ") + n + " |"), doc.createTextNode(" " + text));
          pre.append(row);
          if (n === d.line) {
            const caret = el("span", "line caret");
            caret.append(el("span", "num", ""), doc.createTextNode(" " + " ".repeat(Math.max(0, d.col - 1)) + "^"));
            pre.append(caret);
          }
        });
        sec.append(pre);
      }
      body.append(sec);
    }
    panel.append(head, body);
    return { panel, close };
  };

  const show = (errors) => {
    const sig = JSON.stringify(errors);
    if (sig === dismissed) return;
    hide();
    host = el("kakehashi-overlay");
    host.id = "kakehashi-overlay";
    const root = host.attachShadow({ mode: "open" });
    const { panel, close } = render(errors);
    const st = el("style", "", style);
    root.append(st, panel);
    const dismiss = () => { dismissed = sig; hide(); };
    close.addEventListener("click", dismiss);
    panel.addEventListener("keydown", (ev) => { if (ev.key === "Escape") dismiss(); });
    // Shown without taking focus: the author may be typing in the page.
    doc.documentElement.append(host);
  };

  let version = null;
  const data = (ev) => { try { return JSON.parse(ev.data); } catch (e) { return {}; } };
  const connect = () => {
    const es = new EventSource("/_kakehashi/events");
    es.addEventListener("ok", (ev) => {
      const d = data(ev);
      // A build finished while we were away: show it.
      if (host || (version !== null && d.version !== version)) return reload();
      version = d.version;
    });
    es.addEventListener("reload", () => reload());
    es.addEventListener("css", (ev) => {
      const d = data(ev);
      version = d.version;
      swapCSS(d.paths || [], d.swap || {}, d.version);
    });
    es.addEventListener("error", (ev) => {
      if (!(ev instanceof MessageEvent)) return; // a lost connection: EventSource retries
      const d = data(ev);
      version = d.version;
      show(d.errors || []);
    });
    window.addEventListener("pagehide", () => es.close(), { once: true });
  };
  connect();
})();
