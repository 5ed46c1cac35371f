//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
)

// module says what this build registers; set by core.go or x509.go.
type module struct {
	api       calc.API
	functions []string
	readyKey  string
	event     string
}

func main() {
	m := thisModule()
	g := js.Global()
	ns := g.Get("kakehashi")
	if ns.Type() != js.TypeObject {
		ns = g.Get("Object").New()
		g.Set("kakehashi", ns)
	}
	fns := ns.Get("calc")
	if fns.Type() != js.TypeObject {
		fns = g.Get("Object").New()
		ns.Set("calc", fns)
	}
	for _, name := range m.functions {
		fns.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
			return js.ValueOf(call(m.api, name, args))
		}))
	}
	ns.Set(m.readyKey, true)
	if d := g.Get("dispatchEvent"); d.Type() == js.TypeFunction {
		if ev := g.Get("Event"); ev.Type() == js.TypeFunction {
			g.Call("dispatchEvent", ev.New(m.event))
		}
	}
	select {}
}

// call converts the JS argument and runs the calculator; nothing escapes
// as a JS exception.
func call(api calc.API, name string, args []js.Value) (out map[string]any) {
	defer func() {
		if p := recover(); p != nil {
			out = map[string]any{"error": "internal error", "errorCode": "err.internal", "errorField": name}
		}
	}()
	var in any
	if len(args) > 0 {
		in = toGo(args[0], 0)
	}
	return api.Call(name, in)
}

// unsupported stands for a JS value with no JSON counterpart (a function,
// a symbol, a bigint); calc reports it as a wrong type.
type unsupported struct{}

// toGo converts a JS value to the plain Go values calc expects.
func toGo(v js.Value, depth int) any {
	if depth > 32 {
		return unsupported{}
	}
	switch v.Type() {
	case js.TypeUndefined, js.TypeNull:
		return nil
	case js.TypeBoolean:
		return v.Bool()
	case js.TypeNumber:
		return v.Float()
	case js.TypeString:
		return v.String()
	case js.TypeObject:
		if js.Global().Get("Array").Call("isArray", v).Bool() {
			n := v.Length()
			out := make([]any, n)
			for i := 0; i < n; i++ {
				out[i] = toGo(v.Index(i), depth+1)
			}
			return out
		}
		keys := js.Global().Get("Object").Call("keys", v)
		out := make(map[string]any, keys.Length())
		for i := 0; i < keys.Length(); i++ {
			k := keys.Index(i).String()
			out[k] = toGo(v.Get(k), depth+1)
		}
		return out
	}
	return unsupported{}
}
