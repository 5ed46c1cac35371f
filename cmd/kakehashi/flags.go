package main

import "flag"

// The flags several commands share are defined here once, so that each
// command spells them, explains them and defaults them the same way.

// siteFolderHelp is the help of -s for the commands that read the whole
// site.
const siteFolderHelp = "site `folder` holding content/, themes/ and i18n/"

// sourceFlag defines -s and its long form --source, the site folder
// (default "."), with the command's own help text.
func sourceFlag(fs *flag.FlagSet, src *string, help string) {
	fs.StringVar(src, "s", ".", help)
	fs.StringVar(src, "source", ".", "same as -s")
}

// draftsFlag defines --drafts, and -D as Hugo spells it: publish the
// pages marked draft.
func draftsFlag(fs *flag.FlagSet, drafts *bool) {
	fs.BoolVar(drafts, "drafts", false, "include pages marked draft")
	fs.BoolVar(drafts, "D", false, "same as --drafts")
}

// baseURLFlag defines --base-url, and -b and --baseURL as Hugo spells
// it: the absolute URL the site is published under.
func baseURLFlag(fs *flag.FlagSet, baseURL *string) {
	fs.StringVar(baseURL, "base-url", "", "absolute `URL` the site is published under, for canonical links, sitemap and feeds")
	fs.StringVar(baseURL, "b", "", "same as --base-url")
	fs.StringVar(baseURL, "baseURL", "", "same as --base-url")
}

// quietFlag defines -q: print only errors.
func quietFlag(fs *flag.FlagSet, quiet *bool) {
	fs.BoolVar(quiet, "q", false, "print only errors")
}
