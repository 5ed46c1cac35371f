package calc

// templates returns the English, Japanese and Korean templates of a reason
// code; {name} stands for the argument name. An unknown code returns empty
// strings. It is a switch, not a map, so the catalogue is not mutable
// package state.
func templates(code string) (en, ja, ko string) {
	for _, section := range []func(string) (string, string, string, bool){
		quorumTexts, sanTexts, hostTexts, haTexts, inputTexts, valueTexts,
	} {
		if en, ja, ko, ok := section(code); ok {
			return en, ja, ko
		}
	}
	return "", "", ""
}

// template is the template of code in lang: the catalogue's text in
// that language, the English one for a language it has none in.
func template(code, lang string) string {
	en, ja, ko := templates(code)
	if t, ok := map[string]string{"en": en, "ja": ja, "ko": ko}[lang]; ok {
		return t
	}
	return en
}

// quorumTexts holds the templates of the quorum calculator's advice.
func quorumTexts(code string) (en, ja, ko string, ok bool) {
	switch code {
	case AdviceQuorumLost:
		return "Quorum lost: {alive} of {members} members alive, {quorum} needed. etcd refuses every write and the apiservers on top of it stop working.",
			"クォーラム喪失: {members} メンバー中、生存は {alive}、必要なのは {quorum} です。etcd はすべての書き込みを拒否し、その上の apiserver も事実上止まります。",
			"쿼럼 상실: 멤버 {members}개 중 생존 {alive}개, 쿼럼에는 {quorum}개가 필요합니다. etcd는 모든 쓰기를 거부하고, 그 위의 apiserver도 사실상 멈춥니다.", true
	case AdviceAtLimit:
		return "At the limit: {alive} members alive, exactly the quorum of {quorum}. One more failure stops all writes.",
			"限界です: 生存メンバーは {alive} で、クォーラム {quorum} ちょうどです。あと 1 台停止するとすべての書き込みが止まります。",
			"더 이상 여유가 없습니다: 생존 멤버 수({alive}개)가 쿼럼({quorum}개)과 같습니다. 한 대만 더 다운되면 모든 쓰기가 멈춥니다.", true
	case AdviceNoTolerance:
		return "{members} member(s) tolerate no failure: the quorum is {quorum}, so losing any member stops writes.",
			"{members} メンバー構成では、1 台の障害にも耐えられません。クォーラムが {quorum} なので、どのメンバーが停止しても書き込みが止まります。",
			"멤버 {members}개로는 장애를 한 대도 견디지 못합니다. 쿼럼이 {quorum}개이므로 어느 멤버가 다운되어도 쓰기가 멈춥니다.", true
	case AdviceEven:
		return "An even size: {members} members need {quorum} for quorum and tolerate {tolerance} failure(s), no more than {odd} members. Use an odd number (3 or 5).",
			"偶数です: {members} メンバーではクォーラムが {quorum}、耐えられる障害は {tolerance} 台で、{odd} メンバーのときと変わりません。奇数 (3 または 5) にしてください。",
			"멤버 수가 짝수입니다: 멤버 {members}개의 쿼럼은 {quorum}개이고, 견딜 수 있는 장애는 {tolerance}대로 멤버 {odd}개일 때와 같습니다. 홀수(3 또는 5)로 구성하세요.", true
	case AdviceGrowOneToTwo:
		return "Growing from 1 to 2 members raises the quorum to 2: from `etcdctl member add` on, writes stop until the new member has started, and they stop again whenever either member fails. Go on to 3.",
			"1 メンバーから 2 メンバーに増やすとクォーラムが 2 になります。etcdctl member add の直後から新メンバーが起動するまで書き込みは止まり、以後もどちらか 1 台が停止するだけで止まります。3 メンバーまで進めてください。",
			"멤버를 1개에서 2개로 늘리면 쿼럼이 2가 됩니다. etcdctl member add 직후부터 새 멤버가 시작될 때까지 쓰기가 멈추고, 이후에도 어느 한 대만 다운되어도 멈춥니다. 멤버 3개까지 늘리세요.", true
	case AdviceAddWhileDegraded:
		return "Do not add a member now: etcd refuses it by default. With --strict-reconfig-check=true, the default, `etcdctl member add` fails with \"etcdserver: unhealthy cluster\" while a voting member is unreachable ({failed} down), and so does kubeadm join --control-plane, although kubeadm adds the new member as a non-voting learner first. Were the check off, a voting member added now would make {grown} members with a quorum of {grownQuorum} while only {alive} are alive, and writes would stop until it started. Remove the failed member first (etcdctl member remove), then add.",
			"今メンバーを追加してはいけません。etcd は既定で追加を拒否します。既定の --strict-reconfig-check=true では、投票メンバーに 1 台でも接続できないあいだ ({failed} 台が停止)、etcdctl member add は「etcdserver: unhealthy cluster」で失敗します。kubeadm join --control-plane も、新メンバーをまず投票しない learner として追加しますが、同じく失敗します。チェックを無効にして投票メンバーを追加すると、{grown} メンバーでクォーラムは {grownQuorum} になるのに生存しているのは {alive} なので、新メンバーが起動するまで書き込みが止まります。先に停止したメンバーを削除 (etcdctl member remove) してから追加してください。",
			"지금 멤버를 추가하면 안 됩니다. etcd는 기본적으로 추가를 거부합니다. 기본값인 --strict-reconfig-check=true에서는 투표 멤버 중 하나라도 연결되지 않는 동안(다운 {failed}대) etcdctl member add가 \"etcdserver: unhealthy cluster\" 오류로 실패합니다. kubeadm join --control-plane도 새 멤버를 먼저 투표권이 없는 learner로 추가하지만 마찬가지로 실패합니다. 검사를 끄고 투표 멤버를 추가하면 멤버가 {grown}개가 되어 쿼럼 {grownQuorum}개가 필요한데 생존 멤버는 {alive}개뿐이어서, 새 멤버가 시작될 때까지 쓰기가 멈춥니다. 먼저 다운된 멤버를 제거(etcdctl member remove)한 뒤 추가하세요.", true

	}
	return "", "", "", false
}

// sanTexts holds the templates of the SAN calculator's warnings.
func sanTexts(code string) (en, ja, ko string, ok bool) {
	switch code {
	case WarnNoEndpoint:
		return "No controlPlaneEndpoint: kubeconfigs and kubelets will point at this node's address {address}. Adding control planes later means new certificates and kubeconfigs; set a load balancer address from the first kubeadm init.",
			"controlPlaneEndpoint がありません。kubeconfig と kubelet はこのノードのアドレス {address} を向きます。後から control plane を増やすには証明書と kubeconfig を作り直す必要があるので、最初の kubeadm init からロードバランサーのアドレスを指定してください。",
			"controlPlaneEndpoint가 없습니다. kubeconfig와 kubelet은 이 노드의 주소 {address}{을/를} 향합니다. 나중에 컨트롤 플레인을 늘리려면 인증서와 kubeconfig를 다시 만들어야 하므로, 처음 kubeadm init부터 로드밸런서 주소를 지정하세요.", true
	case WarnEndpointIsNode:
		return "The endpoint {endpoint} is {node}'s own address: when {node} is down, kubectl and every kubelet lose the API even if etcd keeps quorum. Use a load balancer, a VIP or a DNS name.",
			"エンドポイント {endpoint} は {node} 自身のアドレスです。{node} が停止すると、etcd がクォーラムを保っていても kubectl とすべての kubelet が API に届かなくなります。ロードバランサー、VIP または DNS 名を使ってください。",
			"엔드포인트 {endpoint}{은/는} {node} 노드의 주소입니다. {node} 노드가 다운되면 etcd가 쿼럼을 유지해도 kubectl과 모든 kubelet이 API에 접근할 수 없습니다. 로드밸런서, VIP 또는 DNS 이름을 사용하세요.", true
	case WarnUnspecifiedAddr:
		return "The advertise address {address} is unspecified: kubeadm replaces it with the address of the interface on the default route, and that address is what the certificate will name.",
			"advertise アドレス {address} は未指定アドレスです。kubeadm はデフォルトルートのインターフェースのアドレスに置き換え、証明書にはそのアドレスが入ります。",
			"advertise 주소 {address}{은/는} 미지정 주소입니다. kubeadm은 기본 경로 인터페이스의 주소로 바꾸고, 인증서에는 그 주소가 들어갑니다.", true
	case WarnEtcdExternal:
		return "With external etcd kubeadm makes no {kind} certificate, nor any other certificate of the etcd CA (etcd server, peer, healthcheck-client, apiserver-etcd-client): the etcd cluster's certificates are yours to make, and kubeadm only uses the client certificate you give it in etcd.external (caFile, certFile, keyFile).",
			"外部 etcd では kubeadm は {kind} の証明書を作りません。etcd CA の証明書 (etcd のサーバー、ピア、healthcheck-client、apiserver-etcd-client) はどれも作られません。etcd クラスターの証明書は自分で用意し、kubeadm は etcd.external (caFile、certFile、keyFile) で渡されたクライアント証明書を使うだけです。",
			"외부 etcd에서는 kubeadm이 {kind} 인증서를 만들지 않습니다. etcd CA의 인증서(etcd 서버, 피어, healthcheck-client, apiserver-etcd-client)는 하나도 만들지 않습니다. etcd 클러스터의 인증서는 직접 준비하고, kubeadm은 etcd.external(caFile, certFile, keyFile)로 건네받은 클라이언트 인증서만 사용합니다.", true
	case WarnLowercased:
		return "kubeadm lowercases {field} before validating it: {value} becomes {lower}, and that is the name the certificate and the cluster use.",
			"kubeadm は検証の前に {field} を小文字にします。{value} は {lower} になり、証明書にもクラスターにもその名前が使われます。",
			"kubeadm은 검증하기 전에 {field}{을/를} 소문자로 바꿉니다. {value}{은/는} {lower}{이/가} 되고, 인증서와 클러스터에는 그 이름이 쓰입니다.", true
	case WarnPerNodeCert:
		return "kubeadm makes this certificate on {node} itself, with its own advertise address {address}; joining control plane nodes make their own (--upload-certs shares only the CAs, etcd's included, and the service-account keys). So each apiserver's certificate names its own node's IP: dialing another control plane by its IP passes TLS unless certificates were copied by hand.",
			"kubeadm はこの証明書を {node} 上で、そのノード自身の advertise アドレス {address} を入れて作ります。ジョインする control plane ノードはそれぞれ自分の証明書を作ります (--upload-certs が共有するのは etcd の CA を含む CA と service account の鍵だけです)。そのため各 apiserver の証明書には自ノードの IP が入り、証明書を手でコピーしていなければ、ほかの control plane に IP で直接つないでも TLS 検証は通ります。",
			"kubeadm은 이 인증서를 {node} 노드에서 만들며, 그 노드의 advertise 주소 {address}{을/를} 넣습니다. 조인하는 컨트롤 플레인 노드는 각자 자기 인증서를 만듭니다(--upload-certs가 공유하는 것은 etcd의 CA를 포함한 CA와 service account 키뿐입니다). 그래서 각 apiserver의 인증서에는 자기 노드의 IP가 들어가고, 인증서를 수동으로 복사하지 않았다면 다른 컨트롤 플레인에 IP로 직접 접속해도 TLS 검증을 통과합니다.", true
	case WarnPerNodeCertExternal:
		return "kubeadm makes this certificate on {node} itself, with its own advertise address {address}; joining control plane nodes make their own (--upload-certs shares only the CAs, the service-account keys and the external etcd's CA certificate and client certificate and key). So each apiserver's certificate names its own node's IP: dialing another control plane by its IP passes TLS unless certificates were copied by hand.",
			"kubeadm はこの証明書を {node} 上で、そのノード自身の advertise アドレス {address} を入れて作ります。ジョインする control plane ノードはそれぞれ自分の証明書を作ります (--upload-certs が共有するのは CA と service account の鍵、それに外部 etcd の CA 証明書とクライアントの証明書と鍵だけです)。そのため各 apiserver の証明書には自ノードの IP が入り、証明書を手でコピーしていなければ、ほかの control plane に IP で直接つないでも TLS 検証は通ります。",
			"kubeadm은 이 인증서를 {node} 노드에서 만들며, 그 노드의 advertise 주소 {address}{을/를} 넣습니다. 조인하는 컨트롤 플레인 노드는 각자 자기 인증서를 만듭니다(--upload-certs가 공유하는 것은 CA와 service account 키, 그리고 외부 etcd의 CA 인증서와 클라이언트 인증서·키뿐입니다). 그래서 각 apiserver의 인증서에는 자기 노드의 IP가 들어가고, 인증서를 수동으로 복사하지 않았다면 다른 컨트롤 플레인에 IP로 직접 접속해도 TLS 검증을 통과합니다.", true

	}
	return "", "", "", false
}

// hostTexts holds the templates of hostname verification.
func hostTexts(code string) (en, ja, ko string, ok bool) {
	switch code {
	case VerifyOKIP:
		return "Verified: the IP {host} is in the certificate's IP SANs ({san}).",
			"検証成功: IP {host} は証明書の IP SAN ({san}) に含まれています。",
			"검증 성공: IP {host}{은/는} 인증서의 IP SAN({san})에 들어 있습니다.", true
	case VerifyOKDNS:
		return "Verified: the name {host} matches the certificate's DNS SAN {san}.",
			"検証成功: 名前 {host} は証明書の DNS SAN {san} に一致します。",
			"검증 성공: 이름 {host}{이/가} 인증서의 DNS SAN {san}{과/와} 일치합니다.", true
	case VerifyIPNotCovered:
		return "{x509} — TLS verification fails: an IP is compared only with the certificate's IP SANs ({ips}); its DNS names ({dns}) do not count.",
			"{x509} — TLS 検証は失敗します。IP は証明書の IP SAN ({ips}) とだけ比較され、DNS 名 ({dns}) は照合の対象になりません。",
			"{x509} — TLS 검증은 실패합니다. IP는 인증서의 IP SAN({ips}){과/와}만 비교되며, DNS 이름({dns})은 고려되지 않습니다.", true
	case VerifyNameNotCovered:
		return "{x509} — TLS verification fails: the name you dial is compared with the certificate's DNS SANs ({dns}), not what it resolves to; its IP SANs ({ips}) do not count for a name.",
			"{x509} — TLS 検証は失敗します。比較されるのは接続先に書いた名前と証明書の DNS SAN ({dns}) で、名前解決の結果ではありません。名前の照合には IP SAN ({ips}) は使われません。",
			"{x509} — TLS 검증은 실패합니다. 비교되는 것은 접속할 때 쓴 이름과 인증서의 DNS SAN({dns})이며, 이름 해석 결과가 아닙니다. IP SAN({ips})은 이름에는 쓰이지 않습니다.", true
	case VerifyCertInfo:
		return "Certificate: subject {subject}, issued by {issuer}, valid from {notBefore} to {notAfter}.",
			"証明書: サブジェクト {subject}、発行者 {issuer}、有効期間 {notBefore} から {notAfter} まで。",
			"인증서: 주체 {subject}, 발급자 {issuer}, 유효 기간 {notBefore}부터 {notAfter}까지.", true

	}
	return "", "", "", false
}

// haTexts holds the templates of the HA simulator.
func haTexts(code string) (en, ja, ko string, ok bool) {
	switch code {
	case HAEtcdQuorum:
		return "etcd has quorum: {alive}/{members} members alive, {quorum} needed. Writes are accepted.",
			"etcd はクォーラムを保っています: {members} メンバー中 {alive} が生存、必要なのは {quorum}。書き込みを受け付けます。",
			"etcd가 쿼럼을 유지하고 있습니다(멤버 {members}개 중 {alive}개 생존, 쿼럼 {quorum}개). 쓰기를 처리합니다.", true
	case HAEtcdNoQuorum:
		return "etcd has lost quorum: {alive}/{members} members alive, {quorum} needed. Every write is refused.",
			"etcd はクォーラムを失いました: {members} メンバー中 {alive} が生存、必要なのは {quorum}。すべての書き込みが拒否されます。",
			"etcd가 쿼럼을 잃었습니다(멤버 {members}개 중 {alive}개 생존, 쿼럼 {quorum}개). 모든 쓰기가 거부됩니다.", true
	case HAAPIServing:
		return "The apiserver on {node} is serving.",
			"{node} の apiserver は動作しています。",
			"{node}의 apiserver는 동작하고 있습니다.", true
	case HAAPINodeDown:
		return "{node} is down, and its apiserver with it.",
			"{node} が停止しており、その apiserver も止まっています。",
			"{node}{이/가} 다운되어 그 apiserver도 멈춰 있습니다.", true
	case HAAPIFailed:
		return "The apiserver on {node} has failed.",
			"{node} の apiserver が停止しています。",
			"{node}의 apiserver가 다운되었습니다.", true
	case HAAPILocalEtcdDown:
		return "The apiserver on {node} talks only to its local etcd member (https://127.0.0.1:2379), which is down: it cannot serve.",
			"{node} の apiserver はローカルの etcd メンバー (https://127.0.0.1:2379) とだけ通信しますが、そのメンバーが停止しているので応答できません。",
			"{node}의 apiserver는 로컬 etcd 멤버(https://127.0.0.1:2379)와만 통신하는데, 그 멤버가 다운되어 응답할 수 없습니다.", true
	case HAAPINoQuorum:
		return "The apiserver on {node} is running but cannot serve: etcd has {alive} members alive and needs {quorum}.",
			"{node} の apiserver は動いていますが応答できません。etcd の生存メンバーは {alive} で、{quorum} 必要です。",
			"{node}의 apiserver는 실행 중이지만 응답할 수 없습니다. etcd 생존 멤버는 {alive}개이고 {quorum}개가 필요합니다.", true
	case HALBUp:
		return "The load balancer {endpoint} forwards to the serving apiservers: {backends}. (This assumes it health-checks them on /readyz or /healthz, as in kubeadm's HA guide; a plain TCP load balancer keeps sending connections to an apiserver that cannot serve, and requests fail now and then.)",
			"ロードバランサー {endpoint} は応答する apiserver に転送します: {backends}。(kubeadm の HA ガイドのように /readyz か /healthz でヘルスチェックしている場合です。ただの TCP ロードバランサーは応答できない apiserver にも接続を送り続け、リクエストがときどき失敗します。)",
			"로드밸런서 {endpoint}{은/는} 응답하는 apiserver로 요청을 전달합니다: {backends}. (kubeadm HA 가이드처럼 /readyz나 /healthz로 헬스 체크를 하는 경우입니다. 단순 TCP 로드밸런서는 응답할 수 없는 apiserver에도 계속 연결을 보내므로 요청이 간헐적으로 실패합니다.)", true
	case HALBDown:
		return "The load balancer {endpoint} is down: nothing reaches the API through the endpoint.",
			"ロードバランサー {endpoint} が停止しています。エンドポイント経由では API に届きません。",
			"로드밸런서 {endpoint}{이/가} 다운되었습니다. 엔드포인트를 통해서는 API에 접근할 수 없습니다.", true
	case HALBNoBackend:
		return "The load balancer {endpoint} is up but no apiserver serves behind it.",
			"ロードバランサー {endpoint} は動いていますが、背後で応答する apiserver がありません。",
			"로드밸런서 {endpoint}{은/는} 동작하지만 뒤에서 응답하는 apiserver가 없습니다.", true
	case HANodeEndpointSPOF:
		return "The endpoint {endpoint} is {node}'s own address, not a load balancer: the whole cluster's access depends on that one node.",
			"エンドポイント {endpoint} はロードバランサーではなく {node} 自身のアドレスです。クラスター全体へのアクセスがこの 1 台に依存します。",
			"엔드포인트 {endpoint}{은/는} 로드밸런서가 아니라 {node} 노드의 주소입니다. 클러스터 전체의 접근이 이 한 대에 달려 있습니다.", true
	case HANodeEndpointUp:
		return "The endpoint {endpoint} reaches the apiserver on {node}.",
			"エンドポイント {endpoint} は {node} の apiserver に届きます。",
			"엔드포인트 {endpoint}{을/를} 통해 {node}의 apiserver에 접근할 수 있습니다.", true
	case HANodeEndpointDown:
		return "The endpoint {endpoint} points at {node}, whose apiserver does not serve: dial tcp {endpoint} fails.",
			"エンドポイント {endpoint} は {node} を指していますが、その apiserver は応答しません。dial tcp {endpoint} が失敗します。",
			"엔드포인트 {endpoint}{은/는} {node} 노드를 가리키지만 그 apiserver가 응답하지 않습니다. dial tcp {endpoint}{이/가} 실패합니다.", true
	case HAKubectlOK:
		return "kubectl with admin.conf (server https://{endpoint}) works; TLS passes because kubeadm put the endpoint into every apiserver certificate.",
			"admin.conf (server https://{endpoint}) を使う kubectl は動きます。kubeadm がエンドポイントをすべての apiserver 証明書に入れているので TLS も通ります。",
			"admin.conf(server https://{endpoint})를 쓰는 kubectl은 동작합니다. kubeadm이 엔드포인트를 모든 apiserver 인증서에 넣었으므로 TLS 검증도 통과합니다.", true
	case HAKubectlFails:
		return "kubectl with admin.conf fails: its server is https://{endpoint}, which does not answer.",
			"admin.conf を使う kubectl は失敗します。server が https://{endpoint} で、そこが応答しません。",
			"admin.conf를 쓰는 kubectl은 실패합니다. server가 https://{endpoint}인데 이 주소가 응답하지 않습니다.", true
	case HAKubeletsOK:
		return "Worker kubelets reach the API through {endpoint}: node status and pod updates continue.",
			"ワーカーの kubelet は {endpoint} 経由で API に届きます。ノードの状態と Pod の更新は続きます。",
			"워커 kubelet은 {endpoint}{을/를} 통해 API에 접근합니다. 노드 상태와 Pod 갱신이 계속됩니다.", true
	case HAKubeletsFail:
		return "Worker kubelets cannot reach the API at {endpoint}: running pods keep running, but nodes go NotReady and nothing new is scheduled.",
			"ワーカーの kubelet は {endpoint} の API に届きません。動いている Pod は動き続けますが、ノードは NotReady になり、新しい Pod は配置されません。",
			"워커 kubelet은 {endpoint}의 API에 접근할 수 없습니다. 실행 중인 Pod는 계속 돌지만 노드는 NotReady가 되고 새 Pod는 배치되지 않습니다.", true
	case HADirectDial:
		return "The data is safe and {serving} still serve. Pointing kubectl at https://{ip}:6443 ({node}) would pass TLS: kubeadm generates each control plane's apiserver certificate on that node, with its own IP. (The article says it fails; that happens when certificates were copied from another node, or when you dial a name that is not among the SANs.)",
			"データは無事で、{serving} は応答しています。kubectl を https://{ip}:6443 ({node}) に向ければ TLS は通ります。kubeadm は各 control plane の apiserver 証明書をそのノード上で、そのノード自身の IP を入れて作るからです。(記事では失敗するとありますが、それは証明書を別のノードからコピーした場合や、SAN にない名前で接続した場合です。)",
			"데이터는 무사하고 {serving}{은/는} 응답합니다. kubectl의 접속 대상을 https://{ip}:6443({node}){으로/로} 바꾸면 TLS 검증을 통과합니다. kubeadm은 각 컨트롤 플레인의 apiserver 인증서를 그 노드에서, 그 노드의 IP를 넣어 만들기 때문입니다. (글에서는 실패한다고 하지만, 그것은 인증서를 다른 노드에서 복사했거나 SAN에 없는 이름으로 접속한 경우입니다.)", true

	}
	return "", "", "", false
}

// inputTexts holds the templates of the input errors about nodes, endpoints, dialled addresses and certificates.
func inputTexts(code string) (en, ja, ko string, ok bool) {
	switch code {
	case "err.no-lb":
		return "{value}: the endpoint is not a load balancer",
			"{value}: エンドポイントはロードバランサーではありません",
			"{value}: 엔드포인트가 로드밸런서가 아닙니다", true
	case "err.unknown-member":
		return "{value}: no etcd member of that name",
			"{value}: その名前の etcd メンバーはありません",
			"{value}: 그 이름의 etcd 멤버가 없습니다", true
	case "err.unknown-node":
		return "{value}: no node of that name",
			"{value}: その名前のノードはありません",
			"{value}: 그 이름의 노드가 없습니다", true
	case "err.duplicate":
		return "{value} is used twice",
			"{value} が重複しています",
			"{value}{이/가} 중복되었습니다", true
	case "err.endpoint-node":
		return "{value} is not the address or name of any control plane",
			"{value} はどの control plane のアドレスでも名前でもありません",
			"{value}{은/는} 어느 컨트롤 플레인의 주소도 이름도 아닙니다", true
	case "err.dial":
		return "{value} is not an address to dial: use host, host:port, [IPv6]:port or https://host:port",
			"{value} は接続先アドレスではありません。host、host:port、[IPv6]:port、https://host:port のいずれかにしてください",
			"{value}{은/는} 접속 주소가 아닙니다. host, host:port, [IPv6]:port, https://host:port 중 하나의 형식으로 입력하세요", true
	case "err.dial-port":
		return "{value} has an invalid port: it must be a number from 1 to 65535",
			"{value} のポートが不正です。1 から 65535 の数値でなければなりません",
			"{value}의 포트가 잘못되었습니다. 1부터 65535 사이의 숫자여야 합니다", true
	case "err.pem":
		return "no certificate could be read: {value}",
			"証明書を読み取れません: {value}",
			"인증서를 읽을 수 없습니다: {value}", true
	case "err.pem-module":
		return "reading a PEM certificate needs the calc-x509 module, which is not loaded",
			"PEM 証明書の読み取りには calc-x509 モジュールが必要ですが、読み込まれていません",
			"PEM 인증서를 읽으려면 calc-x509 모듈이 필요하지만 로드되지 않았습니다", true
	case "err.sans-or-pem":
		return "give either sans or pem, not both",
			"sans か pem のどちらか一方を指定してください",
			"sans와 pem 중 하나만 지정하세요", true
	}
	return "", "", "", false
}

// valueTexts holds the templates of the input errors about single values.
func valueTexts(code string) (en, ja, ko string, ok bool) {
	switch code {
	case "err.enum":
		return "{value} is not one of {allowed}",
			"{value} は {allowed} のいずれでもありません",
			"{value}{은/는} {allowed} 중 어느 것도 아닙니다", true
	case "err.dns1123":
		return "{value} is not a valid RFC 1123 DNS name (lowercase letters, digits, '-' and '.')",
			"{value} は RFC 1123 の DNS 名ではありません (小文字、数字、'-'、'.' のみ使えます)",
			"{value}{은/는} RFC 1123 DNS 이름이 아닙니다(소문자, 숫자, '-', '.'만 쓸 수 있습니다)", true
	case "err.ip":
		return "{value} is not a valid IP address",
			"{value} は有効な IP アドレスではありません",
			"{value}{은/는} 유효한 IP 주소가 아닙니다", true
	case "err.endpoint":
		return "{value} is not a valid endpoint: the host must be an IP address or an RFC 1123 DNS name, optionally followed by :port",
			"{value} は有効なエンドポイントではありません。ホストは IP アドレスか RFC 1123 の DNS 名で、:port を続けられます",
			"{value}{은/는} 유효한 엔드포인트가 아닙니다. 호스트는 IP 주소나 RFC 1123 DNS 이름이고, 뒤에 :port를 붙일 수 있습니다", true
	case "err.endpoint-scheme":
		return "{value} has a scheme: kubeadm wants host or host:port, without https://",
			"{value} にスキームが付いています。kubeadm が受け付けるのは https:// なしの host か host:port です",
			"{value}에 스킴이 붙어 있습니다. kubeadm은 https:// 없이 host 또는 host:port만 받습니다", true
	case "err.endpoint-case":
		return "{value} has capital letters: kubeadm accepts only lowercase DNS names",
			"{value} に大文字が含まれています。kubeadm は小文字の DNS 名しか受け付けません",
			"{value}에 대문자가 있습니다. kubeadm은 소문자 DNS 이름만 받습니다", true
	case "err.endpoint-port":
		return "{value} has an invalid port: it must be a number from 1 to 65535",
			"{value} のポートが不正です。1 から 65535 の数値でなければなりません",
			"{value}의 포트가 잘못되었습니다. 1부터 65535 사이의 숫자여야 합니다", true
	case "err.cidr":
		return "{value} is not a CIDR such as 10.96.0.0/12",
			"{value} は 10.96.0.0/12 のような CIDR ではありません",
			"{value}{은/는} 10.96.0.0/12 같은 CIDR가 아닙니다", true
	case "err.dual-stack":
		return "{value}: expected one CIDR, or two CIDRs of different families (IPv4 and IPv6) for dual-stack",
			"{value}: CIDR は 1 つか、デュアルスタックなら IPv4 と IPv6 の 2 つでなければなりません",
			"{value}: CIDR는 하나이거나, 듀얼 스택이라면 IPv4와 IPv6 두 개여야 합니다", true
	case "err.subnet-small":
		return "the subnet {value} with {size} address(es) is too small, the minimum is {min}",
			"サブネット {value} のアドレス数 {size} は小さすぎます。最小は {min} です",
			"서브넷 {value}의 주소 수 {size}{은/는} 너무 작습니다. 최소는 {min}입니다", true
	case "err.subnet-large":
		return "the service subnet {value} is too large: for {bits}-bit addresses the mask must be /{mask} or longer",
			"サービスサブネット {value} は大きすぎます。{bits} ビットのアドレスではマスクを /{mask} 以上にしてください",
			"서비스 서브넷 {value}{은/는} 너무 큽니다. {bits}비트 주소에서는 마스크가 /{mask} 이상이어야 합니다", true
	case "err.certsan":
		return "{value} is neither an IP address, an RFC 1123 DNS name nor a *. wildcard name",
			"{value} は IP アドレスでも、RFC 1123 の DNS 名でも、*. のワイルドカード名でもありません",
			"{value}{은/는} IP 주소도, RFC 1123 DNS 이름도, *. 와일드카드 이름도 아닙니다", true
	case "err.members-min":
		return "enter 1 or more, not {value}",
			"1 以上の値を入力してください ({value} は指定できません)",
			"1 이상의 값을 입력하세요({value}{은/는} 지정할 수 없습니다)", true
	case "err.failed-negative":
		return "enter 0 or more, not {value}",
			"0 以上の値を入力してください ({value} は指定できません)",
			"0 이상의 값을 입력하세요({value}{은/는} 지정할 수 없습니다)", true
	case "err.failed-gt-members":
		return "enter at most the number of members, {members}, not {value}",
			"メンバー数 {members} 以下の値を入力してください ({value} はメンバー数を超えています)",
			"멤버 수 {members} 이하의 값을 입력하세요({value}{은/는} 멤버 수보다 많습니다)", true
	case "err.not-integer":
		// The value stays in the reason's args; the text says what to do.
		return "enter an integer",
			"整数を入力してください",
			"정수를 입력하세요", true
	case CodeEmpty:
		return "not entered yet",
			"まだ入力されていません",
			"아직 입력되지 않았습니다", true
	case "err.type":
		return "must be {want}, got {got}",
			"{want} でなければなりません ({got} が指定されました)",
			"{want}{이어야/여야} 합니다({got}{이/가} 지정되었습니다)", true
	case "err.required":
		return "is required",
			"必須です",
			"필수입니다", true
	case "err.unknown-function":
		return "no calculator named {value}",
			"{value} という計算機はありません",
			"{value}{이라는/라는} 계산기는 없습니다", true
	case "err.internal":
		return "internal error: {value}",
			"内部エラー: {value}",
			"내부 오류: {value}", true
	}
	return "", "", "", false
}
