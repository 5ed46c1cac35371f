//go:build js && wasm && x509

package main

import (
	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
	"github.com/kakehashi-dev/kakehashi/shortcodes/calc/pemcert"
)

func thisModule() module {
	return module{
		api:       calc.API{ParsePEM: pemcert.Parse},
		functions: []string{"verifyHost"},
		readyKey:  "calcX509Ready",
		event:     "kakehashi:calc-x509-ready",
	}
}
