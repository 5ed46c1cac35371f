// Command calc-wasm is the WebAssembly entry of kakehashi's calculators:
// syscall/js glue around package shortcodes/calc, nothing else.
//
// Built with GOOS=js GOARCH=wasm it registers quorum, sans, verifyHost and
// haSimulate on globalThis.kakehashi.calc, sets
// globalThis.kakehashi.calcReady = true and dispatches a
// "kakehashi:calc-ready" event when globalThis.dispatchEvent exists.
//
// Built with the extra tag x509 it is the calc-x509 module instead: it
// registers a verifyHost that also reads pasted PEM certificates (with
// crypto/x509, which doubles the module's size), then sets
// globalThis.kakehashi.calcX509Ready = true and dispatches
// "kakehashi:calc-x509-ready".
//
// The JS API is documented in docs/calc-api.md.
package main
