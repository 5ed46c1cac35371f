// Package shortcodes reads Hugo-style shortcodes in kakehashi's markdown —
// {{< name a="x" n=3 >}}, pairs {{< name >}}…{{< /name >}} and
// {{% name %}}…{{% /name %}}, self-closing {{< name />}} and the literal
// {{</* name */>}} — and makes each call a goldmark AST node with its source
// position, never a text placeholder.
//
// The lexer (lex.go) is a state-function lexer in the style of Hugo's
// parser/pageparser; Parse pairs tags in plain text; a Registry holds the
// shortcodes a site knows (the built-ins and the site's templates), declares
// their arguments and validates calls; Extension plugs the registry into
// goldmark as a block parser, an inline parser, an AST transformer and a
// node renderer.
package shortcodes
