// kakehashi search: the header's search box and the engine behind it.
//
// The index of each language is a script written at build time by the Go
// package build/search; it sets globalThis.kakehashiSearch[lang]. It is
// loaded on the first focus of the box by inserting a <script> element, so
// search works from file:// as well as from a server. Tokenising, scoring
// and snippets mirror build/search exactly (build/e2e/node/search_parity.mjs
// checks that both rank the same); change one, change the other.
(function () {
  'use strict';

  // Must match build/search.
  var VAR_TERM = '0123456789abcdefghijklmnopqrstuv';
  var VAR_CONT = 'wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$%';
  var FORMAT = 1;
  var MAX_TOKEN = 64;
  var MAX_TERMS = 32;
  var SNIPPET = 100;
  var LEAD = 30;
  var MIN_PREFIX = 2;
  var TITLE_BONUS = 8;
  var ELLIPSIS = '\u2026';
  var JOINERS = '-._/:@';
  var MAX_RESULTS = 10;

  var CL_OTHER = 0, CL_CJK = 1, CL_HANGUL = 2, CL_WORD = 3, CL_JOINER = 4;
  var RE_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC\u3006]/u;
  var RE_HANGUL = /\p{Script=Hangul}/u;
  var RE_WORD = /[\p{L}\p{Nd}\p{M}]/u;
  var RE_MARK = /[\p{M}\uFF9E\uFF9F]/u;

  function classOf(c) {
    if (RE_CJK.test(c)) return CL_CJK;
    if (RE_HANGUL.test(c)) return CL_HANGUL;
    if (RE_WORD.test(c)) return CL_WORD;
    if (JOINERS.indexOf(c) >= 0) return CL_JOINER;
    return CL_OTHER;
  }

  // lower folds one character, keeping it one character.
  function lower(c) {
    if (c === '\u0130') return c;
    var l = c.toLowerCase();
    return Array.from(l).length === 1 ? l : c;
  }

  // normalize applies NFKC and case folding per base character and its
  // marks; each output character remembers the range of input code points
  // it came from.
  function normalize(cps) {
    var out = [];
    for (var i = 0; i < cps.length;) {
      var j = i + 1;
      while (j < cps.length && RE_MARK.test(cps[j])) j++;
      if (j === i + 1 && cps[i].charCodeAt(0) < 0x80) {
        out.push({ c: lower(cps[i]), s: i, e: j });
      } else {
        var n = Array.from(cps.slice(i, j).join('').normalize('NFKC'));
        for (var k = 0; k < n.length; k++) out.push({ c: lower(n[k]), s: i, e: j });
      }
      i = j;
    }
    return out;
  }

  // tokenizeCps returns the terms of a code point array with the code
  // point range each came from: {t, s, e}.
  function tokenizeCps(cps) {
    var cs = normalize(cps);
    var n = cs.length;
    var cl = cs.map(function (x) { return classOf(x.c); });
    var out = [];
    function emit(a, b) {
      if (b - a > MAX_TOKEN) return;
      var t = '';
      for (var k = a; k < b; k++) t += cs[k].c;
      out.push({ t: t, s: cs[a].s, e: cs[b - 1].e });
    }
    for (var i = 0; i < n;) {
      var c = cl[i];
      if (c === CL_CJK || c === CL_HANGUL) {
        var j = i + 1;
        while (j < n && cl[j] === c) j++;
        if (j - i === 1) emit(i, j);
        for (var k = i; k + 1 < j; k++) emit(k, k + 2);
        i = j;
      } else if (c === CL_WORD) {
        var runs = [];
        var p = i;
        for (;;) {
          var r0 = p;
          while (p < n && cl[p] === CL_WORD) p++;
          runs.push([r0, p]);
          var q = p;
          while (q < n && cl[q] === CL_JOINER) q++;
          if (q > p && q < n && cl[q] === CL_WORD) { p = q; continue; }
          break;
        }
        if (runs.length > 1) emit(runs[0][0], runs[runs.length - 1][1]);
        for (var r = 0; r < runs.length; r++) emit(runs[r][0], runs[r][1]);
        i = p;
      } else {
        i++;
      }
    }
    return out;
  }

  function tokenize(s) { return tokenizeCps(Array.from(s)); }

  // fold is the text as the phrase check sees it.
  function fold(s) {
    var cs = normalize(Array.from(s));
    var out = '';
    var space = false;
    for (var i = 0; i < cs.length; i++) {
      if (classOf(cs[i].c) === CL_OTHER) { space = out.length > 0; continue; }
      if (space) { out += ' '; space = false; }
      out += cs[i].c;
    }
    return out;
  }

  function readVarints(s) {
    var out = [];
    var v = 0;
    for (var i = 0; i < s.length; i++) {
      var j = VAR_CONT.indexOf(s[i]);
      if (j >= 0) { v = v * 32 + j; continue; }
      out.push(v * 32 + VAR_TERM.indexOf(s[i]));
      v = 0;
    }
    return out;
  }

  var prepared = new WeakMap();

  // prepare decodes an index once: key table and posting lists.
  function prepare(data) {
    var p = prepared.get(data);
    if (p) return p;
    if (!data || data.v !== FORMAT) throw new Error('kakehashi search: index format ' + (data && data.v));
    var keys = data.keys ? data.keys.split(' ') : [];
    var recs = data.post ? data.post.split(' ') : [];
    p = { keys: keys, id: new Map(), idf: [], post: [], folded: [] };
    for (var k = 0; k < keys.length; k++) {
      var vs = readVarints(recs[k] || '0');
      p.id.set(keys[k], k);
      p.idf.push(vs[0]);
      var ps = [];
      var doc = 0;
      for (var j = 1; j + 1 < vs.length; j += 2) {
        doc += vs[j];
        ps.push(doc, vs[j + 1]);
      }
      p.post.push(ps);
    }
    prepared.set(data, p);
    return p;
  }

  function expansion(t, isLast) {
    var rs = Array.from(t);
    if (rs.length === 1) {
      var c = classOf(rs[0]);
      if (c === CL_CJK || c === CL_HANGUL) return 'contains';
    }
    if (!isLast || rs.length < MIN_PREFIX) return '';
    for (var i = 0; i < rs.length; i++) if (classOf(rs[i]) !== CL_WORD) return '';
    return 'prefix';
  }

  // search ranks the pages of an index for a query, best first:
  // [{doc, url, part, title, matched, terms, score, keys}].
  function search(data, query) {
    var ix = prepare(data);
    var toks = tokenize(query);
    var texts = [];
    var seen = new Set();
    for (var i = 0; i < toks.length; i++) {
      if (!seen.has(toks[i].t) && texts.length < MAX_TERMS) {
        seen.add(toks[i].t);
        texts.push(toks[i].t);
      }
    }
    if (!texts.length) return [];
    var last = toks[toks.length - 1].t;
    var terms = texts.map(function (t) {
      var refs = [];
      if (ix.id.has(t)) refs.push([ix.id.get(t), false]);
      var x = expansion(t, t === last);
      if (x) {
        for (var id = 0; id < ix.keys.length; id++) {
          var k = ix.keys[id];
          if (k !== t && (k.startsWith(t) || (x === 'contains' && k.endsWith(t)))) refs.push([id, true]);
        }
      }
      return refs;
    });

    var nd = data.url.length;
    var matched = new Array(nd).fill(0);
    var score = new Array(nd).fill(0);
    var docKeys = new Array(nd);
    var best = new Array(nd);
    terms.forEach(function (refs) {
      best.fill(-1);
      refs.forEach(function (ref) {
        var id = ref[0];
        var ps = ix.post[id];
        for (var j = 0; j < ps.length; j += 2) {
          var d = ps[j], w = ps[j + 1];
          var s = ix.idf[id] * ((w >> 1) + TITLE_BONUS * (w & 1));
          if (ref[1]) s >>= 1;
          if (s > best[d]) best[d] = s;
          (docKeys[d] || (docKeys[d] = new Set())).add(ix.keys[id]);
        }
      });
      for (var d = 0; d < nd; d++) {
        if (best[d] >= 0) { matched[d]++; score[d] += best[d]; }
      }
    });

    var need = (terms.length + 1) >> 1;
    var phrase = terms.length >= 2 ? fold(query) : '';
    var hits = [];
    for (var d = 0; d < nd; d++) {
      if (matched[d] < need || matched[d] === 0) continue;
      var s = score[d];
      if (phrase) {
        if (ix.folded[d] === undefined) ix.folded[d] = fold(data.title[d] + ' ' + data.text[d]);
        if (ix.folded[d].indexOf(phrase) >= 0) s += s >> 1;
      }
      hits.push({
        doc: d, url: data.url[d], part: data.part[d], title: data.title[d],
        matched: matched[d], terms: terms.length, score: s, keys: docKeys[d] || new Set()
      });
    }
    hits.sort(function (a, b) {
      return (b.matched - a.matched) || (b.score - a.score) || (a.doc - b.doc);
    });
    return hits;
  }

  // snippet cuts a window of text around the densest group of keys and
  // marks them: [[text, marked], ...].
  function snippet(text, keys) {
    var rs = Array.from(text);
    var spans = [];
    if (keys && keys.size) {
      tokenizeCps(rs).forEach(function (t) { if (keys.has(t.t)) spans.push(t); });
    }
    var a = 0, anchor = 0, bestCount = 0;
    spans.forEach(function (sp) {
      var lo = Math.max(0, sp.s - LEAD), hi = lo + SNIPPET;
      var distinct = new Set();
      spans.forEach(function (o) { if (o.s >= lo && o.e <= hi) distinct.add(o.t); });
      if (distinct.size > bestCount) { bestCount = distinct.size; a = lo; anchor = sp.s; }
    });
    for (var k = a; a > 0 && k < anchor; k++) {
      if (rs[k] === ' ') { a = k + 1; break; }
    }
    var e = Math.min(rs.length, a + SNIPPET);
    var marks = [];
    spans.forEach(function (sp) {
      var lo = Math.max(sp.s, a), hi = Math.min(sp.e, e);
      if (lo >= hi) return;
      var m = marks[marks.length - 1];
      if (m && (lo <= m[1] || (lo === m[1] + 1 && rs[lo - 1] === ' '))) {
        m[1] = Math.max(m[1], hi);
        return;
      }
      marks.push([lo, hi]);
    });
    var out = [];
    function add(s, mark) {
      if (!s) return;
      var l = out[out.length - 1];
      if (l && l[1] === mark) { l[0] += s; return; }
      out.push([s, mark]);
    }
    if (a > 0) add(ELLIPSIS, false);
    var p = a;
    marks.forEach(function (m) {
      add(rs.slice(p, m[0]).join(''), false);
      add(rs.slice(m[0], m[1]).join(''), true);
      p = m[1];
    });
    add(rs.slice(p, e).join(''), false);
    if (e < rs.length) add(ELLIPSIS, false);
    return out;
  }

  globalThis.kakehashiSearchEngine = {
    tokenize: tokenize, fold: fold, search: search, snippet: snippet
  };

  if (typeof document === 'undefined') return;

  // The search box. Every piece of index text goes into the page as text
  // nodes, never as markup.
  function init(box) {
    var input = box.querySelector('input[role="combobox"]');
    var list = box.querySelector('[role="listbox"]');
    if (!input || !list) return;
    var lang = document.documentElement.lang;
    var src = sameSite(cfg.index) ? new URL(cfg.index, location.href).href : '';
    var base = typeof cfg.base === 'string' ? cfg.base : '';
    if (base && base.slice(-1) !== '/') base += '/';
    var emptyText = box.getAttribute('data-empty') || '\u2014';
    var idPrefix = (list.id || 'search-results') + '-';
    var state = 'idle';
    var timer = 0;
    var selected = -1;
    var items = [];

    function index() {
      var reg = globalThis.kakehashiSearch;
      return reg && reg[lang];
    }

    function load() {
      if (state !== 'idle') return;
      if (index()) { state = 'ready'; return; }
      if (!src) { state = 'failed'; return; }
      state = 'loading';
      var s = document.createElement('script');
      s.src = src;
      s.charset = 'utf-8';
      s.onload = function () { state = index() ? 'ready' : 'failed'; run(); };
      s.onerror = function () { state = 'failed'; run(); };
      document.head.appendChild(s);
    }

    function open() {
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    }

    function close() {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      selected = -1;
    }

    function clear() {
      list.textContent = '';
      items = [];
      selected = -1;
      input.removeAttribute('aria-activedescendant');
    }

    function text(s) { return document.createTextNode(s); }

    function render(hits) {
      clear();
      if (!hits.length) {
        var li = document.createElement('li');
        li.className = 'search-empty';
        li.setAttribute('role', 'option');
        li.setAttribute('aria-disabled', 'true');
        li.textContent = emptyText;
        list.appendChild(li);
        open();
        return;
      }
      var data = index();
      hits.slice(0, MAX_RESULTS).forEach(function (h, i) {
        // The link is the option itself: an option holding a link would
        // nest one interactive control in another.
        var li = document.createElement('li');
        li.setAttribute('role', 'none');
        var a = document.createElement('a');
        a.id = idPrefix + i;
        a.setAttribute('role', 'option');
        a.setAttribute('aria-selected', 'false');
        a.href = base + h.url.replace(/^\/+/, '');
        a.tabIndex = -1;
        if (h.part > 0) {
          var no = document.createElement('span');
          no.className = 'part-no';
          no.textContent = '#' + h.part;
          a.appendChild(no);
          a.appendChild(text(' '));
        }
        a.appendChild(text(h.title));
        var sn = document.createElement('span');
        sn.className = 'snippet';
        snippet(data.text[h.doc], h.keys).forEach(function (seg) {
          if (seg[1]) {
            var m = document.createElement('mark');
            m.textContent = seg[0];
            sn.appendChild(m);
          } else {
            sn.appendChild(text(seg[0]));
          }
        });
        a.appendChild(text(' '));
        a.appendChild(sn);
        li.appendChild(a);
        list.appendChild(li);
        items.push(a);
      });
      open();
    }

    function run() {
      clearTimeout(timer);
      if (!input.value.trim()) { clear(); close(); return; }
      if (state === 'idle') load();
      if (state === 'loading') return;
      if (state === 'failed') { render([]); return; }
      render(search(index(), input.value));
    }

    function move(delta) {
      var n = items.length;
      if (!n) return;
      if (selected >= 0) items[selected].setAttribute('aria-selected', 'false');
      selected = selected < 0 ? (delta > 0 ? 0 : n - 1) : (selected + delta + n) % n;
      var opt = items[selected];
      opt.setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', opt.id);
      if (opt.scrollIntoView) opt.scrollIntoView({ block: 'nearest' });
    }

    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-autocomplete', 'list');
    input.addEventListener('focus', function () {
      load();
      if (input.value.trim() && list.hidden) run();
    });
    // a press reaches the box even when the window has no focus yet
    input.addEventListener('pointerdown', load);
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(run, 80);
    });
    input.addEventListener('keydown', function (ev) {
      switch (ev.key) {
        case 'ArrowDown':
        case 'ArrowUp':
          ev.preventDefault();
          if (list.hidden) run();
          move(ev.key === 'ArrowDown' ? 1 : -1);
          break;
        case 'Enter':
          if (list.hidden || !items.length) { if (input.value.trim()) run(); ev.preventDefault(); break; }
          ev.preventDefault();
          window.location.assign(items[selected >= 0 ? selected : 0].href);
          break;
        case 'Escape':
          if (!list.hidden) { ev.preventDefault(); close(); }
          break;
      }
    });
    box.addEventListener('focusout', function (ev) {
      if (!ev.relatedTarget || !box.contains(ev.relatedTarget)) close();
    });
    list.addEventListener('mousedown', function (ev) {
      // keep focus in the box so focusout does not close the list first
      if (ev.target.closest && ev.target.closest('a')) ev.preventDefault();
    });
    // Loaded on the reader's first touch of the box: they may already be
    // in it, even typing.
    if (document.activeElement === input) {
      load();
      if (input.value.trim()) run();
    }
  }

  // What the build configured, from the JSON block in the head (content,
  // always in the body, can neither write nor shadow it); nothing is read
  // from attributes in the body.
  var cfg = (function () {
    var el = document.head.querySelector('script#kakehashi-config[type="application/json"]');
    try { return ((el && JSON.parse(el.textContent)) || {}).search || {}; } catch (e) { return {}; }
  })();

  // sameSite reports whether u is this site's: the same origin, or from
  // file:// another file.
  function sameSite(u) {
    if (typeof u !== 'string' || !u) return false;
    try {
      var url = new URL(u, location.href);
      return location.protocol === 'file:' ? url.protocol === 'file:' : url.origin === location.origin;
    } catch (e) { return false; }
  }

  // The theme's search box: the one holding the combobox, which no
  // markdown makes.
  function start() {
    var input = document.querySelector('.search input[role="combobox"]');
    var box = input && input.closest('.search');
    if (box) init(box);
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
