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

// draftsFlag defines --drafts: publish the pages marked draft.
func draftsFlag(fs *flag.FlagSet, drafts *bool) {
	fs.BoolVar(drafts, "drafts", false, "include pages marked draft")
}

// quietFlag defines -q: print only errors.
func quietFlag(fs *flag.FlagSet, quiet *bool) {
	fs.BoolVar(quiet, "q", false, "print only errors")
}
