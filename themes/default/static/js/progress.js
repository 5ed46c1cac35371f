// kakehashi default theme: reading progress through a series, kept in
// this browser's localStorage and nowhere else. An article is read when
// the reader reaches its end or presses its button; the series lists
// mark what is read and count it, the home page offers to continue, the
// series page clears it. A page and its translation share their state:
// it is keyed by the series and the part's number, not by the URL.
// Without JavaScript or storage nothing of it shows.
(() => {
  "use strict";
  const doc = document;
  const PREFIX = "kakehashi-progress:";

  let store = null;
  try {
    store = window.localStorage;
    store.setItem(PREFIX + "?", "1");
    store.removeItem(PREFIX + "?");
  } catch (e) {
    return; // storage off or refused: no progress, nothing shown
  }

  // A series' state: the parts read, by number, and the last one opened.
  const load = (id) => {
    try {
      const v = JSON.parse(store.getItem(PREFIX + id) || "null");
      if (v && Array.isArray(v.read)) {
        return { read: v.read.filter(Number.isInteger), last: Number.isInteger(v.last) ? v.last : 0 };
      }
    } catch (e) { /* unreadable: start again */ }
    return { read: [], last: 0 };
  };
  const save = (id, st) => {
    try { store.setItem(PREFIX + id, JSON.stringify(st)); } catch (e) { /* full or refused */ }
  };
  const has = (id) => {
    try { return store.getItem(PREFIX + id) !== null; } catch (e) { return false; }
  };

  const fmt = (s, n, m) => s.replace("%[1]d", String(n)).replace("%[2]d", String(m));
  const announce = (text) => {
    const el = doc.getElementById("live");
    if (!el) return;
    el.textContent = "";
    setTimeout(() => { el.textContent = text; }, 50);
  };

  // Marks the read parts of every list of parts, and counts them.
  const paint = () => {
    for (const ol of doc.querySelectorAll("ol.parts[data-series]")) {
      const read = new Set(load(ol.dataset.series).read);
      for (const li of ol.querySelectorAll("li[data-part]")) {
        const is = read.has(Number(li.dataset.part));
        const a = li.querySelector("a");
        let mark = li.querySelector(".read-mark");
        li.classList.toggle("read", is);
        if (is && !mark && a) {
          mark = doc.createElement("span");
          mark.className = "read-mark";
          const check = doc.createElement("span");
          check.setAttribute("aria-hidden", "true");
          check.textContent = "✓";
          const label = doc.createElement("span");
          label.className = "visually-hidden";
          label.textContent = " (" + (ol.dataset.read || "") + ")";
          mark.append(check, label);
          a.append(mark);
        } else if (!is && mark) {
          mark.remove();
        }
      }
    }
    for (const el of doc.querySelectorAll(".progress-count[data-series], .progress-bar[data-series] .progress-text")) {
      const box = el.closest("[data-series]");
      const m = Number(box.dataset.readable) || 0;
      const st = load(box.dataset.series);
      const n = Math.min(st.read.length, m);
      el.textContent = has(box.dataset.series) && n > 0 ? fmt(box.dataset.count || "", n, m) : "";
    }
    for (const p of doc.querySelectorAll(".progress-continue[data-series]")) continueLink(p);
  };

  // The home page's "continue": the last part opened when it is not read,
  // else the first unread part after it (or before it, when it was the
  // last unread); nothing without progress, or when all is read.
  const continueLink = (p) => {
    p.textContent = "";
    const id = p.dataset.series;
    if (!has(id)) return;
    const st = load(id);
    const read = new Set(st.read);
    const card = p.closest("section") || doc;
    const items = [...card.querySelectorAll(`ol.parts[data-series="${CSS.escape(id)}"] li[data-part]`)];
    const nums = items.map((li) => Number(li.dataset.part));
    let at = nums.indexOf(st.last);
    if (at < 0 && st.read.length) at = nums.indexOf(Math.max(...st.read));
    if (at < 0) return;
    let pick = -1;
    if (!read.has(nums[at])) pick = at;
    for (let i = at + 1; pick < 0 && i < nums.length; i++) if (!read.has(nums[i])) pick = i;
    for (let i = 0; pick < 0 && i < at; i++) if (!read.has(nums[i])) pick = i;
    if (pick < 0) return;
    const src = items[pick].querySelector("a");
    if (!src) return;
    const a = doc.createElement("a");
    a.href = src.getAttribute("href");
    if (src.hasAttribute("hreflang")) a.hreflang = src.getAttribute("hreflang");
    const num = src.querySelector(".num");
    const name = src.querySelector(".name");
    a.textContent = (num ? num.textContent + " " : "") + (name ? name.textContent : "");
    p.append(doc.createTextNode((p.dataset.label || "") + " "), a);
  };

  // An article: remembered as the last opened, read at its end or by its
  // button.
  const article = doc.querySelector("article[data-series][data-part]");
  const end = article && article.querySelector(".progress-end");
  if (article) {
    const id = article.dataset.series;
    const num = Number(article.dataset.part);
    const isArticle = doc.body.classList.contains("kind-article");
    if (isArticle) {
      const st = load(id);
      st.last = num;
      save(id, st);
    }
    if (isArticle && end) {
      const btn = doc.createElement("button");
      btn.type = "button";
      btn.className = "progress-toggle";
      const isRead = () => load(id).read.includes(num);
      const label = () => { btn.textContent = isRead() ? end.dataset.unmark : end.dataset.mark; };
      const set = (on) => {
        const st = load(id);
        st.read = st.read.filter((x) => x !== num);
        if (on) st.read.push(num);
        st.read.sort((x, y) => x - y);
        save(id, st);
        label();
        paint();
      };
      let observer = null;
      let timer = 0;
      const stop = () => {
        clearTimeout(timer);
        if (observer) observer.disconnect();
        observer = null;
      };
      btn.addEventListener("click", () => {
        stop(); // the reader decides now
        set(!isRead());
      });
      label();
      end.append(btn);
      if ("IntersectionObserver" in window && !isRead()) {
        // Read once the end has stayed in view a second, not when the
        // reader flicks past it.
        observer = new IntersectionObserver((entries) => {
          clearTimeout(timer);
          if (entries[entries.length - 1].isIntersecting) {
            timer = setTimeout(() => {
              stop();
              if (!isRead()) set(true);
            }, 1000);
          }
        });
        observer.observe(end);
      }
    }
  }

  // The series page: the count, and a button that clears the series'
  // progress, with an undo.
  const bar = doc.querySelector(".progress-bar[data-series]");
  if (bar) {
    const id = bar.dataset.series;
    const text = doc.createElement("span");
    text.className = "progress-text";
    const btn = doc.createElement("button");
    btn.type = "button";
    btn.className = "progress-clear";
    let saved = null;
    const show = () => {
      if (saved !== null) {
        btn.textContent = bar.dataset.undo;
        btn.hidden = false;
      } else {
        btn.textContent = bar.dataset.clear;
        btn.hidden = !has(id);
      }
    };
    btn.addEventListener("click", () => {
      if (saved === null) {
        saved = store.getItem(PREFIX + id);
        try { store.removeItem(PREFIX + id); } catch (e) { /* refused */ }
        paint();
        text.textContent = bar.dataset.cleared;
        announce(bar.dataset.cleared);
      } else {
        try { store.setItem(PREFIX + id, saved); } catch (e) { /* refused */ }
        saved = null;
        paint();
        announce(text.textContent);
      }
      show();
    });
    bar.append(text, btn);
    show();
  }

  paint();
  // Another tab read a part: show it here too.
  window.addEventListener("storage", (e) => {
    if (e.key === null || e.key.startsWith(PREFIX)) paint();
  });
})();
