// Runs the JSON case tables of shortcodes/calc through the WebAssembly JS
// API, globalThis.kakehashi.calc, under Node. Run it with run.sh beside
// this file, which builds the modules into a temporary folder and sets:
//
//   KAKEHASHI_WASM_EXEC       path to Go's wasm_exec.js (copied from GOROOT)
//   KAKEHASHI_CALC_WASM       path to calc.wasm
//   KAKEHASHI_CALC_X509_WASM  path to calc-x509.wasm
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");

function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run build/e2e/node/run.sh`);
  return v;
}

// The same rule as calc.Contains in Go: objects in want are subsets,
// arrays match length and order, scalars are equal.
function contains(path, got, want) {
  if (want !== null && typeof want === "object" && !Array.isArray(want)) {
    if (got === null || typeof got !== "object" || Array.isArray(got)) return `${path}: got ${JSON.stringify(got)}, want an object`;
    for (const k of Object.keys(want).sort()) {
      if (!(k in got)) return `${path}.${k}: missing`;
      const e = contains(`${path}.${k}`, got[k], want[k]);
      if (e) return e;
    }
    return null;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${path}: got ${JSON.stringify(got)}, want an array`;
    if (got.length !== want.length) return `${path}: got ${got.length} elements, want ${want.length}`;
    for (let i = 0; i < want.length; i++) {
      const e = contains(`${path}[${i}]`, got[i], want[i]);
      if (e) return e;
    }
    return null;
  }
  return Object.is(got, want) ? null : `${path}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
}

function caseFiles(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: f, ...JSON.parse(readFileSync(join(dir, f), "utf8")) }));
}

async function load(wasmPath) {
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), go.importObject);
  go.run(instance); // never settles: main blocks in select {}
}

const events = [];
globalThis.dispatchEvent = (e) => {
  events.push(e.type);
  return true;
};
await import(pathToFileURL(env("KAKEHASHI_WASM_EXEC")).href);
await load(env("KAKEHASHI_CALC_WASM"));
const calc = globalThis.kakehashi.calc;

test("the module announces itself", () => {
  assert.equal(globalThis.kakehashi.calcReady, true);
  assert.deepEqual(Object.keys(calc).sort(), ["haSimulate", "quorum", "sans", "verifyHost"]);
  assert.deepEqual(events, ["kakehashi:calc-ready"]);
});

for (const f of caseFiles(join(root, "shortcodes", "calc", "testdata"))) {
  test(`cases ${f.file}`, async (t) => {
    for (const c of f.cases) {
      await t.test(c.name, () => {
        const got = calc[f.function](c.input);
        const err = contains("", got, c.want);
        assert.equal(err, null, `${err}\ngot: ${JSON.stringify(got)}`);
      });
    }
  });
}

test("JS values the JSON tables cannot express", async (t) => {
  const cases = [
    ["no argument takes every default", () => calc.quorum(), { valid: true, members: 3, quorum: 2 }],
    ["null takes every default", () => calc.quorum(null), { valid: true, members: 3 }],
    ["undefined field takes its default", () => calc.quorum({ members: 5, failed: undefined }), { quorum: 3, failed: 0 }],
    ["NaN is not an integer", () => calc.quorum({ members: NaN }), { errorField: "members", errorCode: "err.not-integer" }],
    ["Infinity is not an integer", () => calc.quorum({ members: Infinity }), { errorField: "members", errorCode: "err.not-integer" }],
    ["a function is a wrong type", () => calc.quorum({ members: () => 3 }), { errorField: "members", errorCode: "err.type" }],
    ["a string argument is not an object", () => calc.quorum("3"), { errorField: "input", errorCode: "err.type" }],
    ["a PEM needs the calc-x509 module", () => calc.verifyHost({ pem: "x", dial: "cp-1" }), { ok: false, errorCode: "err.pem-module" }],
  ];
  for (const [name, run, want] of cases) {
    await t.test(name, () => {
      let got;
      assert.doesNotThrow(() => {
        got = run();
      });
      const err = contains("", got, want);
      assert.equal(err, null, `${err}\ngot: ${JSON.stringify(got)}`);
    });
  }
});

test("calc-x509 module: verifyHost with pasted PEM certificates", async (t) => {
  await load(env("KAKEHASHI_CALC_X509_WASM"));
  assert.equal(globalThis.kakehashi.calcX509Ready, true);
  assert.equal(globalThis.kakehashi.calcReady, true);
  assert.deepEqual(events, ["kakehashi:calc-ready", "kakehashi:calc-x509-ready"]);
  for (const f of caseFiles(join(root, "shortcodes", "calc", "pemcert", "testdata"))) {
    for (const c of f.cases) {
      await t.test(c.name, () => {
        const got = globalThis.kakehashi.calc[f.function](c.input);
        const err = contains("", got, c.want);
        assert.equal(err, null, `${err}\ngot: ${JSON.stringify(got)}`);
      });
    }
  }
  // The SAN-list cases still pass through the replaced verifyHost.
  for (const f of caseFiles(join(root, "shortcodes", "calc", "testdata")).filter((f) => f.function === "verifyHost")) {
    for (const c of f.cases) {
      await t.test(`sans: ${c.name}`, () => {
        const got = globalThis.kakehashi.calc.verifyHost(c.input);
        const err = contains("", got, c.want);
        assert.equal(err, null, `${err}\ngot: ${JSON.stringify(got)}`);
      });
    }
  }
});
