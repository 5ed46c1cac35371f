// kakehashi search: the header's search box and the engine behind it.
//
// The index of each language is written at build time by the Go package
// build/search, as scripts: a small manifest (/<lang>/search-index.js)
// that sets globalThis.kakehashiSearch[lang], shards of the sorted keys
// and their postings, and a fragment per page (its URL, title, part and
// text). The manifest loads on the first focus of the box; a query loads
// the shards its terms fall in, then the fragments of the results it
// shows. Each is a <script> element that adds itself to the manifest's
// tables, so search works from file:// as well as from a server.
// Tokenising, scoring and snippets mirror build/search exactly
// (build/e2e/node/search_parity.mjs checks that both rank the same and
// read the same shards); change one, change the other.
(function () {
  'use strict';

  // Must match build/search.
  var VAR_TERM = '0123456789abcdefghijklmnopqrstuv';
  var VAR_CONT = 'wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$%';
  var FORMAT = 3;
  var CONTAINS = '*';
  var MAX_TOKEN = 64;
  var MAX_TERMS = 32;
  var SNIPPET = 100;
  var LEAD = 30;
  var MIN_PREFIX = 2;
  var TITLE_BONUS = 8;
  var ELLIPSIS = '\u2026';
  var JOINERS = '-._/:@';
  var MAX_RESULTS = 10;
  // FIRST_OPTIONS is how many options (pages and sections) fill the open
  // panel, at its tallest on a desktop (40rem) or a phone's screen: the
  // results that hold them are made before the paint that shows the list.
  var FIRST_OPTIONS = 9;
  // What a query lacks is loaded once the typing has paused this long, so
  // that the words on the way to the one meant load nothing.
  var LOAD_DELAY = 150;

  var CL_OTHER = 0, CL_CJK = 1, CL_HANGUL = 2, CL_WORD = 3, CL_JOINER = 4;
  var RE_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC\u3006]/u;
  var RE_HANGUL = /\p{Script=Hangul}/u;
  var RE_WORD = /[\p{L}\p{Nd}\p{M}]/u;
  var RE_MARK = /[\p{M}\uFF9E\uFF9F]/u;

  // stable tells the characters that are their own NFKC form and have no
  // case, which course text is mostly made of: Hiragana, Katakana with ー,
  // common Han and Hangul syllables (build/search nfkcStable).
  function stable(cp) {
    return (cp >= 0x3041 && cp <= 0x3096) || (cp >= 0x30A1 && cp <= 0x30FC) ||
      (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7A3);
  }

  function classOf(c) {
    var cp = c.codePointAt(0);
    if (cp < 0x80) {
      if ((cp >= 0x61 && cp <= 0x7A) || (cp >= 0x41 && cp <= 0x5A) || (cp >= 0x30 && cp <= 0x39)) return CL_WORD;
      return JOINERS.indexOf(c) >= 0 ? CL_JOINER : CL_OTHER;
    }
    if ((cp >= 0x3041 && cp <= 0x3096) || (cp >= 0x30A1 && cp <= 0x30FA) || (cp >= 0x4E00 && cp <= 0x9FFF)) return CL_CJK;
    if (cp >= 0xAC00 && cp <= 0xD7A3) return CL_HANGUL;
    if (RE_CJK.test(c)) return CL_CJK;
    if (RE_HANGUL.test(c)) return CL_HANGUL;
    if (RE_WORD.test(c)) return CL_WORD;
    if (JOINERS.indexOf(c) >= 0) return CL_JOINER;
    return CL_OTHER;
  }

  // lower folds one character, keeping it one character.
  function lower(c) {
    var cp = c.codePointAt(0);
    if (cp < 0x80) return cp >= 0x41 && cp <= 0x5A ? String.fromCharCode(cp + 32) : c;
    if (stable(cp) || c === '\u0130') return c;
    var l = c.toLowerCase();
    return Array.from(l).length === 1 ? l : c;
  }

  function isMark(c) {
    var cp = c.codePointAt(0);
    if (cp < 0x300 || stable(cp)) return false;
    return RE_MARK.test(c);
  }

  // normalize applies NFKC and case folding per base character and its
  // marks; each output character remembers the range of input code points
  // it came from.
  function normalize(cps) {
    var out = [];
    for (var i = 0; i < cps.length;) {
      var j = i + 1;
      while (j < cps.length && isMark(cps[j])) j++;
      var cp = cps[i].codePointAt(0);
      if (j === i + 1 && (cp < 0x80 || stable(cp))) {
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

  // fold is the text normalised and case-folded, every separator run one
  // space, trimmed.
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

  // cmp orders strings by code point, as Go orders their UTF-8 bytes: a
  // character above U+FFFF (a surrogate pair) comes after every other.
  function cmp(a, b) {
    var n = Math.min(a.length, b.length);
    for (var i = 0; i < n; i++) {
      var x = a.charCodeAt(i), y = b.charCodeAt(i);
      if (x === y) continue;
      var xs = x >= 0xD800 && x <= 0xDFFF, ys = y >= 0xD800 && y <= 0xDFFF;
      if (xs !== ys) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
    return a.length - b.length;
  }

  function split(s) { return s ? s.split(' ') : []; }

  var manifests = new WeakMap();

  // manifest decodes a language's manifest once: the shards' first keys
  // and names, and the pages' fragment names.
  function manifest(data) {
    var m = manifests.get(data);
    if (m) return m;
    if (!data || data.v !== FORMAT) throw new Error('kakehashi search: index format ' + (data && data.v));
    m = { first: split(data.first), shards: split(data.shards), pages: split(data.pages) };
    manifests.set(data, m);
    return m;
  }

  // shardOf is the shard whose keys would hold key, or -1 before the first.
  function shardOf(m, key) {
    var lo = 0, hi = m.first.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (cmp(m.first[mid], key) <= 0) lo = mid + 1; else hi = mid;
    }
    return lo - 1;
  }

  // prefixShards are the shards that may hold a key beginning with t.
  function prefixShards(m, t) {
    var i = shardOf(m, t);
    var out = i >= 0 ? [i] : [];
    for (var j = i + 1; j < m.first.length && m.first[j].startsWith(t); j++) out.push(j);
    return out;
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

  // queryTerms are the distinct terms of a query with their expansion:
  // [{t, x}], x '' or 'prefix' (the last Latin word) or 'contains' (a lone
  // Japanese or Hangul character).
  function queryTerms(query) {
    var toks = tokenize(query);
    if (!toks.length) return [];
    var last = toks[toks.length - 1].t;
    var out = [];
    var seen = new Set();
    for (var i = 0; i < toks.length; i++) {
      var t = toks[i].t;
      if (!seen.has(t) && out.length < MAX_TERMS) {
        seen.add(t);
        out.push({ t: t, x: expansion(t, t === last) });
      }
    }
    return out;
  }

  function termShards(m, q) {
    if (q.x === 'prefix') return prefixShards(m, q.t);
    var a = shardOf(m, q.t);
    if (q.x === 'contains') {
      var b = shardOf(m, q.t + CONTAINS);
      if (a < 0) return b < 0 ? [] : [b];
      return a === b ? [a] : [a, b];
    }
    return a >= 0 ? [a] : [];
  }

  // plan is what a query needs before it ranks: its terms and the shards
  // they fall in, by number, sorted: {terms, shards}.
  function plan(data, query) {
    var m = manifest(data);
    var terms = queryTerms(query);
    var seen = new Set();
    var shards = [];
    terms.forEach(function (q) {
      termShards(m, q).forEach(function (i) {
        if (!seen.has(i)) { seen.add(i); shards.push(i); }
      });
    });
    shards.sort(function (a, b) { return a - b; });
    return { terms: terms, shards: shards };
  }

  var decoded = new WeakMap();

  // shard decodes shard i once it is there: its keys and, as queries ask
  // for them, their posting lists; null while it is not.
  function shard(data, m, i) {
    var raw = data.shard && data.shard[m.shards[i]];
    if (!raw) return null;
    var s = decoded.get(raw);
    if (!s) {
      s = { keys: split(raw.keys), recs: split(raw.post), id: null, idf: [], post: [] };
      decoded.set(raw, s);
    }
    return s;
  }

  function keyID(s, key) {
    if (!s.id) {
      s.id = new Map();
      for (var k = 0; k < s.keys.length; k++) s.id.set(s.keys[k], k);
    }
    var id = s.id.get(key);
    return id === undefined ? -1 : id;
  }

  // postings decodes the record of key k: [doc, w, doc, w, ...].
  function postings(s, k) {
    if (!s.post[k]) {
      var vs = readVarints(s.recs[k] || '0');
      var ps = [];
      var doc = 0;
      for (var j = 1; j + 1 < vs.length; j += 2) {
        doc += vs[j];
        ps.push(doc, vs[j + 1]);
      }
      s.idf[k] = vs[0];
      s.post[k] = ps;
    }
    return s.post[k];
  }

  // refs are the keys a term matches through: [shard, key, half].
  function refs(data, m, q) {
    var out = [];
    function exact(key) {
      var i = shardOf(m, key);
      if (i < 0) return;
      var k = keyID(shard(data, m, i), key);
      if (k >= 0) out.push([i, k, false]);
    }
    exact(q.t);
    if (q.x === 'contains') exact(q.t + CONTAINS);
    if (q.x === 'prefix') {
      prefixShards(m, q.t).forEach(function (i) {
        var s = shard(data, m, i);
        var lo = 0, hi = s.keys.length;
        while (lo < hi) {
          var mid = (lo + hi) >> 1;
          if (cmp(s.keys[mid], q.t) < 0) lo = mid + 1; else hi = mid;
        }
        for (var k = lo; k < s.keys.length && s.keys[k].startsWith(q.t); k++) {
          if (s.keys[k] !== q.t) out.push([i, k, true]);
        }
      });
    }
    return out;
  }

  // search ranks the pages of an index for a query, best first:
  // [{doc, matched, terms, score}], doc a page's number; null while a
  // shard the query needs (plan) is not there.
  function search(data, query) {
    var m = manifest(data);
    var pl = plan(data, query);
    for (var i = 0; i < pl.shards.length; i++) if (!shard(data, m, pl.shards[i])) return null;
    var terms = pl.terms;
    if (!terms.length) return [];
    var nd = m.pages.length;
    var matched = new Int32Array(nd);
    var score = new Float64Array(nd);
    var best = new Float64Array(nd);
    var hit = [];
    terms.forEach(function (q) {
      best.fill(-1);
      refs(data, m, q).forEach(function (ref) {
        var s = shard(data, m, ref[0]);
        var ps = postings(s, ref[1]);
        var idf = s.idf[ref[1]];
        for (var j = 0; j < ps.length; j += 2) {
          var d = ps[j], w = ps[j + 1];
          var v = idf > 0 ? idf * ((w >> 1) + TITLE_BONUS * (w & 1)) : w;
          if (ref[2]) v = Math.floor(v / 2);
          if (v > best[d]) {
            if (best[d] < 0 && !matched[d]) hit.push(d);
            best[d] = v;
          }
        }
      });
      for (var k = 0; k < hit.length; k++) {
        var d = hit[k];
        if (best[d] >= 0) { matched[d]++; score[d] += best[d]; best[d] = -1; }
      }
    });
    var need = (terms.length + 1) >> 1;
    var hits = [];
    hit.forEach(function (d) {
      if (matched[d] < need || matched[d] === 0) return;
      hits.push({ doc: d, matched: matched[d], terms: terms.length, score: score[d] });
    });
    hits.sort(function (a, b) {
      return (b.matched - a.matched) || (b.score - a.score) || (a.doc - b.doc);
    });
    return hits;
  }

  // matches tells a token the query matched: a term, a key the last
  // Latin word begins, a key holding a lone character.
  function matches(terms, tok) {
    for (var i = 0; i < terms.length; i++) {
      var q = terms[i];
      if (q.x === 'prefix' ? tok.startsWith(q.t) :
        q.x === 'contains' ? tok.startsWith(q.t) || tok.endsWith(q.t) : tok === q.t) return true;
    }
    return false;
  }

  // termOf is the number of the first query term that matches a token
  // (as matches), or -1.
  function termOf(terms, tok) {
    for (var i = 0; i < terms.length; i++) if (matches([terms[i]], tok)) return i;
    return -1;
  }

  var tokenized = new WeakMap();

  // textTokens tokenizes a fragment's text once: {rs, toks}.
  function textTokens(frag) {
    var t = tokenized.get(frag);
    if (!t) {
      var rs = Array.from(frag.text);
      t = { rs: rs, toks: tokenizeCps(rs) };
      tokenized.set(frag, t);
    }
    return t;
  }

  // cut cuts a window of text (rs, its tokens toks) around the densest
  // group of the tokens the query terms matched and marks them:
  // [[text, marked], ...].
  function cut(rs, toks, terms) {
    var spans = toks.filter(function (t) { return matches(terms, t.t); });
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
    // a matched word the window's edge falls in is shown whole, not its
    // first or last letters marked
    spans.forEach(function (sp) {
      if (sp.s < a && sp.e > a) a = sp.s;
      if (sp.s < e && sp.e > e) e = sp.e;
    });
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

  // snippet is cut over a text.
  function snippet(text, terms) {
    var rs = Array.from(text);
    return cut(rs, tokenizeCps(rs), terms);
  }

  // fragmentSnippet is the snippet of a page's fragment, its text
  // tokenized once for every query that shows it.
  function fragmentSnippet(frag, terms) {
    var t = textTokens(frag);
    return cut(t.rs, t.toks, terms);
  }

  var MAX_SECTIONS = 3;

  // marked marks the tokens the query terms matched over a whole short
  // text (a title, a heading): [[text, marked], ...].
  function marked(rs, toks, terms) {
    var out = [];
    var p = 0;
    function add(a, b, mark) {
      if (a >= b) return;
      var s = rs.slice(a, b).join('');
      var l = out[out.length - 1];
      if (l && l[1] === mark) l[0] += s; else out.push([s, mark]);
    }
    toks.forEach(function (t) {
      if (!matches(terms, t.t) || t.s < p) return;
      add(p, t.s, false);
      add(t.s, t.e, true);
      p = t.e;
    });
    add(p, rs.length, false);
    return out;
  }

  function markedText(s, terms) {
    var rs = Array.from(s);
    return marked(rs, tokenizeCps(rs), terms);
  }

  // sections ranks the sections of a page's fragment for the query
  // terms: those whose text (heading and body, up to the next heading;
  // the last one to the end of the prose) holds a matched token, those
  // with the most of the query's terms first, then those whose heading
  // matches most, then most matches, then in page order; at most MAX_SECTIONS: [{id, heading, snippet}], heading and
  // snippet as marked segments.
  function sections(frag, terms) {
    var sec = frag.sec || [];
    var t = textTokens(frag);
    // a last [offset] alone is where the prose ends, and the code begins
    var proseEnd = t.rs.length;
    if (sec.length && sec[sec.length - 1].length === 1) {
      proseEnd = sec[sec.length - 1][0];
      sec = sec.slice(0, -1);
    }
    if (!sec.length) return [];
    var stats = sec.map(function () { return { seen: new Set(), head: 0, count: 0 }; });
    var j = 0;
    // the tokens of the prose, from the first section on: they are in the
    // order of the text
    for (var k = firstToken(t.toks, sec[0][0]); k < t.toks.length && t.toks[k].s < proseEnd; k++) {
      var tok = t.toks[k];
      while (j + 1 < sec.length && tok.s >= sec[j + 1][0]) j++;
      if (tok.s < sec[j][0] || tok.e > proseEnd) continue;
      var q = termOf(terms, tok.t);
      if (q < 0) continue;
      stats[j].seen.add(q);
      stats[j].count++;
      if (tok.e <= sec[j][0] + sec[j][1]) stats[j].head++;
    }
    var order = [];
    stats.forEach(function (st, i) { if (st.count) order.push(i); });
    order.sort(function (a, b) {
      var x = stats[a], y = stats[b];
      return (y.seen.size - x.seen.size) || (y.head - x.head) || (y.count - x.count) || (a - b);
    });
    return order.slice(0, MAX_SECTIONS).map(function (i) {
      var off = sec[i][0], hEnd = off + sec[i][1];
      var end = i + 1 < sec.length ? sec[i + 1][0] : proseEnd;
      var hs = [], bs = [];
      var from = hEnd < end && t.rs[hEnd] === ' ' ? hEnd + 1 : hEnd;
      // the section's tokens only: they are in the order of the text
      for (var k = firstToken(t.toks, off); k < t.toks.length && t.toks[k].s < end; k++) {
        var tok = t.toks[k];
        if (tok.s >= off && tok.e <= hEnd) hs.push({ t: tok.t, s: tok.s - off, e: tok.e - off });
        else if (tok.s >= from && tok.e <= end) bs.push({ t: tok.t, s: tok.s - from, e: tok.e - from });
      }
      var body = t.rs.slice(from, end);
      while (body.length && body[body.length - 1] === ' ') body.pop();
      return {
        id: String(sec[i][2]),
        heading: marked(t.rs.slice(off, hEnd), hs, terms),
        snippet: body.length ? cut(body, bs, terms) : []
      };
    });
  }

  // firstToken is the index of the first of toks (in the order of the
  // text, by start) that starts at or after off.
  function firstToken(toks, off) {
    var lo = 0, hi = toks.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (toks[mid].s < off) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  // Where a language's shards and fragments are: the folder search-data
  // beside the manifest, whose URL is src (build/search DataDir).
  function dataURL(src, file) { return new URL('search-data/' + file, src).href; }
  function shardURL(src, m, i) { return dataURL(src, 's-' + m.shards[i] + '.js'); }
  function pageURL(src, m, d) { return dataURL(src, 'p-' + m.pages[d] + '.js'); }

  globalThis.kakehashiSearchEngine = {
    tokenize: tokenize, fold: fold, plan: plan, search: search, snippet: snippet,
    fragmentSnippet: fragmentSnippet, sections: sections, markedText: markedText, manifest: manifest, shardURL: shardURL, pageURL: pageURL
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
    var countText = box.getAttribute('data-count') || '%d';
    var status = box.querySelector('[role="status"]');
    var idPrefix = (list.id || 'search-results') + '-';
    var state = 'idle';
    var frame = 0; // the answer to the last keystroke, on the next frame
    var loadTimer = 0;
    // dismissed: the reader closed the list (Escape, leaving the box), which
    // what arrives later must not open again.
    var dismissed = false;
    var shown = ''; // the query and the pages the open list shows
    var selected = -1;
    var items = [];
    var scripts = new Map(); // URL → the promise of its script

    function index() {
      var reg = globalThis.kakehashiSearch;
      return reg && reg[lang];
    }

    // script inserts the script at url once; the promise settles when it
    // has run or failed.
    function script(url) {
      var p = scripts.get(url);
      if (!p) {
        p = new Promise(function (ok, fail) {
          var s = document.createElement('script');
          s.src = url;
          s.charset = 'utf-8';
          s.onload = ok;
          s.onerror = fail;
          document.head.appendChild(s);
        });
        scripts.set(url, p);
      }
      return p;
    }

    // style loads the panel's stylesheet (cfg.style) once, beside the
    // index: the panel is an overlay, so nothing moves when it arrives,
    // and the results wait for it. It never fails the search.
    var styled = null;
    function style() {
      if (!styled) {
        styled = new Promise(function (ok) {
          if (!sameSite(cfg.style)) { ok(); return; }
          var l = document.createElement('link');
          l.rel = 'stylesheet';
          l.href = new URL(cfg.style, location.href).href;
          l.onload = ok;
          l.onerror = ok;
          document.head.appendChild(l);
        });
      }
      return styled;
    }

    function load() {
      if (state !== 'idle') return;
      if (index()) { state = 'ready'; return; }
      if (!src) { state = 'failed'; return; }
      state = 'loading';
      Promise.all([script(src), style()]).then(function () {
        state = index() ? 'ready' : 'failed';
        if (!dismissed) run();
      }, function () { state = 'failed'; if (!dismissed) run(); });
    }

    // need loads the scripts at urls (those not loaded or loading yet once
    // the typing has paused), then answers query again if it is still the
    // box's and the list is wanted.
    function need(urls, query) {
      clearTimeout(loadTimer);
      function go() {
        Promise.all(urls.map(script)).then(function () {
          if (input.value === query && !dismissed) run();
        }, function () {
          if (input.value === query && !dismissed) render([], []);
        });
      }
      if (urls.every(function (u) { return scripts.has(u); })) go();
      else loadTimer = setTimeout(go, LOAD_DELAY);
    }

    // open shows the list under the box: on a phone the panel covers
    // the page below it (search.css), elsewhere it is kept in the window.
    // It is placed when it opens (and when the window changes size): an
    // open list's new results are laid out once, in their frame, not
    // measured for each keystroke (each measure a layout of the page).
    function open() {
      if (!list.hidden) return;
      place();
    }

    function place() {
      list.style.setProperty('--search-top', Math.max(0, input.getBoundingClientRect().bottom) + 'px');
      list.style.transform = '';
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
      var r = list.getBoundingClientRect();
      if (r.left < 16 && getComputedStyle(list).position === 'absolute') list.style.transform = 'translateX(' + Math.round(16 - r.left) + 'px)';
    }
    window.addEventListener('resize', function () { if (!list.hidden) place(); });

    function close() {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      selected = -1;
    }

    function clear() {
      if (rest) clearTimeout(rest.timer);
      rest = null;
      shown = '';
      list.textContent = '';
      items = [];
      selected = -1;
      input.removeAttribute('aria-activedescendant');
    }

    function text(s) { return document.createTextNode(s); }

    // segments appends marked segments to el as text and <mark> nodes.
    function segments(el, segs) {
      segs.forEach(function (seg) {
        if (seg[1]) {
          var mk = document.createElement('mark');
          mk.textContent = seg[0];
          el.appendChild(mk);
        } else {
          el.appendChild(text(seg[0]));
        }
      });
    }

    function span(cls, segs) {
      var el = document.createElement('span');
      el.className = cls;
      segments(el, segs);
      return el;
    }

    // option makes one result, the link being the option itself: an
    // option holding a link would nest one interactive control in
    // another.
    function option(href, cls) {
      var a = document.createElement('a');
      a.id = idPrefix + items.length;
      a.className = cls;
      a.setAttribute('role', 'option');
      a.setAttribute('aria-selected', 'false');
      a.href = href;
      a.tabIndex = -1;
      items.push(a);
      return a;
    }

    function announce(s) {
      if (status && status.textContent !== s) status.textContent = s;
    }

    // group makes the list item of hit h: the page, and under it up to
    // three of its sections that hold the query's terms, each linking to
    // its heading.
    function group(data, m, h, terms) {
      var frag = data.page[m.pages[h.doc]];
      var href = base + String(frag.url).replace(/^\/+/, '');
      var secs = sections(frag, terms);
      var li = document.createElement('li');
      li.setAttribute('role', 'none');
      li.className = 'search-group';
      var a = option(href, 'search-page');
      var title = span('search-title', markedText(String(frag.title), terms));
      if (frag.part > 0) {
        var no = document.createElement('span');
        no.className = 'part-no';
        no.textContent = '#' + frag.part;
        title.insertBefore(text(' '), title.firstChild);
        title.insertBefore(no, title.firstChild);
      }
      a.appendChild(title);
      // A page whose sections hold the terms shows them instead.
      if (!secs.length) {
        a.appendChild(text(' '));
        a.appendChild(span('snippet', fragmentSnippet(frag, terms)));
      }
      li.appendChild(a);
      if (secs.length) {
        var ul = document.createElement('ul');
        ul.setAttribute('role', 'none');
        ul.className = 'search-sections';
        secs.forEach(function (sec) {
          var sli = document.createElement('li');
          sli.setAttribute('role', 'none');
          var sa = option(href + '#' + encodeURIComponent(sec.id), 'search-section');
          sa.appendChild(span('search-heading', sec.heading));
          if (sec.snippet.length) {
            sa.appendChild(text(' '));
            sa.appendChild(span('snippet', sec.snippet));
          }
          sli.appendChild(sa);
          ul.appendChild(sli);
        });
        li.appendChild(ul);
      }
      return li;
    }

    // rest holds the groups render left for after the paint, and flush
    // adds them now: before the keys that move through the options.
    var rest = null;
    function flush() {
      if (!rest) return;
      var r = rest;
      rest = null;
      clearTimeout(r.timer);
      var groups = document.createDocumentFragment();
      r.hits.forEach(function (h) { groups.appendChild(group(r.data, r.m, h, r.terms)); });
      list.appendChild(groups);
    }

    // render shows hits, whose fragments are all there. The results that
    // fill the open panel (FIRST_OPTIONS) are made in the keystroke's
    // event, so that the paint after it shows them; the others, below the
    // panel's fold, are added once that paint is done (or when a key moves
    // to them first), and not at all when another keystroke comes first.
    function render(hits, terms) {
      clear();
      if (!hits.length) {
        var li = document.createElement('li');
        li.className = 'search-empty';
        li.setAttribute('role', 'option');
        li.setAttribute('aria-disabled', 'true');
        li.textContent = emptyText;
        list.appendChild(li);
        open();
        announce(emptyText);
        return;
      }
      var data = index();
      var m = manifest(data);
      var groups = document.createDocumentFragment();
      var n = 0;
      while (n < hits.length && items.length < FIRST_OPTIONS) groups.appendChild(group(data, m, hits[n++], terms));
      list.appendChild(groups);
      if (n < hits.length) {
        var r = rest = { data: data, m: m, hits: hits.slice(n), terms: terms, timer: 0 };
        requestAnimationFrame(function () {
          // a task queued in the frame runs after its paint
          if (rest === r) r.timer = setTimeout(flush, 0);
        });
      }
      open();
      announce(countText.replace('%d', String(hits.length)));
    }

    // run answers the box's query: with the shards it needs, it ranks;
    // with the fragments of the results it shows, it shows them. What is
    // missing it loads, and answers again when it is there.
    function run() {
      cancelAnimationFrame(frame);
      dismissed = false;
      var query = input.value;
      if (!query.trim()) { clear(); close(); return; }
      if (state === 'idle') load();
      if (state === 'loading') return;
      if (state === 'failed') { render([], []); return; }
      var data = index();
      var m, pl, hits;
      try {
        m = manifest(data);
        pl = plan(data, query);
      } catch (e) {
        state = 'failed';
        render([], []);
        return;
      }
      var missing = pl.shards.filter(function (i) { return !shard(data, m, i); });
      if (missing.length) {
        need(missing.map(function (i) { return shardURL(src, m, i); }), query);
        return;
      }
      hits = search(data, query).slice(0, MAX_RESULTS);
      var pages = hits.filter(function (h) { return !data.page[m.pages[h.doc]]; });
      if (pages.length) {
        need(pages.map(function (h) { return pageURL(src, m, h.doc); }), query);
        return;
      }
      // The list as it is shows these already (and keeps its selection).
      var now = query + '\n' + hits.map(function (h) { return h.doc; }).join(' ');
      if (now === shown && !list.hidden) return;
      render(hits, pl.terms);
      shown = now;
    }

    function move(delta) {
      flush();
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
    // The box answers a keystroke at once, and the keys that follow it in
    // the same frame (a paste, an input method's burst) once, on the next
    // frame: one query a frame, and a key typed alone waits for none.
    var ranThisFrame = false;
    input.addEventListener('input', function () {
      cancelAnimationFrame(frame);
      clearTimeout(loadTimer);
      if (ranThisFrame) { frame = requestAnimationFrame(run); return; }
      ranThisFrame = true;
      requestAnimationFrame(function () { ranThisFrame = false; });
      run();
    });
    function unselect() {
      if (selected >= 0) items[selected].setAttribute('aria-selected', 'false');
      selected = -1;
      input.removeAttribute('aria-activedescendant');
    }

    // The keys of the APG's combobox with a listbox popup: the options
    // have visual focus (aria-activedescendant), the box keeps DOM focus.
    input.addEventListener('keydown', function (ev) {
      switch (ev.key) {
        case 'ArrowDown':
        case 'ArrowUp':
          ev.preventDefault();
          if (ev.altKey) {
            if (ev.key === 'ArrowUp') { close(); dismissed = true; } else if (list.hidden) run();
            break;
          }
          if (list.hidden) run();
          move(ev.key === 'ArrowDown' ? 1 : -1);
          break;
        case 'Home':
        case 'End':
          // the caret moves in the box, which takes the focus back
          unselect();
          break;
        case 'Enter':
          if (list.hidden || !items.length) { if (input.value.trim()) run(); ev.preventDefault(); break; }
          ev.preventDefault();
          go(items[selected >= 0 ? selected : 0]);
          break;
        case 'Escape':
          if (!list.hidden) { ev.preventDefault(); close(); } else if (input.value) { ev.preventDefault(); input.value = ''; clear(); }
          dismissed = true;
          break;
      }
    });
    // go follows a result; one on this page only moves to its heading.
    function go(a) {
      var here = location.href.replace(/#.*$/, '');
      if (a.href.replace(/#.*$/, '') === here && a.hash) {
        close();
        dismissed = true;
      }
      window.location.assign(a.href);
    }
    list.addEventListener('click', function (ev) {
      var a = ev.target.closest && ev.target.closest('a[role="option"]');
      if (a && a.hash && a.href.replace(/#.*$/, '') === location.href.replace(/#.*$/, '')) { close(); dismissed = true; }
    });
    box.addEventListener('focusout', function (ev) {
      if (!ev.relatedTarget || !box.contains(ev.relatedTarget)) { close(); dismissed = true; }
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
