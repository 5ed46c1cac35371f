package highlight

import "strings"

// consoleLangs are session transcripts: prompts mark commands, the rest is
// output.
var consoleLangs = map[string]bool{
	"console": true, "shell-session": true, "shellsession": true,
	"bash-session": true, "terminal": true,
}

// shellLangs are scripts that may carry "$ " prompts.
var shellLangs = map[string]bool{
	"bash": true, "sh": true, "shell": true, "zsh": true, "ksh": true,
}

// CopyText returns what the copy button of a block in language lang copies.
//
// In console, shell-session and terminal blocks, lines starting with "$ " or
// "# " are commands: the prompt is removed and continuation lines (after a
// trailing backslash) are kept; every other line is output and is dropped.
//
// In bash, sh, shell and zsh blocks a leading "$ " prompt is removed from
// each line; if any line had one, lines that neither had one, nor continue a
// command, nor are "# " comments, are output and are dropped.
//
// Other languages copy the code unchanged. Line endings become "\n" and
// trailing newlines are trimmed.
func CopyText(lang, code string) string {
	code = strings.ReplaceAll(code, "\r\n", "\n")
	lang = strings.ToLower(strings.TrimSpace(lang))
	switch {
	case consoleLangs[lang]:
		code = commands(code, []string{"$ ", "# "}, false)
	case shellLangs[lang]:
		code = commands(code, []string{"$ "}, true)
	}
	return strings.TrimRight(code, "\n")
}

// commands keeps prompt lines (prompt removed) and their continuations. In a
// shell script (script true) comments are kept too, and a block without any
// prompt is returned unchanged.
func commands(code string, prompts []string, script bool) string {
	lines := strings.Split(code, "\n")
	var out []string
	any, cont := false, false
	for _, l := range lines {
		if cont {
			out = append(out, l)
			cont = strings.HasSuffix(l, `\`)
			continue
		}
		prompted := false
		for _, p := range prompts {
			if strings.HasPrefix(l, p) {
				l, prompted = l[len(p):], true
				break
			}
			if l == strings.TrimSpace(p) { // a bare prompt: an empty command
				l, prompted = "", true
				break
			}
		}
		switch {
		case prompted:
			any = true
			out = append(out, l)
			cont = strings.HasSuffix(l, `\`)
		case script && (strings.HasPrefix(l, "#")):
			out = append(out, l)
		}
	}
	if script && !any {
		return code
	}
	return strings.Join(out, "\n")
}
