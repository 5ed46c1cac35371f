package shortcodes

import (
	"io"
	"strconv"

	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
)

// quorumTemplate is the markup of the quorum calculator.
const quorumTemplate = `{{define "quorum"}}<section class="calc calc-quorum"{{template "root" .}}>
{{template "head" .}}<form class="calc-form" data-form>
<fieldset class="calc-fields" disabled>
<legend class="visually-hidden">{{.Title}}</legend>
<label for="{{.ID}}-members">{{.L.members}}<input type="number" id="{{.ID}}-members" name="members" min="1" max="99" step="1" value="{{.Members}}" inputmode="numeric" required></label>
<label for="{{.ID}}-failed">{{.L.failed}}<input type="number" id="{{.ID}}-failed" name="failed" min="0" max="99" step="1" value="{{.Failed}}" inputmode="numeric" required></label>
</fieldset>
</form>
<output class="calc-status" for="{{.ID}}-members {{.ID}}-failed" aria-live="polite" data-out="status">{{.Status}}</output>
{{template "error" .}}
<dl class="calc-facts">
<div><dt>{{.L.quorum}}</dt><dd data-out="quorum">{{.R.Quorum}}</dd></div>
<div><dt>{{.L.tolerance}}</dt><dd data-out="tolerance">{{.R.Tolerance}}</dd></div>
<div><dt>{{.L.alive}}</dt><dd data-out="alive">{{.R.Alive}}</dd></div>
<div><dt>{{.L.writable}}</dt><dd data-out="writable" data-ok="{{.R.Writable}}">{{.Writable}}</dd></div>
</dl>
{{template "notes" .Advice}}
</section>
{{end}}

`

// quorumShortcode is the quorum calculator: etcd members, failed members,
// and whether the cluster can still write.
func (wd *widgets) quorumShortcode() *Shortcode {
	return &Shortcode{
		Name: "quorum", Block: true,
		Args: []ArgSpec{
			{Name: "members", Type: Int, Default: int64(3), Position: 1},
			{Name: "failed", Type: Int, Default: int64(0), Position: 2},
		},
		Render: wd.quorum,
	}
}

func (wd *widgets) quorum(w io.Writer, c *Context) error {
	members, failed := c.Int("members"), c.Int("failed")
	keys := []string{"failed", "alive", "writable", "yes", "no", "quorum_ok", "quorum_lost"}
	r, err := newRoot(c, "quorum", "calc_quorum_title",
		map[string]any{"members": members, "failed": failed}, keys,
		"members", "quorum_members", "quorum", "quorum_quorum", "tolerance", "quorum_tolerance")
	if err != nil {
		return err
	}
	res, qerr := calc.Quorum(members, failed)
	data := struct {
		root
		Members, Failed  int
		R                calc.QuorumResult
		Status, Writable string
		Advice           noteList
	}{root: r, Members: members, Failed: failed, R: res}
	if qerr != nil {
		c.Report("quorum: %s", inputErrorText(qerr))
		data.Error = r.fieldError(qerr)
	} else {
		data.Status = quorumStatus(r.L, res)
		data.Writable = mark(res.Writable, r.L["yes"], r.L["no"])
		data.Advice = notes("advice", res.Advice, r.Lang)
	}
	data.Advice.Name = "advice"
	return wd.tmpl.ExecuteTemplate(w, "quorum", data)
}

func quorumStatus(l map[string]string, r calc.QuorumResult) string {
	key := "quorum_lost"
	if r.Writable {
		key = "quorum_ok"
	}
	return fill(l[key], "alive", strconv.Itoa(r.Alive), "members", strconv.Itoa(r.Members), "quorum", strconv.Itoa(r.Quorum))
}
