package markdown

// Priorities of the goldmark parts that kakehashi adds, this package's and
// the shortcodes extension's, in one table (see the package comment for
// why each sits where it does). goldmark runs parsers and AST transformers
// in ascending order; among node renderers for one kind, the lowest wins.
const (
	// PriorityShortcodeBlock opens a shortcode call standing alone on its
	// line: after setext headings (100), before thematic breaks (200),
	// lists and paragraphs (1000), so a call on its own line interrupts a
	// paragraph and is not read as its text.
	PriorityShortcodeBlock = 150
	// PriorityShortcodeInline reads a call inside a line: after code spans
	// (100), so `{{< x >}}` in backticks stays code, before links (200),
	// so a call in a link's text is a call.
	PriorityShortcodeInline = 150
	// PriorityPartLinkParser reads "#N": after code spans, links,
	// autolinks, raw HTML and emphasis (100–500), before linkify (999).
	PriorityPartLinkParser = 600

	// PriorityShortcodeTransformer pairs inline shortcode tags and checks
	// where calls sit: first, so every later transformer sees the pairs'
	// content inside their calls.
	PriorityShortcodeTransformer = 50
	// PriorityCodeSourceTransformer makes the nodes that stand for code
	// blocks of their own (CodeSource: the highlight shortcode's calls)
	// code figures: after the shortcode pairs, and before links and "#N"
	// references are looked for, so none is in their code.
	PriorityCodeSourceTransformer = 60
	// PriorityResolveTransformer lets the nodes whose content comes from
	// the page's environment resolve it (Resolver: the ref, relref and
	// param shortcodes): after the code sources, before links, which
	// then see the links a ref in a link's destination became.
	PriorityResolveTransformer = 70
	// PriorityLinkTransformer offers every link's destination to Env.Link:
	// after the shortcode pairs, so links inside a call are its children,
	// and before the exported copy's explicit index links (1000), which
	// then see the destinations Env.Link wrote.
	PriorityLinkTransformer = 900
	// PriorityPartLinkTransformer checks "#N" references, turning those in
	// links and headings and those to unknown parts back into text: after
	// goldmark's own transformers (footnotes: 999), and before the soft
	// breaks, which must see that text.
	PriorityPartLinkTransformer = 10000
	// PriorityCodeBlockTransformer makes code blocks highlighted figures.
	PriorityCodeBlockTransformer = 10100
	// PriorityTableTransformer wraps tables in a scrolling div.
	PriorityTableTransformer = 10200
	// PriorityImageTransformer resolves images (their files, sizes and
	// loading) in document order: after the shortcode transformer, whose
	// calls are then nodes that resolve their own images in that order.
	PriorityImageTransformer = 10250
	// PriorityHeadingIDTransformer gives headings IDs and self-links: after
	// the part links, so "#N" in a heading is already text.
	PriorityHeadingIDTransformer = 10300
	// PrioritySoftBreakTransformer merges contiguous text and drops the
	// soft breaks between Japanese characters: last, once every other
	// transformer has made the text nodes it makes.
	PrioritySoftBreakTransformer = 10400

	// PriorityRenderer is the priority of every node renderer kakehashi
	// adds (this package's and the shortcodes'), each for kinds of its own:
	// below goldmark's HTML renderer (1000).
	PriorityRenderer = 100
)
