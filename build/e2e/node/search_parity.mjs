// Checks that the browser search engine (themes/default/static/js/search.js)
// tokenises, folds, ranks and cuts snippets exactly like the Go package
// build/search, and reads the same shards for a query. The Go test
// TestParityWithJS writes DIR:
//   DIR/fixtures.json  {tokens:[{in,out}], folds:[{in,out}],
//                       cases:[{dir,lang,query,shards,hits:[{url,matched,terms,score,snippet}]}]}
//   DIR/<dir>/<lang>/search-index.js and DIR/<dir>/<lang>/search-data/*.js,
//                      an index's manifest, shards and fragments
// Each index runs in a context of its own, as in a page: the manifest
// first, then each shard and fragment only once a query asks for it.
// Usage: node build/e2e/node/search_parity.mjs DIR
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node search_parity.mjs DIR');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const engineSrc = join(here, '..', '..', '..', 'themes', 'default', 'static', 'js', 'search.js');
const engineCode = readFileSync(engineSrc, 'utf8');

// sites are the indexes by folder, each in its own context.
const sites = new Map();
function site(d, lang) {
  let s = sites.get(d);
  if (!s) {
    const ctx = vm.createContext({ URL });
    vm.runInContext(engineCode, ctx, { filename: engineSrc });
    s = { ctx, loaded: new Set(), src: `file:///${lang}/search-index.js` };
    run(d, s, s.src);
    sites.set(d, s);
  }
  return s;
}
// run runs the script at the site path p of index d.
function run(d, s, p) {
  s.loaded.add(p);
  const path = p.startsWith('file://') ? new URL(p).pathname : p;
  vm.runInContext(readFileSync(join(dir, d, path), 'utf8'), s.ctx, { filename: path });
}

const fx = JSON.parse(readFileSync(join(dir, 'fixtures.json'), 'utf8'));

let failures = 0;
let checks = 0;
function same(what, got, want) {
  checks++;
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) {
    failures++;
    console.error(`${what}\n  js: ${g}\n  go: ${w}`);
  }
}

const plain = vm.createContext({});
vm.runInContext(engineCode, plain, { filename: engineSrc });
const engine = plain.kakehashiSearchEngine;
for (const tc of fx.tokens) {
  same(`tokenize(${JSON.stringify(tc.in)})`, engine.tokenize(tc.in).map((t) => t.t), tc.out);
}
for (const tc of fx.folds) {
  same(`fold(${JSON.stringify(tc.in)})`, engine.fold(tc.in), tc.out);
}
for (const tc of fx.cases) {
  const s = site(tc.dir, tc.lang);
  const eng = s.ctx.kakehashiSearchEngine;
  const data = s.ctx.kakehashiSearch[tc.lang];
  const what = `${tc.dir} ${JSON.stringify(tc.query)}`;
  const pl = eng.plan(data, tc.query);
  same(`plan(${what}).shards`, Array.from(pl.shards), tc.shards);
  const m = eng.manifest(data);
  const urls = pl.shards.map((i) => eng.shardURL(s.src, m, i)).filter((p) => !s.loaded.has(p));
  if (urls.length) {
    checks++;
    if (eng.search(data, tc.query) !== null) {
      failures++;
      console.error(`search(${what}) ranked without the shards it needs`);
    }
  }
  for (const p of urls) run(tc.dir, s, p);
  const ranked = eng.search(data, tc.query);
  if (!ranked) {
    failures++;
    console.error(`search(${what}): not ready with every shard it planned`);
    continue;
  }
  const hits = ranked.map((h) => {
    const p = eng.pageURL(s.src, m, h.doc);
    if (!s.loaded.has(p)) run(tc.dir, s, p);
    const frag = data.page[m.pages[h.doc]];
    return {
      url: frag.url,
      matched: h.matched,
      terms: h.terms,
      score: h.score,
      snippet: eng.fragmentSnippet(frag, pl.terms),
    };
  });
  same(`search(${what})`, hits, tc.hits);
  // the snippet of a text is the fragment's
  if (ranked.length) {
    const frag = data.page[m.pages[ranked[0].doc]];
    same(`snippet(${what})`, eng.snippet(frag.text, pl.terms), hits[0].snippet);
  }
}

console.log(`search parity: ${checks - failures}/${checks} agree`);
process.exit(failures ? 1 : 0);
