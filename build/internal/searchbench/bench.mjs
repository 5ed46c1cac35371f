// Measures kakehashi's search against Pagefind on the same built site, in
// headless Chromium: recall in the top 5 over the queries in queries.json,
// the bytes each tool transfers per query, cold (a fresh browser context
// per query, so no cache hides the first query's cost) and warm (later
// queries in the same page), split by what they are (engine, manifest or
// metadata, index shards or chunks, result fragments), and the time from a
// keystroke to the answer with the CPU throttled 4× (Chromium's CDP
// Emulation.setCPUThrottlingRate), once what the query needs is loaded.
//
// Usage (make search-bench does all of this):
//   go run ./cmd/kakehashi build -q -d .bench/search-site
//   (cd build/internal/searchbench && npm ci)
//   node build/internal/searchbench/bench.mjs --site .bench/search-site [--out docs/search-bench.md]
//
// Flags: --site DIR (built site, required; it is copied, never changed),
// --out FILE (write the markdown report), --queries FILE (default
// queries.json beside this script), --notes FILE (markdown appended to the
// report; default notes.md beside this script), --chromium PATH (default
// $CHROMIUM or /usr/bin/chromium).
//
// Pagefind indexes the copy with its CLI (--root-selector main) and is
// queried through its browser API: import /pagefind/pagefind.js, await
// pagefind.search(q), await data() of the top 5. kakehashi is queried
// through the real search box: type into #q on a page of the query's
// language and read the result links (the box loads the manifest, then the
// shards the query needs, then the fragments of the results it shows). Both run on the same tiny static
// server on 127.0.0.1, which gzips text (HTML, JS, CSS, JSON) the way
// common static hosts do; Pagefind's own index files are already gzipped
// and go out as they are.
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, totalmem, release, platform, arch } from 'node:os';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');

function parseArgs(argv) {
  const opts = {
    site: '',
    out: '',
    queries: join(here, 'queries.json'),
    notes: join(here, 'notes.md'),
    chromium: process.env.CHROMIUM || '/usr/bin/chromium',
    scale: [],
    latencyOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    // --latency-only times kakehashi's box alone, each query printed, and
    // writes no report: for working on the box.
    if (argv[i] === '--latency-only') {
      opts.latencyOnly = true;
      continue;
    }
    const m = /^--(site|out|queries|notes|chromium|scale)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unknown argument ${argv[i]}`);
    const v = m[2] !== undefined ? m[2] : argv[++i];
    if (v === undefined) throw new Error(`--${m[1]} needs a value`);
    if (m[1] === 'scale') {
      const sm = /^(\d+)=(.+)$/.exec(v);
      if (!sm) throw new Error(`--scale ${v}: want PARTS=DIR`);
      opts.scale.push({ parts: Number(sm[1]), dir: sm[2] });
      continue;
    }
    opts[m[1]] = v;
  }
  if (!opts.site) throw new Error('usage: node bench.mjs --site DIR [--scale PARTS=DIR]... [--out FILE] [--queries FILE] [--notes FILE] [--chromium PATH]');
  return opts;
}

// ---- the site and the Pagefind index ----

function pagefindBin() {
  const bin = join(here, 'node_modules', '.bin', 'pagefind');
  if (!existsSync(bin)) throw new Error(`${bin} not found: run npm ci in ${here}`);
  return bin;
}

function runPagefind(site) {
  execFileSync(pagefindBin(), ['--site', site, '--root-selector', 'main'], { encoding: 'utf8' });
  const entry = JSON.parse(readFileSync(join(site, 'pagefind', 'pagefind-entry.json'), 'utf8'));
  const pages = {};
  for (const [lang, l] of Object.entries(entry.languages).sort()) pages[lang] = l.page_count;
  return pages;
}

function pagefindVersion() {
  const pkg = JSON.parse(readFileSync(join(here, 'node_modules', 'pagefind', 'package.json'), 'utf8'));
  return pkg.version;
}

function listFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
}

// ---- the static server ----

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.xml', '.txt']);

// serve answers GET requests for files under dir on 127.0.0.1 and logs
// every response's body size as sent (after compression).
function serve(dir) {
  const log = [];
  const cache = new Map();
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = resolve(dir, '.' + path);
    if (file !== dir && !file.startsWith(dir + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end();
      log.push({ path, bytes: 0, status: 404 });
      return;
    }
    const ext = extname(file);
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] || '');
    const key = file + (gzip ? '\0gz' : '');
    let body = cache.get(key);
    if (!body) {
      body = readFileSync(file);
      if (gzip) body = gzipSync(body, { level: 9 });
      cache.set(key, body);
    }
    const headers = {
      'Content-Type': TYPES[ext] || 'application/octet-stream',
      'Content-Length': body.length,
      'Cache-Control': 'max-age=600',
    };
    if (gzip) headers['Content-Encoding'] = 'gzip';
    res.writeHead(200, headers);
    res.end(body);
    log.push({ path, bytes: body.length, status: 200 });
  });
  return new Promise((ok) => {
    server.listen(0, '127.0.0.1', () => ok({ server, log, origin: `http://127.0.0.1:${server.address().port}` }));
  });
}

// ---- Chromium ----

async function launch(exe) {
  const profile = mkdtempSync(join(tmpdir(), 'search-bench-profile-'));
  const args = [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank',
  ];
  const proc = spawn(exe, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const endpoint = await new Promise((ok, fail) => {
    proc.on('exit', (code) => fail(new Error(`chromium exited (${code}): ${stderr.slice(-500)}`)));
    const timer = setInterval(() => {
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (m) {
        clearInterval(timer);
        ok(m[1]);
      }
    }, 50);
  });
  const browser = await chromium.connectOverCDP(endpoint);
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => {});
      proc.kill();
      await new Promise((ok) => (proc.exitCode !== null ? ok() : proc.on('exit', ok)));
      // Chromium's helpers may still be closing files in the profile.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

// newPage opens a page in a fresh browser context (its own, empty HTTP
// cache) and notes the path of every request the context finishes,
// including those of Pagefind's worker.
async function newPage(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const done = [];
  const note = (r) => done.push(new URL(r.url()).pathname);
  context.on('requestfinished', note);
  context.on('requestfailed', note);
  return { context, page, done };
}

// ---- the two tools ----

const isPagefind = (p) => p.startsWith('/pagefind/');
// kakehashi's engine is its script and the results panel's stylesheet,
// which the box loads with the index.
const isEngine = (p) => /^\/js\/search(\.[0-9a-f]+)?\.js$/.test(p) || /^\/css\/search(\.[0-9a-f]+)?\.css$/.test(p);
const isOurs = (lang) => (p) => isEngine(p) || p === `/${lang}/search-index.js` || p.startsWith(`/${lang}/search-data/`);

// KINDS are what a tool's files are, in the order the report lists them.
const KINDS = ['engine', 'manifest', 'shards', 'fragments'];

// kindOf says what a file of a tool is: its engine (kakehashi's
// search.js; Pagefind's script, worker, WebAssembly and entry), its
// manifest (kakehashi's search-index.js; Pagefind's metadata), its index
// shards (Pagefind's index chunks) or a result's fragment.
function kindOf(tool, p) {
  if (tool === 'kakehashi') {
    if (isEngine(p)) return 'engine';
    if (p.endsWith('/search-index.js')) return 'manifest';
    return /\/search-data\/s-/.test(p) ? 'shards' : 'fragments';
  }
  if (p.endsWith('.pf_meta')) return 'manifest';
  if (p.includes('/index/')) return 'shards';
  if (p.includes('/fragment/')) return 'fragments';
  return 'engine';
}

// byKind sums the bytes of sent by kindOf.
function byKind(tool, sent) {
  const out = Object.fromEntries(KINDS.map((k) => [k, 0]));
  for (const r of sent) out[kindOf(tool, r.path)] += r.bytes;
  return out;
}

async function queryPagefind(page, q) {
  return page.evaluate(async (q) => {
    const pf = await import('/pagefind/pagefind.js');
    const r = await pf.search(q);
    const data = await Promise.all(r.results.slice(0, 5).map((x) => x.data()));
    return { total: r.results.length, urls: data.map((d) => d.url) };
  }, q);
}

async function queryOurs(page, q) {
  const input = page.locator('#q');
  if (await input.inputValue()) {
    await input.fill('');
    await page.waitForFunction(() => document.getElementById('search-results').hidden);
  }
  await input.fill(q);
  await page.waitForFunction(
    (q) => {
      const i = document.getElementById('q');
      const l = document.getElementById('search-results');
      return i.value === q && !l.hidden && l.children.length > 0;
    },
    q,
  );
  return page.evaluate(() => {
    const as = [...document.querySelectorAll('#search-results > li > a')];
    return { total: as.length, urls: as.slice(0, 5).map((a) => new URL(a.href).pathname) };
  });
}

// settle waits until the browser has finished every request the server
// answered since the context opened (log index start), then returns the
// responses sent since from: the bytes of one query are never counted in
// the next.
async function settle(page, done, log, start, from, filter) {
  const sent = (i) => log.slice(i).filter((r) => filter(r.path));
  for (let i = 0; i < 250 && done.filter(filter).length < sent(start).length; i++) {
    await page.waitForTimeout(20);
  }
  return sent(from);
}

// ---- measuring ----

function recall(expect, urls) {
  const top = new Set(urls.slice(0, 5));
  return expect.filter((u) => top.has(u)).length / expect.length;
}

// isPart tells a course part's URL (/ja/cka/05-ha-cluster/) from the home,
// series, root and 404 pages.
const isPart = (url) => /^\/(ja|ko)\/[^/]+\/\d+-[^/]*\/$/.test(url);

// extra counts the parts in the top 5 that were not expected: parts whose
// text does not hold the query at all.
function extra(expect, urls) {
  return urls.slice(0, 5).filter((u) => isPart(u) && !expect.includes(u)).length;
}

// measure runs the queries through both tools: cold (a fresh context per
// query) for the rows cold selects, then warm (all queries of a language
// in one page) for every row.
async function measure(browser, origin, log, queries, cold) {
  const tools = [
    { name: 'kakehashi', filter: isOurs, run: queryOurs },
    { name: 'pagefind', filter: () => isPagefind, run: queryPagefind },
  ];
  const sum = (rs) => rs.reduce((s, x) => s + x.bytes, 0);
  const rows = queries.map((q) => ({ ...q, res: { kakehashi: {}, pagefind: {} } }));
  // cold: a fresh context (empty cache) per query and tool
  for (const [i, row] of rows.entries()) {
    if (!cold(row, i)) continue;
    for (const tool of tools) {
      const filter = tool.filter(row.lang);
      const { context, page, done } = await newPage(browser);
      const from = log.length;
      await page.goto(`${origin}/${row.lang}/`, { waitUntil: 'load' });
      const r = await tool.run(page, row.q);
      const sent = await settle(page, done, log, from, from, filter);
      row.res[tool.name] = {
        urls: r.urls,
        total: r.total,
        recall: recall(row.expect, r.urls),
        extra: extra(row.expect, r.urls),
        cold: sum(sent),
        coldKinds: byKind(tool.name, sent),
        files: sent.length,
      };
      await context.close();
    }
  }
  // warm: every query of a language in turn in one page
  for (const lang of ['ja', 'ko']) {
    for (const tool of tools) {
      const filter = tool.filter(lang);
      const { context, page, done } = await newPage(browser);
      const start = log.length;
      await page.goto(`${origin}/${lang}/`, { waitUntil: 'load' });
      for (const [i, row] of rows.filter((r) => r.lang === lang).entries()) {
        // the first query counts the page's load of the engine too
        const from = i === 0 ? start : log.length;
        const r = await tool.run(page, row.q);
        const sent = await settle(page, done, log, start, from, filter);
        row.res[tool.name].warmSeq = sum(sent);
        row.res[tool.name].warmSent = sent;
        row.res[tool.name].warmUrls = r.urls;
        if (row.res[tool.name].urls && r.urls.join(' ') !== row.res[tool.name].urls.join(' ')) {
          console.warn(`warning: ${tool.name} ${lang} ${JSON.stringify(row.q)}: warm results differ from cold`);
        }
      }
      await context.close();
    }
  }
  return rows;
}

// ---- keystroke latency ----

// THROTTLE is the CPU slowdown the latency runs under, as Chromium's
// performance panel offers for a mid-range phone.
const THROTTLE = 4;

// waitIdle waits until the server has sent nothing for 200 ms.
async function waitIdle(page, log) {
  let n = -1;
  for (let i = 0; i < 100 && n !== log.length; i++) {
    n = log.length;
    await page.waitForTimeout(200);
  }
}

// latencyOurs types q into the box and, once what it needs is loaded,
// takes its last character away and types it again: the box's answer
// time (its debounce, ranking, snippets and rendering) runs from that
// keystroke's input event to the paint that shows the changed list: the
// later of the event's next paint (Event Timing's duration, as the
// browser's own interaction-to-next-paint counts it: a list changed in
// the event's handler is shown by that paint) and the next frame after
// the list changed (a list changed in a later frame).
async function latencyOurs(page, log, q) {
  const input = page.locator('#q');
  const cps = Array.from(q);
  await input.fill(q);
  await waitIdle(page, log);
  await input.fill(cps.slice(0, -1).join(''));
  await waitIdle(page, log);
  await page.evaluate((q) => {
    window.__lat = new Promise((ok) => {
      const input = document.getElementById('q');
      const list = document.getElementById('search-results');
      let t0 = 0;
      input.addEventListener('input', (e) => { t0 = e.timeStamp; }, { once: true, capture: true });
      const obs = new MutationObserver(() => {
        if (!t0 || input.value !== q || list.hidden || !list.children.length) return;
        obs.disconnect();
        requestAnimationFrame(() => ok(performance.now() - t0));
      });
      obs.observe(list, { childList: true, subtree: true, attributes: true });
    });
    // Event Timing reports an event that took 16 ms or more to its paint.
    window.__paint = new Promise((ok) => {
      const po = new PerformanceObserver((l) => {
        for (const e of l.getEntries()) {
          if (e.name === 'input') {
            po.disconnect();
            ok(e.duration);
          }
        }
      });
      po.observe({ type: 'event', durationThreshold: 16 });
      setTimeout(() => { po.disconnect(); ok(0); }, 3000);
    });
  }, q);
  await page.keyboard.insertText(cps[cps.length - 1]);
  return page.evaluate(async () => Math.max(await window.__lat, await window.__paint));
}

// latencyPagefind times Pagefind's API for q after a search for q less
// its last character, both loaded: search and the data of the top 5, no
// UI (a lower bound for a search box on it).
async function latencyPagefind(page, log, q) {
  const cps = Array.from(q);
  return page.evaluate(async ([q, prefix]) => {
    const pf = await import('/pagefind/pagefind.js');
    const run = async (x) => {
      const r = await pf.search(x);
      if (r) await Promise.all(r.results.slice(0, 5).map((y) => y.data()));
    };
    await run(q);
    if (prefix) await run(prefix);
    const t0 = performance.now();
    await run(q);
    return performance.now() - t0;
  }, [q, cps.slice(0, -1).join('')]);
}

// measureLatency runs the first TEN queries of each language through
// both tools in one page each, the CPU throttled THROTTLE×.
async function measureLatency(browser, origin, log, queries, oursOnly) {
  const out = {};
  for (const lang of ['ja', 'ko']) {
    out[lang] = {};
    const qs = queries.filter((q) => q.lang === lang).slice(0, TEN).map((q) => q.q);
    const tools = [['kakehashi', latencyOurs], ['pagefind', latencyPagefind]];
    for (const [name, run] of oursOnly ? tools.slice(0, 1) : tools) {
      const { context, page } = await newPage(browser);
      await page.goto(`${origin}/${lang}/`, { waitUntil: 'load' });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
      const ms = [];
      for (const q of qs) ms.push(await run(page, log, q));
      await context.close();
      const each = qs.map((q, i) => `${q} ${msec(ms[i])}`);
      ms.sort((a, b) => a - b);
      out[lang][name] = { median: ms[Math.floor(ms.length / 2)], max: ms[ms.length - 1], n: ms.length, each };
    }
  }
  return out;
}

// ---- report ----

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const kb = (n) => (n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

function label(url) {
  const m = /^\/(ja|ko)\/[^/]+\/(\d+)-[^/]*\/$/.exec(url);
  if (m) return `#${Number(m[2])}`;
  if (/^\/(ja|ko)\/$/.test(url)) return 'home';
  if (/^\/(ja|ko)\/[^/]+\/$/.test(url)) return 'series';
  if (url === '/') return 'root';
  return url;
}

function summarize(rows) {
  const sets = [
    ['ja queries (ja pages)', (r) => r.group === 'ja'],
    ['ko queries (ko pages)', (r) => r.group === 'ko'],
    ['technical on ja pages', (r) => r.group === 'tech' && r.lang === 'ja'],
    ['technical on ko pages', (r) => r.group === 'tech' && r.lang === 'ko'],
    ['Japanese pages, all', (r) => r.lang === 'ja'],
    ['Korean pages, all', (r) => r.lang === 'ko'],
    ['overall', () => true],
  ];
  return sets.map(([name, f]) => {
    const rs = rows.filter(f);
    return {
      name,
      n: rs.length,
      ours: mean(rs.map((r) => r.res.kakehashi.recall)),
      pf: mean(rs.map((r) => r.res.pagefind.recall)),
      oursExtra: rs.reduce((a, r) => a + r.res.kakehashi.extra, 0),
      pfExtra: rs.reduce((a, r) => a + r.res.pagefind.extra, 0),
    };
  });
}

// TEN is how many queries "ten queries in one page" sums.
const TEN = 10;

function bytesSummary(rows) {
  const out = [];
  for (const lang of ['ja', 'ko']) {
    const rs = rows.filter((r) => r.lang === lang);
    const line = { lang };
    for (const t of ['kakehashi', 'pagefind']) {
      const cold = rs.filter((r) => r.res[t].cold !== undefined).map((r) => r.res[t].cold);
      const warm = rs.slice(1).map((r) => r.res[t].warmSeq);
      const kinds = (list) => {
        const k = Object.fromEntries(KINDS.map((x) => [x, 0]));
        for (const r of list) for (const [x, n] of Object.entries(byKind(t, r.res[t].warmSent))) k[x] += n;
        return k;
      };
      line[t] = {
        coldMean: mean(cold),
        coldMax: Math.max(...cold),
        coldN: cold.length,
        firstInPage: rs[0].res[t].warmSeq,
        firstKinds: kinds(rs.slice(0, 1)),
        ten: rs.slice(0, TEN).reduce((s, r) => s + r.res[t].warmSeq, 0),
        tenKinds: kinds(rs.slice(0, TEN)),
        tenN: Math.min(TEN, rs.length),
        warmMean: mean(warm),
        warmMax: Math.max(...warm),
        sessionTotal: rs.reduce((s, r) => s + r.res[t].warmSeq, 0),
        n: rs.length,
      };
    }
    out.push(line);
  }
  return out;
}

function diskSizes(site) {
  const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
  const size = (f) => statSync(f).size;
  const pf = join(site, 'pagefind');
  const all = listFiles(pf).map((f) => f.slice(pf.length + 1));
  // files sums a list of files: their number, bytes, gzipped bytes and
  // the largest
  const files = (fs) => ({
    n: fs.length,
    bytes: fs.reduce((s, f) => s + size(f), 0),
    gz: fs.reduce((s, f) => s + gz(f), 0),
    max: fs.reduce((m, f) => Math.max(m, size(f)), 0),
  });
  const out = [];
  for (const lang of ['ja', 'ko']) {
    const ours = join(site, lang, 'search-index.js');
    const data = join(site, lang, 'search-data');
    const dataFiles = existsSync(data) ? readdirSync(data).map((f) => join(data, f)) : [];
    const pfFiles = all.filter((f) => {
      const b = f.split('/').pop();
      return b.startsWith(`${lang}_`) || b.startsWith(`pagefind.${lang}_`);
    });
    const shards = files(dataFiles.filter((f) => /\/s-[^/]*$/.test(f)));
    const fragments = files(dataFiles.filter((f) => /\/p-[^/]*$/.test(f)));
    out.push({
      lang,
      ours: size(ours),
      oursGz: gz(ours),
      shards,
      fragments,
      oursAll: size(ours) + shards.bytes + fragments.bytes,
      pfIndex: pfFiles.filter((f) => f.startsWith('index/')).reduce((s, f) => s + size(join(pf, f)), 0),
      pfFragments: pfFiles.filter((f) => f.startsWith('fragment/')).reduce((s, f) => s + size(join(pf, f)), 0),
      pfFragmentN: pfFiles.filter((f) => f.startsWith('fragment/')).length,
      pfMeta: pfFiles.filter((f) => f.endsWith('.pf_meta')).reduce((s, f) => s + size(join(pf, f)), 0),
      pfChunks: pfFiles.filter((f) => f.startsWith('index/')).length,
    });
  }
  const engineFile = join(site, 'js', readdirSync(join(site, 'js')).find((f) => /^search(\.[0-9a-f]+)?\.js$/.test(f)));
  const engine = {
    ours: size(engineFile),
    oursGz: gz(engineFile),
    pfJs: size(join(pf, 'pagefind.js')),
    pfJsGz: gz(join(pf, 'pagefind.js')),
    pfWorker: size(join(pf, 'pagefind-worker.js')),
    pfWorkerGz: gz(join(pf, 'pagefind-worker.js')),
    pfWasm: all.filter((f) => f.startsWith('wasm.')).reduce((s, f) => s + size(join(pf, f)), 0),
  };
  return { perLang: out, engine };
}

function table(head, rows) {
  const numeric = (c) => /^[\d.]+( ?(KiB|B|%))?( \(.*\))?$/.test(String(c));
  const align = head.map((_, i) => (rows.length && rows.every((r) => numeric(r[i])) ? '---:' : '---'));
  const lines = [`| ${head.join(' | ')} |`, `| ${align.join(' | ')} |`];
  for (const r of rows) lines.push(`| ${r.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`);
  return lines.join('\n');
}

const toolName = (t) => (t === 'pagefind' ? 'Pagefind' : t);
const msec = (x) => `${Math.round(x)} ms`;

// kinds writes a breakdown by kind: engine + manifest + shards + fragments.
const kinds = (k) => KINDS.map((x) => kb(k[x])).join(' + ');

// whereRows are the rows of a "where the bytes go" table of a bytes summary.
function whereRows(bytes) {
  return bytes.flatMap((b) => ['kakehashi', 'pagefind'].map((t) => [
    b.lang, toolName(t), `${kb(b[t].firstInPage)} = ${kinds(b[t].firstKinds)}`, `${kb(b[t].ten)} = ${kinds(b[t].tenKinds)}`,
  ]));
}

// diskRows are the rows of the table of files on disk.
function diskRows(disk) {
  const [ja, ko] = disk.perLang;
  const both = (f) => [f(ja), f(ko)];
  return [
    ['kakehashi manifest (search-index.js)', ...both((d) => `${kb(d.ours)} (${kb(d.oursGz)})`)],
    ['kakehashi shards', ...both((d) => `${kb(d.shards.bytes)} (${kb(d.shards.gz)}) in ${d.shards.n}, largest ${kb(d.shards.max)}`)],
    ['kakehashi fragments (all pages)', ...both((d) => `${kb(d.fragments.bytes)} (${kb(d.fragments.gz)}) in ${d.fragments.n}`)],
    ['Pagefind index chunks', ...both((d) => `${kb(d.pfIndex)} in ${d.pfChunks}`)],
    ['Pagefind fragments (all pages)', ...both((d) => `${kb(d.pfFragments)} in ${d.pfFragmentN}`)],
    ['Pagefind metadata', ...both((d) => kb(d.pfMeta))],
  ];
}

function report(env, rows, disk, scale) {
  const sum = summarize(rows);
  const bytes = bytesSummary(rows);
  const get = (name) => sum.find((s) => s.name === name);
  const ja = get('Japanese pages, all');
  const ko = get('Korean pages, all');
  const jaOnly = get('ja queries (ja pages)');
  const koOnly = get('ko queries (ko pages)');
  const verdict = (ok) => (ok ? 'met' : '**not met**');
  const md = [];
  md.push('# Search: kakehashi against Pagefind');
  md.push('');
  md.push('Generated by `make search-bench` (`build/internal/searchbench/bench.mjs`); do not edit by hand. ' +
    'The queries and the parts they should find are in `build/internal/searchbench/queries.json` ' +
    '(checked against the course by `go test ./build/search`).');
  md.push('');
  md.push(`- Date: ${env.date}`);
  md.push(`- Machine: ${env.cpu}, ${env.cores} cores, ${env.mem} GiB RAM, ${env.os}`);
  md.push(`- Node ${env.node}, Pagefind ${env.pagefind} (npm \`pagefind\`, extended binary), ${env.chromium}`);
  md.push(`- kakehashi ${env.commit}; site: the bundled CKA course (parts #2 and #5 in ja and ko, plus home and series pages)`);
  md.push(`- Pages indexed: kakehashi ${env.oursDocs}; Pagefind ${env.pfPages} (Pagefind also indexes the root language chooser and 404.html, both \`lang="ja"\`)`);
  md.push('');
  md.push('## How');
  md.push('');
  md.push('The site is built once (`kakehashi build`) and copied; Pagefind indexes the copy with ' +
    '`pagefind --site DIR --root-selector main` (it finds the language in `<html lang>`). A small Node ' +
    'server serves the copy on 127.0.0.1 and gzips HTML, JS, CSS and JSON as common static hosts do ' +
    '(Pagefind\'s index files are gzipped by Pagefind and are sent as they are). Headless Chromium runs each ' +
    'query on the home page of the query\'s language:');
  md.push('');
  md.push('- **kakehashi**: the real search box: `fill` `#q` (focus loads the manifest `/<lang>/search-index.js` as a script; the query then loads the shards its terms fall in and the fragments of the results the box shows, up to 10, from `/<lang>/search-data/`), wait for the result list, take the first 5 result links.');
  md.push('- **Pagefind**: its browser API: `import(\'/pagefind/pagefind.js\')`, `await pagefind.search(q)`, `await r.data()` of the first 5 results.');
  md.push('');
  md.push('Recall@5 of a query is the share of its expected parts among the first 5 results; a group\'s recall is the mean over its queries. ' +
    'Bytes are the response bodies the server sent for the search, as encoded on the wire (gzip where the server compresses; HTTP headers left out): ' +
    'for kakehashi `/js/search.<hash>.js` and `/css/search.<hash>.css`, `/<lang>/search-index.js` and `/<lang>/search-data/` (engine and the results panel\'s styles, manifest, shards, fragments), for Pagefind everything under `/pagefind/` (script, worker, WebAssembly, entry, metadata, index chunks, result fragments). ' +
    '**Cold** is a fresh browser context (empty cache) per query; **warm** is the next queries typed in the same page.');
  md.push('');
  md.push('## Recall in the top 5');
  md.push('');
  md.push(table(['queries', 'n', 'kakehashi recall@5', 'Pagefind recall@5', 'kakehashi: parts without the query in the top 5', 'Pagefind: same'],
    sum.map((s) => [s.name, s.n, pct(s.ours), pct(s.pf), s.oursExtra, s.pfExtra])));
  md.push('');
  md.push('The last two columns count results that are course parts not expected for the query (their text does not hold it): recall says what each tool finds, these say what else it shows.');
  md.push('');
  md.push('## Bytes per query');
  md.push('');
  md.push(table(
    ['pages', 'tool', 'cold query, mean', 'cold query, max', 'first query in a page', `${TEN} queries in one page`, 'each later query, mean', 'later query, max', 'all queries in one page'],
    bytes.flatMap((b) => ['kakehashi', 'pagefind'].map((t) => [
      b.lang, toolName(t), kb(Math.round(b[t].coldMean)), kb(b[t].coldMax), kb(b[t].firstInPage), kb(b[t].ten),
      kb(Math.round(b[t].warmMean)), kb(b[t].warmMax), `${kb(b[t].sessionTotal)} (${b[t].n} queries)`,
    ])),
  ));
  md.push('');
  md.push('"First query in a page" and "' + TEN + ' queries in one page" count each tool\'s engine too: kakehashi\'s `search.js`, which the page loads with the header, and Pagefind\'s script, worker, WebAssembly and entry, which its first search loads.');
  md.push('');
  md.push('Where the bytes of the first query and of the ' + TEN + ' queries go (engine + manifest or metadata + index shards or chunks + result fragments, on the wire):');
  md.push('');
  md.push(table(['pages', 'tool', 'first query', `${TEN} queries`], whereRows(bytes)));
  md.push('');
  md.push('Files on disk, uncompressed (gzip -9 in brackets for text):');
  md.push('');
  md.push(table(['what', 'ja', 'ko'], diskRows(disk)));
  md.push('');
  md.push(`Engines: kakehashi \`search.js\` ${kb(disk.engine.ours)} (${kb(disk.engine.oursGz)}), with the search box; ` +
    `Pagefind \`pagefind.js\` ${kb(disk.engine.pfJs)} (${kb(disk.engine.pfJsGz)}) + \`pagefind-worker.js\` ${kb(disk.engine.pfWorker)} (${kb(disk.engine.pfWorkerGz)}) + WebAssembly ${kb(disk.engine.pfWasm)}, without a UI.`);
  md.push('');
  if (scale.length) {
    md.push('## Bytes as the course grows');
    md.push('');
    md.push('The same queries on sites of N generated parts per language (`go run ./build/internal/cmd/corpus -n N DIR`, parts made from the course by `build/internal/corpus`), ' +
      'built and indexed the same way. Recall is not measured here (the generated parts have no expectations); cold bytes are over every third query.');
    md.push('');
    const lines = [];
    const add = (parts, b, d) => {
      for (const [i, lb] of b.entries()) {
        const dl = d.perLang[i];
        for (const t of ['kakehashi', 'pagefind']) {
          lines.push([
            parts, lb.lang, toolName(t),
            t === 'pagefind' ? `${kb(dl.pfIndex)} in ${dl.pfChunks} chunk${dl.pfChunks === 1 ? '' : 's'} + ${kb(dl.pfFragments)} in ${dl.pfFragmentN} fragments` :
              `${kb(dl.ours)} manifest + ${kb(dl.shards.bytes)} in ${dl.shards.n} shards + ${kb(dl.fragments.bytes)} in ${dl.fragments.n} fragments`,
            kb(lb[t].firstInPage), kb(lb[t].ten), kb(Math.round(lb[t].warmMean)), kb(lb[t].sessionTotal), kb(Math.round(lb[t].coldMean)),
          ]);
        }
      }
    };
    add('2 (the course)', bytesSummary(rows), disk);
    for (const sc of scale) add(sc.parts, sc.bytes, sc.disk);
    md.push(table(['parts per language', 'pages', 'tool', 'index on disk', 'first query in a page', `${TEN} queries in one page`, 'each later query, mean', 'all queries in one page', 'cold query, mean'], lines));
    md.push('');
    md.push('Where the bytes go as the course grows (engine + manifest + shards + fragments):');
    md.push('');
    const where = [];
    for (const sc of scale) for (const r of whereRows(sc.bytes)) where.push([sc.parts, ...r]);
    md.push(table(['parts per language', 'pages', 'tool', 'first query', `${TEN} queries`], where));
    md.push('');
    md.push('kakehashi\'s shards on disk, per language (raw bytes; gzip -9 in brackets):');
    md.push('');
    const sh = [];
    const shardRow = (parts, d) => {
      for (const dl of d.perLang) {
        sh.push([parts, dl.lang, dl.shards.n, kb(Math.round(dl.shards.bytes / Math.max(1, dl.shards.n))) + ` (${kb(Math.round(dl.shards.gz / Math.max(1, dl.shards.n)))})`, kb(dl.shards.max),
          kb(dl.ours) + ` (${kb(dl.oursGz)})`, kb(Math.round(dl.fragments.bytes / Math.max(1, dl.fragments.n))) + ` (${kb(Math.round(dl.fragments.gz / Math.max(1, dl.fragments.n)))})`]);
      }
    };
    shardRow('2 (the course)', disk);
    for (const sc of scale) shardRow(sc.parts, sc.disk);
    md.push(table(['parts per language', 'pages', 'shards', 'shard, mean', 'largest shard', 'manifest', 'fragment, mean'], sh));
    md.push('');
  }
  md.push(`## Time from a keystroke to the answer, CPU throttled ${THROTTLE}×`);
  md.push('');
  md.push(`Each of the first ${TEN} queries of a language, in one page, with Chromium's CPU slowed ${THROTTLE}× (\`Emulation.setCPUThrottlingRate\`, a mid-range phone): ` +
    'kakehashi: the query is typed and left to load, its last character taken away (and that query left to load), then typed again: the time from that keystroke\'s `input` event to the paint that shows the changed result list (the later of the event\'s next paint, by Event Timing, and the next frame after the list changed), ' +
    'debounce, ranking, snippets and rendering included. Pagefind (no UI of its own here): `await pagefind.search(q)` and `data()` of the top 5, after the same two searches.');
  md.push('');
  const lat = [];
  const latRow = (parts, l) => {
    for (const lang of ['ja', 'ko']) {
      const x = l[lang];
      lat.push([parts, lang, msec(x.kakehashi.median), msec(x.kakehashi.max), msec(x.pagefind.median), msec(x.pagefind.max)]);
    }
  };
  latRow('2 (the course)', env.latency);
  for (const sc of scale) latRow(sc.parts, sc.latency);
  md.push(table(['parts per language', 'pages', 'kakehashi box, median', 'kakehashi box, slowest', 'Pagefind API, median', 'Pagefind API, slowest'], lat));
  md.push('');
  md.push('## Against the target');
  md.push('');
  md.push(`- Recall at least Pagefind's in Japanese: ${pct(ja.ours)} against ${pct(ja.pf)} over all queries on Japanese pages (${pct(jaOnly.ours)} against ${pct(jaOnly.pf)} for the Japanese queries alone): ${verdict(ja.ours >= ja.pf && jaOnly.ours >= jaOnly.pf)}.`);
  md.push(`- Recall above Pagefind's in Korean: ${pct(ko.ours)} against ${pct(ko.pf)} over all queries on Korean pages (${pct(koOnly.ours)} against ${pct(koOnly.pf)} for the Korean queries alone): ${verdict(ko.ours > ko.pf && koOnly.ours > koOnly.pf)}.`);
  const sites = [{ parts: 'the course', bytes, latency: env.latency }, ...scale.map((sc) => ({ parts: `${sc.parts} parts per language`, bytes: sc.bytes, latency: sc.latency }))];
  for (const sc of sites) {
    const worse = (f) => sc.bytes.filter((b) => f(b.kakehashi) > f(b.pagefind));
    const say = (f, what) => {
      const w = worse(f);
      const nums = sc.bytes.map((b) => `${b.lang} ${kb(f(b.kakehashi))} against ${kb(f(b.pagefind))}`).join(', ');
      return `${what} ${w.length ? `**more bytes than Pagefind's** (${w.map((b) => b.lang).join(', ')})` : 'no more bytes than Pagefind\'s'} (${nums})`;
    };
    const slow = ['ja', 'ko'].filter((l) => sc.latency[l].kakehashi.max > 100);
    md.push(`- On ${sc.parts}: ${say((t) => t.firstInPage, 'the first query in a page costs')}; ${say((t) => t.ten, `${TEN} queries in one page cost`)}; ` +
      `the box answers a keystroke in at most ${['ja', 'ko'].map((l) => `${msec(sc.latency[l].kakehashi.max)} (${l})`).join(' and ')} with the CPU throttled ${THROTTLE}×: ${verdict(!slow.length)} (within 100 ms).`);
  }
  md.push('');
  const misses = (t) => rows.filter((r) => r.res[t].recall < 1);
  // outranked: an unexpected part listed above an expected one
  const outranked = (t) => rows.filter((r) => {
    const u = r.res[t].urls.slice(0, 5);
    const lastExpected = Math.max(...r.expect.map((e) => u.indexOf(e)));
    return u.some((x, i) => isPart(x) && !r.expect.includes(x) && i < lastExpected);
  });
  md.push('## Misses');
  md.push('');
  for (const [t, name] of [['kakehashi', 'kakehashi'], ['pagefind', 'Pagefind']]) {
    const ms = misses(t);
    md.push(`${name} misses ${ms.length} of ${rows.length}` + (ms.length ? ':' : '.'));
    md.push('');
    for (const r of ms) {
      const got = r.res[t].urls.map(label).join(' ') || 'nothing';
      md.push(`- ${r.lang} \`${r.q}\` (${r.kind}): expected ${r.expect.map(label).join(' ')}, got ${got}`);
    }
    if (ms.length) md.push('');
  }
  md.push(`Queries where a part without the query ranks above an expected part: kakehashi ${outranked('kakehashi').length}, Pagefind ${outranked('pagefind').length}` +
    ` (${[...outranked('kakehashi').map((r) => `kakehashi ${r.lang} \`${r.q}\``), ...outranked('pagefind').map((r) => `Pagefind ${r.lang} \`${r.q}\``)].join(', ') || 'none'}).`);
  md.push('');
  if (env.notes) {
    md.push(env.notes.trim());
    md.push('');
  }
  md.push('## Every query');
  md.push('');
  md.push('Results are the first 5 in order: #N is part N, home the language\'s home page, series the series page, root the language chooser; ✓ all expected parts found, ✗ some missed.');
  md.push('');
  md.push(table(['pages', 'group', 'query', 'kind', 'expected', 'kakehashi', 'Pagefind', 'kakehashi cold bytes', 'Pagefind cold bytes'],
    rows.map((r) => {
      const cell = (t) => `${r.res[t].recall === 1 ? '✓' : '✗'} ${r.res[t].urls.map(label).join(' ') || '—'}`;
      return [r.lang, r.group, `\`${r.q}\``, r.kind, r.expect.map(label).join(' '), cell('kakehashi'), cell('pagefind'), kb(r.res.kakehashi.cold), kb(r.res.pagefind.cold)];
    })));
  md.push('');
  return { md: md.join('\n'), sum, bytes };
}

function printConsole(sum, bytes) {
  console.log('recall@5                      n  kakehashi  Pagefind  extra parts: kakehashi  Pagefind');
  for (const s of sum) console.log(`${s.name.padEnd(28)} ${String(s.n).padStart(3)}  ${pct(s.ours).padStart(9)}  ${pct(s.pf).padStart(8)}  ${String(s.oursExtra).padStart(22)}  ${String(s.pfExtra).padStart(8)}`);
  console.log('');
  printBytes(bytes);
}

function printBytes(bytes) {
  console.log(`bytes (wire)   tool        cold mean  first in page  ${TEN} in page  later mean`);
  for (const b of bytes) {
    for (const t of ['kakehashi', 'pagefind']) {
      console.log(`${b.lang.padEnd(14)} ${t.padEnd(10)} ${kb(Math.round(b[t].coldMean)).padStart(10)}  ${kb(b[t].firstInPage).padStart(13)}  ${kb(b[t].ten).padStart(10)}  ${kb(Math.round(b[t].warmMean)).padStart(10)}`);
    }
  }
}

// runSite copies a built site, indexes the copy with Pagefind, serves it
// and measures both tools on it.
async function runSite(browser, src, queries, cold) {
  src = resolve(src);
  if (!existsSync(join(src, 'ja', 'search-data'))) throw new Error(`${src} is not a built kakehashi site with a sharded index (no ja/search-data/)`);
  const work = mkdtempSync(join(tmpdir(), 'search-bench-site-'));
  const site = join(work, 'site');
  let srv;
  try {
    cpSync(src, site, { recursive: true });
    rmSync(join(site, 'pagefind'), { recursive: true, force: true });
    const pfPages = runPagefind(site);
    srv = await serve(site);
    const rows = await measure(browser, srv.origin, srv.log, queries, cold);
    const latency = await measureLatency(browser, srv.origin, srv.log, queries);
    const oursDocs = ['ja', 'ko'].map((l) => {
      const g = {};
      new Function('globalThis', readFileSync(join(site, l, 'search-index.js'), 'utf8'))(g);
      return `${l} ${g.kakehashiSearch[l].pages.split(' ').filter(Boolean).length}`;
    }).join(', ');
    return {
      rows,
      latency,
      disk: diskSizes(site),
      oursDocs,
      pfPages: Object.entries(pfPages).map(([l, n]) => `${l} ${n}`).join(', '),
    };
  } finally {
    if (srv) srv.server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

// latencyOnly prints the box's time for each query on each site.
async function latencyOnly(browser, opts, queries) {
  for (const [name, dir] of [['the course', opts.site], ...opts.scale.map((sc) => [`${sc.parts} parts`, sc.dir])]) {
    const srv = await serve(resolve(dir));
    try {
      const lat = await measureLatency(browser, srv.origin, srv.log, queries, true);
      for (const lang of ['ja', 'ko']) {
        const l = lat[lang].kakehashi;
        console.log(`${name} ${lang}: median ${msec(l.median)} slowest ${msec(l.max)} | ${l.each.join(', ')}`);
      }
    } finally {
      srv.server.close();
    }
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const queries = JSON.parse(readFileSync(opts.queries, 'utf8')).queries;
  const chrome = await launch(opts.chromium);
  if (opts.latencyOnly) {
    try {
      await latencyOnly(chrome.browser, opts, queries);
    } finally {
      await chrome.close();
    }
    return;
  }
  try {
    const course = await runSite(chrome.browser, opts.site, queries, () => true);
    const scale = [];
    for (const sc of opts.scale) {
      console.log(`scale: ${sc.parts} parts per language`);
      // every third query cold; recall is not measured, the generated
      // parts have no expectations
      const r = await runSite(chrome.browser, sc.dir, queries, (row, i) => i % 3 === 0);
      scale.push({ parts: sc.parts, ...r, bytes: bytesSummary(r.rows) });
    }
    let commit = 'unknown';
    try {
      commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch {
      // not a checkout
    }
    const env = {
      date: new Date().toISOString().slice(0, 10),
      cpu: cpus()[0]?.model?.trim() || 'unknown CPU',
      cores: cpus().length,
      mem: Math.round(totalmem() / 2 ** 30),
      os: `${platform()} ${release()} ${arch()}`,
      node: process.version,
      pagefind: pagefindVersion(),
      chromium: `Chromium ${chrome.browser.version()}`,
      commit,
      oursDocs: course.oursDocs,
      latency: course.latency,
      pfPages: course.pfPages,
      notes: existsSync(opts.notes) ? readFileSync(opts.notes, 'utf8') : '',
    };
    const { md, sum, bytes } = report(env, course.rows, course.disk, scale);
    printConsole(sum, bytes);
    for (const sc of scale) {
      console.log(`\n${sc.parts} parts per language`);
      printBytes(sc.bytes);
      for (const lang of ['ja', 'ko']) {
        const l = sc.latency[lang];
        console.log(`latency ${lang}: kakehashi median ${msec(l.kakehashi.median)} slowest ${msec(l.kakehashi.max)}; Pagefind median ${msec(l.pagefind.median)} slowest ${msec(l.pagefind.max)}`);
      }
    }
    for (const r of course.rows) {
      const k = r.res.kakehashi;
      const p = r.res.pagefind;
      if (k.recall < 1 || p.recall < 1) console.log(`miss: ${r.lang} ${JSON.stringify(r.q)} kakehashi ${k.urls.map(label).join(' ') || '-'} | Pagefind ${p.urls.map(label).join(' ') || '-'}`);
    }
    if (opts.out) {
      writeFileSync(opts.out, md);
      console.log(`wrote ${opts.out}`);
    }
  } finally {
    await chrome.close();
  }
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
