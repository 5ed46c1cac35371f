//go:build !unix

package source

// openNonblock is added to the flags every file of the site is opened
// with: none here, where opening a site's file never waits for a writer.
const openNonblock = 0
