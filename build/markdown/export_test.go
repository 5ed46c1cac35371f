package markdown

// Stairs and MixedStairs make deeply nested pages for the external
// benchmarks too.
var (
	Stairs      = stairs
	MixedStairs = mixedStairs
)
