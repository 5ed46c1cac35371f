// Checks that the browser search engine (themes/default/static/js/search.js)
// tokenises, folds, ranks and cuts snippets exactly like the Go package
// build/search. The Go test TestParityWithJS writes DIR:
//   DIR/fixtures.json  {tokens:[{in,out}], folds:[{in,out}],
//                       cases:[{lang,query,hits:[{url,matched,terms,score,snippet}]}]}
//   DIR/<lang>.js      the index scripts
// Usage: node build/e2e/node/search_parity.mjs DIR
import { readFileSync, readdirSync } from 'node:fs';
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

const ctx = vm.createContext({});
vm.runInContext(readFileSync(engineSrc, 'utf8'), ctx, { filename: engineSrc });
for (const f of readdirSync(dir).filter((f) => f.endsWith('.js')).sort()) {
  vm.runInContext(readFileSync(join(dir, f), 'utf8'), ctx, { filename: f });
}
const engine = ctx.kakehashiSearchEngine;
const indexes = ctx.kakehashiSearch || {};
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

for (const tc of fx.tokens) {
  same(`tokenize(${JSON.stringify(tc.in)})`, engine.tokenize(tc.in).map((t) => t.t), tc.out);
}
for (const tc of fx.folds) {
  same(`fold(${JSON.stringify(tc.in)})`, engine.fold(tc.in), tc.out);
}
for (const tc of fx.cases) {
  const data = indexes[tc.lang];
  if (!data) {
    failures++;
    console.error(`no index for ${tc.lang}`);
    continue;
  }
  const hits = engine.search(data, tc.query).map((h) => ({
    url: h.url,
    matched: h.matched,
    terms: h.terms,
    score: h.score,
    snippet: engine.snippet(data.text[h.doc], h.keys),
  }));
  same(`search(${tc.lang}, ${JSON.stringify(tc.query)})`, hits, tc.hits);
}

console.log(`search parity: ${checks - failures}/${checks} agree`);
process.exit(failures ? 1 : 0);
