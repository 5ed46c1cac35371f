package calc

func sansAPI(a *fields, lang string) map[string]any {
	return errorOut(lang, inputErr("function", "err.unknown-function", "value", "sans"))
}
func verifyAPI(a *fields, lang string) map[string]any {
	return errorOut(lang, inputErr("function", "err.unknown-function", "value", "verifyHost"))
}
func haAPI(a *fields, lang string) map[string]any {
	return errorOut(lang, inputErr("function", "err.unknown-function", "value", "haSimulate"))
}
