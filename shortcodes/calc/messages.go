package calc

// templates returns the English, Japanese and Korean templates of a reason
// code; {name} stands for the argument name. An unknown code returns empty
// strings. It is a switch, not a map, so the catalogue is not mutable
// package state.
func templates(code string) (en, ja, ko string) {
	switch code {
	// Quorum advice.
	case AdviceQuorumLost:
		return "Quorum lost: {alive} of {members} members alive, {quorum} needed. etcd refuses every write and the apiservers on top of it stop working.",
			"クォーラム喪失: {members} メンバー中 {alive} だけが生きていますが、{quorum} 必要です。etcd はすべての書き込みを拒否し、その上の apiserver も事実上止まります。",
			"쿼럼 상실: {members} 멤버 중 {alive} 개만 살아 있고 {quorum} 개가 필요합니다. etcd 는 모든 쓰기를 거부하고, 그 위의 apiserver 도 사실상 멈춥니다."
	case AdviceAtLimit:
		return "At the limit: {alive} members alive, exactly the quorum of {quorum}. One more failure stops all writes.",
			"限界です: 生きているメンバーは {alive} で、クォーラム {quorum} ちょうどです。あと 1 台落ちるとすべての書き込みが止まります。",
			"한계입니다: 살아 있는 멤버는 {alive} 개로 쿼럼 {quorum} 과 같습니다. 한 대만 더 죽으면 모든 쓰기가 멈춥니다."
	case AdviceNoTolerance:
		return "{members} member(s) tolerate no failure: the quorum is {quorum}, so losing any member stops writes.",
			"{members} メンバーは障害に 1 台も耐えられません。クォーラムが {quorum} なので、どのメンバーが落ちても書き込みが止まります。",
			"{members} 멤버는 장애를 한 대도 견디지 못합니다. 쿼럼이 {quorum} 이므로 어느 멤버가 죽어도 쓰기가 멈춥니다."
	case AdviceEven:
		return "An even size: {members} members need {quorum} for quorum and tolerate {tolerance} failure(s), no more than {odd} members. Use an odd number (3 or 5).",
			"偶数です: {members} メンバーのクォーラムは {quorum} で、耐えられる障害は {tolerance} 台、{odd} メンバーと変わりません。奇数 (3 または 5) にしてください。",
			"짝수입니다: {members} 멤버의 쿼럼은 {quorum} 이고 견딜 수 있는 장애는 {tolerance} 대로 {odd} 멤버와 같습니다. 홀수 (3 또는 5) 로 구성하세요."
	case AdviceGrowOneToTwo:
		return "Growing from 1 to 2 members raises the quorum to 2: from `etcdctl member add` on, writes stop until the new member has started, and they stop again whenever either member fails. Go on to 3.",
			"1 メンバーから 2 メンバーに増やすとクォーラムが 2 になります。etcdctl member add の直後から新メンバーが起動するまで書き込みは止まり、以後もどちらか 1 台が落ちるだけで止まります。3 メンバーまで進めてください。",
			"1 멤버에서 2 멤버로 늘리면 쿼럼이 2 가 됩니다. etcdctl member add 직후부터 새 멤버가 기동할 때까지 쓰기가 멈추고, 이후에도 어느 한 대만 죽어도 멈춥니다. 3 멤버까지 진행하세요."
	case AdviceAddWhileDegraded:
		return "Do not add a member now: with {failed} member(s) down, adding one makes {grown} members with a quorum of {grownQuorum}, but only {alive} are alive, so writes stop until the new member starts. Remove the failed member first, then add.",
			"今メンバーを追加してはいけません。{failed} 台が落ちた状態で追加すると {grown} メンバーでクォーラムは {grownQuorum} になりますが、生きているのは {alive} なので、新メンバーが起動するまで書き込みが止まります。先に故障したメンバーを削除してから追加してください。",
			"지금 멤버를 추가하면 안 됩니다. {failed} 대가 죽은 상태에서 추가하면 {grown} 멤버에 쿼럼은 {grownQuorum} 이 되지만 살아 있는 것은 {alive} 개뿐이라, 새 멤버가 기동할 때까지 쓰기가 멈춥니다. 먼저 고장 난 멤버를 제거한 뒤 추가하세요."

	// Input errors.
	case "err.members-min":
		return "must be at least 1, got {value}",
			"1 以上でなければなりません ({value} が指定されました)",
			"1 이상이어야 합니다 ({value} 가 지정되었습니다)"
	case "err.failed-negative":
		return "must not be negative, got {value}",
			"負の値は指定できません ({value} が指定されました)",
			"음수는 지정할 수 없습니다 ({value} 가 지정되었습니다)"
	case "err.failed-gt-members":
		return "{value} failed members is more than the {members} members",
			"故障数 {value} がメンバー数 {members} を超えています",
			"장애 수 {value} 가 멤버 수 {members} 를 넘습니다"
	case "err.not-integer":
		return "must be an integer, got {value}",
			"整数でなければなりません ({value} が指定されました)",
			"정수여야 합니다 ({value} 가 지정되었습니다)"
	case "err.type":
		return "must be {want}, got {got}",
			"{want} でなければなりません ({got} が指定されました)",
			"{want} 여야 합니다 ({got} 가 지정되었습니다)"
	case "err.required":
		return "is required",
			"必須です",
			"필수입니다"
	case "err.unknown-function":
		return "no calculator named {value}",
			"{value} という計算機はありません",
			"{value} 라는 계산기는 없습니다"
	case "err.internal":
		return "internal error: {value}",
			"内部エラー: {value}",
			"내부 오류: {value}"
	}
	return "", "", ""
}
