// Package e2e holds the end-to-end tests: the bundled course built into a
// real folder, its links checked, and its pages driven in headless
// Chromium.
package e2e
