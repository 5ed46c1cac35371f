package calc

import "strconv"

// QuorumResult is the state of an etcd cluster of Members members of which
// Failed are down.
type QuorumResult struct {
	Members int `json:"members"`
	Failed  int `json:"failed"`
	// Quorum is ⌊Members/2⌋+1, the members that must agree on a write.
	Quorum int `json:"quorum"`
	// Tolerance is ⌊(Members−1)/2⌋, the failures the cluster survives.
	Tolerance int `json:"tolerance"`
	// Alive is Members − Failed.
	Alive int `json:"alive"`
	// Writable is Alive ≥ Quorum.
	Writable bool `json:"writable"`
	// Advice holds the traps that apply to this size and state, in a fixed
	// order; codes are documented in docs/calc-api.md.
	Advice []Reason `json:"advice"`
}

// Advice codes returned by Quorum.
const (
	AdviceQuorumLost       = "quorum.lost"
	AdviceAtLimit          = "quorum.at-limit"
	AdviceNoTolerance      = "quorum.no-tolerance"
	AdviceEven             = "quorum.even"
	AdviceGrowOneToTwo     = "quorum.grow-1-to-2"
	AdviceAddWhileDegraded = "quorum.add-while-degraded"
)

// QuorumOf is ⌊n/2⌋+1, the majority of n members.
func QuorumOf(n int) int { return n/2 + 1 }

// Quorum computes quorum, tolerance and writability for an etcd cluster of
// members members with failed of them down. members < 1, failed < 0 and
// failed > members are errors naming the field.
//
// The advice follows etcd's documentation (FAQ "Why an odd number of
// cluster members?" and "Should I add a member before removing an
// unhealthy member?"; runtime reconfiguration): an even size tolerates no
// more failures than the odd size below it; growing a one-member cluster to
// two makes the new member's start a single point of failure (quorum
// becomes 2). Adding a member while one is down is refused by default:
// etcd's server/etcdserver/server.go AddMember calls mayAddMember, which
// with --strict-reconfig-check=true (the default) returns ErrUnhealthy,
// "etcdserver: unhealthy cluster" (server/etcdserver/errors/errors.go),
// unless isConnectedFullySince finds every voting peer connected — learners
// included, which is how kubeadm adds a joining control plane's member
// (cmd/kubeadm/app/phases/etcd/local.go: AddMemberAsLearner, then
// MemberPromote). With the check off, the new, not yet started voting
// member would count towards the size at once and could leave writes
// without a quorum; either way, remove the dead member first. The advice
// is given where that second danger exists too: alive < quorum of N+1.
func Quorum(members, failed int) (QuorumResult, error) {
	if members < 1 {
		return QuorumResult{}, inputErr("members", "err.members-min", "value", strconv.Itoa(members))
	}
	if failed < 0 {
		return QuorumResult{}, inputErr("failed", "err.failed-negative", "value", strconv.Itoa(failed))
	}
	if failed > members {
		return QuorumResult{}, inputErr("failed", "err.failed-gt-members", "value", strconv.Itoa(failed), "members", strconv.Itoa(members))
	}
	r := QuorumResult{
		Members:   members,
		Failed:    failed,
		Quorum:    QuorumOf(members),
		Tolerance: (members - 1) / 2,
		Alive:     members - failed,
	}
	r.Writable = r.Alive >= r.Quorum
	n, q, t, a := strconv.Itoa(members), strconv.Itoa(r.Quorum), strconv.Itoa(r.Tolerance), strconv.Itoa(r.Alive)
	r.Advice = []Reason{}
	switch {
	case !r.Writable:
		r.Advice = append(r.Advice, R(AdviceQuorumLost, "alive", a, "quorum", q, "members", n))
	case failed > 0 && failed == r.Tolerance:
		r.Advice = append(r.Advice, R(AdviceAtLimit, "alive", a, "quorum", q))
	}
	if r.Tolerance == 0 {
		r.Advice = append(r.Advice, R(AdviceNoTolerance, "members", n, "quorum", q))
	}
	if members%2 == 0 {
		r.Advice = append(r.Advice, R(AdviceEven, "members", n, "odd", strconv.Itoa(members-1),
			"tolerance", t, "quorum", q))
	}
	if members == 1 && failed == 0 {
		r.Advice = append(r.Advice, R(AdviceGrowOneToTwo))
	}
	if failed > 0 && r.Writable && r.Alive < QuorumOf(members+1) {
		r.Advice = append(r.Advice, R(AdviceAddWhileDegraded, "members", n, "failed", strconv.Itoa(failed),
			"grown", strconv.Itoa(members+1), "grownQuorum", strconv.Itoa(QuorumOf(members+1)), "alive", a))
	}
	return r, nil
}
