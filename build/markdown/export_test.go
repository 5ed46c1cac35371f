package markdown

// Stairs and MixedStairs make deeply nested pages for the external
// benchmarks too.
var (
	Stairs      = stairs
	MixedStairs = mixedStairs
)

// ReadingTime is the reading time before ReadingMinutes rounds it, and
// CountReading what it counts.
var (
	ReadingTime  = readingTime
	CountReading = countReading
)
