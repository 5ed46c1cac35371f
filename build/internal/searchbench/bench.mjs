// Measures kakehashi's search against Pagefind on the same built site, in
// headless Chromium: recall in the top 5 over the queries in queries.json,
// and the bytes each tool transfers per query, cold (a fresh browser
// context per query, so no cache hides the first query's cost) and warm
// (later queries in the same page).
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
// language and read the result links. Both run on the same tiny static
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
  };
  for (let i = 0; i < argv.length; i++) {
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
      rmSync(profile, { recursive: true, force: true });
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
const isOurs = (lang) => (p) => p === '/js/search.js' || p === `/${lang}/search-index.js`;

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
      for (const row of rows.filter((r) => r.lang === lang)) {
        const from = log.length;
        const r = await tool.run(page, row.q);
        const sent = await settle(page, done, log, start, from, filter);
        row.res[tool.name].warmSeq = sum(sent);
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

function bytesSummary(rows) {
  const out = [];
  for (const lang of ['ja', 'ko']) {
    const rs = rows.filter((r) => r.lang === lang);
    const line = { lang };
    for (const t of ['kakehashi', 'pagefind']) {
      const cold = rs.filter((r) => r.res[t].cold !== undefined).map((r) => r.res[t].cold);
      const warm = rs.slice(1).map((r) => r.res[t].warmSeq);
      line[t] = {
        coldMean: mean(cold),
        coldMax: Math.max(...cold),
        coldN: cold.length,
        firstInPage: rs[0].res[t].warmSeq,
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
  const out = [];
  for (const lang of ['ja', 'ko']) {
    const ours = join(site, lang, 'search-index.js');
    const pfFiles = all.filter((f) => {
      const b = f.split('/').pop();
      return b.startsWith(`${lang}_`) || b.startsWith(`pagefind.${lang}_`);
    });
    out.push({
      lang,
      ours: size(ours),
      oursGz: gz(ours),
      pfIndex: pfFiles.filter((f) => f.startsWith('index/')).reduce((s, f) => s + size(join(pf, f)), 0),
      pfFragments: pfFiles.filter((f) => f.startsWith('fragment/')).reduce((s, f) => s + size(join(pf, f)), 0),
      pfMeta: pfFiles.filter((f) => f.endsWith('.pf_meta')).reduce((s, f) => s + size(join(pf, f)), 0),
      pfChunks: pfFiles.filter((f) => f.startsWith('index/')).length,
    });
  }
  const engine = {
    ours: size(join(site, 'js', 'search.js')),
    oursGz: gz(join(site, 'js', 'search.js')),
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

function report(env, rows, disk, scale) {
  const sum = summarize(rows);
  const bytes = bytesSummary(rows);
  const get = (name) => sum.find((s) => s.name === name);
  const ja = get('Japanese pages, all');
  const ko = get('Korean pages, all');
  const jaOnly = get('ja queries (ja pages)');
  const koOnly = get('ko queries (ko pages)');
  const coldOurs = Math.max(...bytes.map((b) => b.kakehashi.coldMean));
  const coldPf = Math.min(...bytes.map((b) => b.pagefind.coldMean));
  const warmOurs = Math.max(...bytes.map((b) => b.kakehashi.warmMean));
  const warmPf = Math.min(...bytes.map((b) => b.pagefind.warmMean));
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
  md.push('- **kakehashi**: the real search box: `fill` `#q` (focus loads `/<lang>/search-index.js` as a script), wait for the result list, take the first 5 result links.');
  md.push('- **Pagefind**: its browser API: `import(\'/pagefind/pagefind.js\')`, `await pagefind.search(q)`, `await r.data()` of the first 5 results.');
  md.push('');
  md.push('Recall@5 of a query is the share of its expected parts among the first 5 results; a group\'s recall is the mean over its queries. ' +
    'Bytes are the response bodies the server sent for the search, as encoded on the wire (gzip where the server compresses; HTTP headers left out): ' +
    'for kakehashi `/js/search.js` and `/<lang>/search-index.js`, for Pagefind everything under `/pagefind/` (script, worker, WebAssembly, entry, metadata, index chunks, result fragments). ' +
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
    ['pages', 'tool', 'cold query, mean', 'cold query, max', 'first query in a page', 'each later query, mean', 'later query, max', 'all queries in one page'],
    bytes.flatMap((b) => ['kakehashi', 'pagefind'].map((t) => [
      b.lang, t === 'pagefind' ? 'Pagefind' : t, kb(Math.round(b[t].coldMean)), kb(b[t].coldMax), kb(b[t].firstInPage),
      kb(Math.round(b[t].warmMean)), kb(b[t].warmMax), `${kb(b[t].sessionTotal)} (${b[t].n} queries)`,
    ])),
  ));
  md.push('');
  md.push('"First query in a page" leaves out kakehashi\'s `search.js` (the page loads it with the header) and counts Pagefind\'s whole start-up.');
  md.push('');
  md.push('Files on disk, uncompressed (gzip -9 in brackets for text):');
  md.push('');
  md.push(table(['what', 'ja', 'ko'], [
    ['kakehashi index script', `${kb(disk.perLang[0].ours)} (${kb(disk.perLang[0].oursGz)})`, `${kb(disk.perLang[1].ours)} (${kb(disk.perLang[1].oursGz)})`],
    ['Pagefind index chunks', `${kb(disk.perLang[0].pfIndex)} in ${disk.perLang[0].pfChunks}`, `${kb(disk.perLang[1].pfIndex)} in ${disk.perLang[1].pfChunks}`],
    ['Pagefind fragments (all pages)', kb(disk.perLang[0].pfFragments), kb(disk.perLang[1].pfFragments)],
    ['Pagefind metadata', kb(disk.perLang[0].pfMeta), kb(disk.perLang[1].pfMeta)],
  ]));
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
            parts, lb.lang, t === 'pagefind' ? 'Pagefind' : t,
            t === 'pagefind' ? `${kb(dl.pfIndex)} in ${dl.pfChunks} chunk${dl.pfChunks === 1 ? '' : 's'} + ${kb(dl.pfFragments)} fragments` : `${kb(dl.ours)} (${kb(dl.oursGz)} gzip, ${(dl.ours / dl.oursGz).toFixed(1)}×)`,
            kb(Math.round(lb[t].coldMean)), kb(lb[t].firstInPage), kb(Math.round(lb[t].warmMean)), kb(lb[t].sessionTotal),
          ]);
        }
      }
    };
    add('2 (the course)', bytesSummary(rows), disk);
    for (const sc of scale) add(sc.parts, sc.bytes, sc.disk);
    md.push(table(['parts per language', 'pages', 'tool', 'index on disk', 'cold query, mean', 'first query in a page', 'each later query, mean', 'all queries in one page'], lines));
    md.push('');
  }
  md.push('## Against the target');
  md.push('');
  md.push(`- Recall at least Pagefind's in Japanese: ${pct(ja.ours)} against ${pct(ja.pf)} over all queries on Japanese pages (${pct(jaOnly.ours)} against ${pct(jaOnly.pf)} for the Japanese queries alone): ${verdict(ja.ours >= ja.pf && jaOnly.ours >= jaOnly.pf)}.`);
  md.push(`- Recall above Pagefind's in Korean: ${pct(ko.ours)} against ${pct(ko.pf)} over all queries on Korean pages (${pct(koOnly.ours)} against ${pct(koOnly.pf)} for the Korean queries alone): ${verdict(ko.ours > ko.pf && koOnly.ours > koOnly.pf)}.`);
  md.push(`- No more bytes: cold query ${kb(Math.round(coldOurs))} against ${kb(Math.round(coldPf))} (worst language of ours against best of Pagefind's), later queries ${kb(Math.round(warmOurs))} against ${kb(Math.round(warmPf))}: ${verdict(coldOurs <= coldPf && warmOurs <= warmPf)} on the course.`);
  for (const sc of scale) {
    const lose = sc.bytes.filter((b) => b.kakehashi.coldMean > b.pagefind.coldMean).map((b) => b.lang);
    const loseSession = sc.bytes.filter((b) => b.kakehashi.sessionTotal > b.pagefind.sessionTotal).map((b) => b.lang);
    md.push(`- At ${sc.parts} parts per language: cold query ${lose.length ? `**more bytes than Pagefind** (${lose.join(', ')})` : 'no more bytes than Pagefind'}; ` +
      `a language's queries all in one page ${loseSession.length ? `**more bytes than Pagefind** (${loseSession.join(', ')})` : 'no more bytes than Pagefind'}.`);
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
  console.log('bytes (wire)   tool        cold mean  first in page  later mean');
  for (const b of bytes) {
    for (const t of ['kakehashi', 'pagefind']) {
      console.log(`${b.lang.padEnd(14)} ${t.padEnd(10)} ${kb(Math.round(b[t].coldMean)).padStart(10)}  ${kb(b[t].firstInPage).padStart(13)}  ${kb(Math.round(b[t].warmMean)).padStart(10)}`);
    }
  }
}

// runSite copies a built site, indexes the copy with Pagefind, serves it
// and measures both tools on it.
async function runSite(browser, src, queries, cold) {
  src = resolve(src);
  if (!existsSync(join(src, 'ja', 'search-index.js'))) throw new Error(`${src} is not a built kakehashi site (no ja/search-index.js)`);
  const work = mkdtempSync(join(tmpdir(), 'search-bench-site-'));
  const site = join(work, 'site');
  let srv;
  try {
    cpSync(src, site, { recursive: true });
    rmSync(join(site, 'pagefind'), { recursive: true, force: true });
    const pfPages = runPagefind(site);
    srv = await serve(site);
    const rows = await measure(browser, srv.origin, srv.log, queries, cold);
    const oursDocs = ['ja', 'ko'].map((l) => {
      const g = {};
      new Function('globalThis', readFileSync(join(site, l, 'search-index.js'), 'utf8'))(g);
      return `${l} ${g.kakehashiSearch[l].url.length}`;
    }).join(', ');
    return {
      rows,
      disk: diskSizes(site),
      oursDocs,
      pfPages: Object.entries(pfPages).map(([l, n]) => `${l} ${n}`).join(', '),
    };
  } finally {
    if (srv) srv.server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const queries = JSON.parse(readFileSync(opts.queries, 'utf8')).queries;
  const chrome = await launch(opts.chromium);
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
      pfPages: course.pfPages,
      notes: existsSync(opts.notes) ? readFileSync(opts.notes, 'utf8') : '',
    };
    const { md, sum, bytes } = report(env, course.rows, course.disk, scale);
    printConsole(sum, bytes);
    for (const sc of scale) {
      console.log(`\n${sc.parts} parts per language`);
      printBytes(sc.bytes);
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
