package i18n

// fallbacks are the UI strings a renderer uses when the page's own strings
// have no answer (a page rendered without a bundle, as tests and tools do,
// or a site whose i18n/ lacks a key): the ones the markdown renderer and
// the built-in shortcodes need. "" holds the English ones, used for any
// other language. The Japanese and Korean ones are ja.toml's and
// ko.toml's (TestFallbackAgreesWithTheFiles).
var fallbacks = map[string]map[string]string{
	"ja": {
		"planned": "準備中", "copy": "コピー", "copied": "コピーしました", "anchor": "この見出しへのリンク",
		"callout_note": "メモ", "callout_tip": "ヒント", "callout_warning": "注意", "callout_exam": "試験ポイント",
		"quorum_members": "メンバー数 (N)", "quorum_quorum": "クォーラム", "quorum_tolerance": "耐えられる障害数",
	},
	"ko": {
		"planned": "준비 중", "copy": "복사", "copied": "복사됨", "anchor": "이 제목으로 가는 링크",
		"callout_note": "메모", "callout_tip": "팁", "callout_warning": "주의", "callout_exam": "시험 포인트",
		"quorum_members": "멤버 수 (N)", "quorum_quorum": "쿼럼", "quorum_tolerance": "견딜 수 있는 장애 수",
	},
	"": {
		"planned": "planned", "copy": "Copy", "copied": "Copied", "anchor": "Link to this heading",
		"callout_note": "Note", "callout_tip": "Tip", "callout_warning": "Warning", "callout_exam": "Exam point",
		"quorum_members": "Members (N)", "quorum_quorum": "Quorum", "quorum_tolerance": "Failures tolerated",
	},
}

// Fallback returns the built-in UI string for key in lang, the English one
// when lang has none, or "" when there is no built-in string for key. It is
// the one place the markdown renderer and the shortcodes take a string
// from when the page's T gives none.
func Fallback(lang, key string) string {
	if s := fallbacks[lang][key]; s != "" {
		return s
	}
	return fallbacks[""][key]
}
