package i18n

import "strings"

// KeyGroup is the UI string keys one part of kakehashi's Go code asks a
// Bundle (or Fallback) for.
type KeyGroup struct {
	// User names the code asking, as a diagnostic says it: "(used by the
	// markdown renderer)".
	User string
	// Package is the folder of the package asking, from the module root.
	Package string
	// Keys lists every key the code asks for, those it builds at run time
	// included.
	Keys []string
	// Built lists the prefixes of the keys the code builds at run time
	// ("callout_"+kind): Keys holds every key it can build.
	Built []string
}

// CodeKeys is the inventory of the UI string keys kakehashi's Go code uses:
// every one must be in every language a site builds (the build checks it),
// and a key of the strings files no code and no template uses is reported
// as unused. TestCodeKeys scans the repository's Go code for the lookups
// and keeps this list exact.
//
// The theme's templates are not listed here: the build reads their keys
// from their parse trees (build/render).
var CodeKeys = []KeyGroup{
	// build/markdown: the heading anchors' label, the code blocks' copy
	// button, the mark of a link to a planned part.
	{User: "the markdown renderer", Package: "build/markdown", Keys: []string{"anchor", "copied", "copy", "planned"}},
	// shortcodes: part (the planned mark), callout (its default title, by
	// kind), quorum's static table, Hugo's details (its default summary)
	// and youtube (its player's title, its link to the video).
	{User: "the built-in shortcodes", Package: "shortcodes", Keys: []string{
		"callout_exam", "callout_note", "callout_tip", "callout_warning", "details_summary",
		"planned", "quorum_members", "quorum_quorum", "quorum_tolerance", "youtube_link", "youtube_title",
	}, Built: []string{"callout_"}},
	// shortcodes (quorum, san, ha-sim): the calculators' markup, and the
	// texts calc.js reads from the widget's data-text attribute (newRoot
	// adds "calc_" to each key it is given).
	{User: "the calculator widgets", Package: "shortcodes", Keys: []string{
		"calc_alive", "calc_advertiseAddress", "calc_apiservers", "calc_certSANs", "calc_certs",
		"calc_controlPlaneEndpoint", "calc_dial", "calc_dns", "calc_dnsDomain", "calc_down",
		"calc_endpoint", "calc_endpointReach", "calc_endpoint_lb", "calc_endpoint_node",
		"calc_etcd", "calc_etcd_external", "calc_etcd_lost", "calc_etcd_ok", "calc_etcd_stacked", "calc_failed", "calc_field_error", "calc_fails", "calc_ha_fail", "calc_ha_ok",
		"calc_ha_title_external", "calc_ha_title_stacked", "calc_hint", "calc_ips",
		"calc_kind", "calc_kind_apiserver", "calc_kind_etcd_peer", "calc_kind_etcd_server",
		"calc_kubectl", "calc_kubelets", "calc_load_failed", "calc_loading", "calc_no", "calc_no_cert",
		"calc_nodeName", "calc_none", "calc_noscript", "calc_pem",
		"calc_pem_loading", "calc_quorum_lost", "calc_quorum_ok", "calc_quorum_title",
		"calc_reachable", "calc_reset", "calc_san_fail", "calc_san_ok", "calc_san_title",
		"calc_serviceSubnet", "calc_unreachable", "calc_verify", "calc_works",
		"calc_writable", "calc_yes", "diagram_down",
	}, Built: []string{"calc_etcd_", "calc_ha_title_", "calc_kind_"}},
	// shortcodes/diagram: the topology diagrams' words and the sentences
	// of their accessible description (diagram.LabelKeys).
	{User: "the topology diagrams", Package: "shortcodes/diagram", Keys: []string{
		"diagram_apiserver", "diagram_component", "diagram_control_plane", "diagram_down", "diagram_down_list",
		"diagram_end", "diagram_endpoint", "diagram_etcd", "diagram_external", "diagram_external_etcd",
		"diagram_list_sep", "diagram_load_balancer", "diagram_moved", "diagram_sep", "diagram_stacked",
		"diagram_title", "diagram_via_lb", "diagram_via_lb_addr", "diagram_via_node", "diagram_via_node_addr",
		"diagram_worker", "diagram_workers",
	}},
	// build/page: the description of an untranslated article's page, the
	// title of the tag index and of the 404 page.
	{User: "the page assembler", Package: "build/page", Keys: []string{"glossary", "not_found_title", "tags", "translation_missing"}},
	// build/render: the layouts' date function formats with date_format.
	{User: "the theme's date function", Package: "build/render", Keys: []string{"date_format"}},
	// build/export: the single-file course's dates and table of contents,
	// and the note of its calculators, which it runs none of
	// (shortcodes.StaticWidgets).
	{User: "the single-file export", Package: "build/export", Keys: []string{"calc_static", "date_format", "toc"}},
	// build/scaffold: the first text of a page "kakehashi new part" writes.
	{User: "kakehashi new part", Package: "build/scaffold", Keys: []string{"new_part_body"}},
	// build/serve: the translator's view of the authoring server (/_pair/),
	// its copy buttons, and the first text of a missing page it shows how
	// to write.
	{User: "the translator's view (kakehashi serve)", Package: "build/serve", Keys: []string{
		"copied", "copy", "copy_failed", "new_part_body", "pair_back", "pair_block_added",
		"pair_block_changed", "pair_block_line", "pair_block_was", "pair_blocks", "pair_col_file",
		"pair_col_page", "pair_filter_all", "pair_filter_lang", "pair_filter_state", "pair_filters",
		"pair_heading", "pair_index_intro", "pair_index_title", "pair_mark_button", "pair_mark_refused",
		"pair_mark_same", "pair_mark_token", "pair_marked", "pair_missing_in", "pair_missing_side",
		"pair_nocopy", "pair_none", "pair_note_current", "pair_note_stale", "pair_note_stale_undated",
		"pair_note_unmarked", "pair_original", "pair_removed", "pair_scaffold_part",
		"pair_scaffold_path", "pair_scaffold_text", "pair_shown", "pair_stale_since",
		"pair_state_current", "pair_state_missing", "pair_state_stale", "pair_state_unmarked",
		"pair_status_label", "pair_unavailable", "pair_unchanged",
	}},
}

// LangNameFormat is the key, as a fmt format of a language code, of a
// language's name in another language: lang_ko is "韓国語" in ja.toml.
// The default theme builds it with printf "lang_%s" (a part only in its
// original language); a site needs one for each of its languages.
const LangNameFormat = "lang_%s"

// LangNameKey is the key of the name of lang, by LangNameFormat.
func LangNameKey(lang string) string {
	return strings.Replace(LangNameFormat, "%s", lang, 1)
}

// CodeKeyUsers maps each key of CodeKeys to the users asking for it,
// joined with " and " in the order of CodeKeys.
func CodeKeyUsers() map[string]string {
	users := make(map[string]string)
	for _, g := range CodeKeys {
		for _, k := range g.Keys {
			if u := users[k]; u != "" {
				users[k] = u + " and " + g.User
			} else {
				users[k] = g.User
			}
		}
	}
	return users
}
