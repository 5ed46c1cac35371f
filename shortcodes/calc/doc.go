// Package calc is the pure-Go logic behind kakehashi's calculators: etcd
// quorum, the subject alternative names kubeadm puts into the apiserver and
// etcd certificates, TLS hostname verification of a dial address against a
// SAN list or a PEM certificate, and an HA failure simulator.
//
// The same code runs at build time (the no-JavaScript fallback of each
// widget) and in the browser, compiled to WebAssembly by cmd/calc-wasm. It
// therefore imports neither the file system layer nor the i18n package:
// every message it produces is a Reason, a code with arguments, that knows
// its own Japanese, Korean and English texts.
//
// The JS-facing layer (Call and the *Input/*Output mapping in api.go) works
// on plain Go values of the kind encoding/json and syscall/js produce —
// map[string]any, []any, float64, string, bool — so the same JSON test
// tables run natively, under GOOS=js GOARCH=wasm, and through the
// WebAssembly module under Node.
package calc
