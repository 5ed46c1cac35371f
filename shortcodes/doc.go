// Package shortcodes reads Hugo-style shortcodes in kakehashi's markdown —
// {{< name a="x" n=3 >}}, pairs {{< name >}}…{{< /name >}} and
// {{% name %}}…{{% /name %}}, self-closing {{< name />}} and the literal
// {{</* name */>}} — and makes each call a goldmark AST node with its source
// position, never a text placeholder. It is part of the markdown stage;
// a site's shortcode templates are read in the load stage
// (Registry.LoadTemplates).
//
// The lexer (lex.go) is a state-function lexer in the style of Hugo's
// parser/pageparser; Parse pairs tags in plain text; a Registry holds the
// shortcodes a site knows (the built-ins and the site's templates), declares
// their arguments and validates calls; Extension plugs the registry into
// goldmark as a block parser, an inline parser, an AST transformer and a
// node renderer, at the priorities build/markdown's package comment lists.
//
// The built-ins are in builtins.go, Hugo's with Hugo's arguments (details,
// figure, highlight, youtube, comment) in hugo_builtins.go, the
// calculator widgets one per file (quorum.go, san.go, hasim.go) over their
// shared markup (widgets.go).
//
// Import rule: this package, shortcodes/calc, shortcodes/diagram and i18n
// import nothing under build/ but build/diag (diagnostics) and
// build/markdown (the extension seam: Env, PartLink, the priorities), so
// the shortcodes stay a goldmark extension the engine plugs in, not a part
// of the engine; TestImportRule checks it with go list.
package shortcodes
