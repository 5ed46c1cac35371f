//go:build js && wasm && !x509

package main

import "github.com/kakehashi-dev/kakehashi/shortcodes/calc"

func thisModule() module {
	return module{
		api:       calc.API{},
		functions: calc.Functions(),
		readyKey:  "calcReady",
		event:     "kakehashi:calc-ready",
	}
}
