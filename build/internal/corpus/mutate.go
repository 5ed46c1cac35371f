package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// codeBlock is a fenced code block shared by the two translations of a part.
type codeBlock struct {
	lang string
	code string // ends in "\n"
}

var (
	ipRe      = regexp.MustCompile(`\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(/\d{1,2})?\b`)
	nodeRe    = regexp.MustCompile(`\b(cp|worker|etcd|node)-(\d+)\b`)
	versionRe = regexp.MustCompile(`\bv1\.(\d+)\.(\d+)\b`)
	refRe     = regexp.MustCompile(`(^|[^0-9A-Za-z#&/])#(\d{1,6})`)
)

// podCIDRs are the pod networks parts cycle through.
var podCIDRs = []string{"10.244.0.0/16", "192.168.0.0/16", "172.16.0.0/12", "10.32.0.0/12"}

// lab is the name of part n's lab cluster, the prefix of its node names.
func lab(n int) string { return fmt.Sprintf("lab%d", n) }

// nodeName is the name of node role-i in part n's lab.
func nodeName(n int, role string, i int) string { return fmt.Sprintf("%s-%s-%d", lab(n), role, i) }

// hostIP is the address of a host whose last octet is d in part n's lab.
func hostIP(n, d int) string { return fmt.Sprintf("10.%d.%d.%d", n/250%250, n%250, d) }

// version is the Kubernetes version part n runs.
func version(n int) string { return fmt.Sprintf("v1.%d.%d", 28+n%5, n%10) }

// hexOf is a deterministic hex string of length 2*k derived from s.
func hexOf(s string, k int) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:2*k]
}

// mutate adapts a code block to part n, step step: node names, addresses,
// pod network, version, token, hash and certificate key become the part's
// own, and a first line names the lab and step, so no two parts (and no two
// steps of a part) share a block.
func mutate(b codeBlock, n, step int) codeBlock {
	c := b.code
	c = ipRe.ReplaceAllStringFunc(c, func(m string) string {
		sub := ipRe.FindStringSubmatch(m)
		if sub[1] == "127" || sub[1] == "0" {
			return m
		}
		if sub[5] != "" {
			return podCIDRs[(n+step)%len(podCIDRs)]
		}
		d, _ := strconv.Atoi(sub[4])
		return hostIP(n, d)
	})
	c = nodeRe.ReplaceAllStringFunc(c, func(m string) string {
		sub := nodeRe.FindStringSubmatch(m)
		i, _ := strconv.Atoi(sub[2])
		return nodeName(n, sub[1], i)
	})
	c = versionRe.ReplaceAllString(c, version(n))
	if n%3 != 0 {
		c = strings.ReplaceAll(c, "LOAD_BALANCER_DNS", fmt.Sprintf("lb.%s.example.internal", lab(n)))
	}
	c = strings.ReplaceAll(c, "<token>", hexOf(fmt.Sprint("token", n), 3)+"."+hexOf(fmt.Sprint("token-secret", n), 8))
	c = strings.ReplaceAll(c, "<hash>", hexOf(fmt.Sprint("ca", n), 32))
	c = strings.ReplaceAll(c, "<certificate-key>", hexOf(fmt.Sprint("certificate-key", n), 32))
	return codeBlock{lang: b.lang, code: header(b.lang, n, step) + c}
}

// header is the first line of a part's code block: a comment where the
// language has one, a context switch in a console session, a label in text.
func header(lang string, n, step int) string {
	switch lang {
	case "console", "shell-session", "terminal":
		return fmt.Sprintf("$ kubectl config use-context %s-admin@%s  # step %d\n", lab(n), lab(n), step)
	case "bash", "sh", "shell", "yaml", "yml", "toml", "ini", "conf":
		return fmt.Sprintf("# %s, step %d\n", lab(n), step)
	}
	return fmt.Sprintf("[%s, step %d]\n", lab(n), step)
}

// renumberRefs rewrites every "#N" of a prose block to a part of the
// generated series (1..total), different for each part n.
func renumberRefs(s string, n, total int) string {
	return refRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := refRe.FindStringSubmatch(m)
		old, _ := strconv.Atoi(sub[2])
		return sub[1] + "#" + strconv.Itoa((old*131+n*7)%total+1)
	})
}

// templates are code blocks of the kind the course uses, added to those
// of the source articles so parts have several shell blocks each.
var templates = []codeBlock{
	{"bash", `kubectl drain cp-2 --ignore-daemonsets --delete-emptydir-data
sudo kubeadm upgrade apply v1.31.0 --yes
sudo systemctl restart kubelet
kubectl uncordon cp-2
`},
	{"bash", `ETCDCTL_API=3 etcdctl snapshot save /var/backups/etcd-snapshot.db \
  --endpoints=https://10.0.0.11:2379 \
  --cacert=/etc/kubernetes/pki/etcd/ca.crt \
  --cert=/etc/kubernetes/pki/etcd/server.crt \
  --key=/etc/kubernetes/pki/etcd/server.key
ETCDCTL_API=3 etcdctl snapshot status /var/backups/etcd-snapshot.db -w table
`},
	{"console", `$ kubectl get pods -n kube-system -o wide
NAME                          READY   STATUS    RESTARTS   AGE   IP           NODE
etcd-cp-1                     1/1     Running   0          41m   10.0.0.11    cp-1
kube-apiserver-cp-1           1/1     Running   0          41m   10.0.0.11    cp-1
kube-controller-manager-cp-1  1/1     Running   1          41m   10.0.0.11    cp-1
kube-scheduler-cp-1           1/1     Running   1          41m   10.0.0.11    cp-1
kube-proxy-7xk2p              1/1     Running   0          38m   10.0.0.21    worker-1
`},
	{"yaml", `apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
kubernetesVersion: v1.31.0
controlPlaneEndpoint: "10.0.0.100:6443"
networking:
  podSubnet: 10.244.0.0/16
  serviceSubnet: 10.96.0.0/12
etcd:
  external:
    endpoints:
      - https://10.0.0.31:2379
      - https://10.0.0.32:2379
      - https://10.0.0.33:2379
    caFile: /etc/kubernetes/pki/etcd/ca.crt
    certFile: /etc/kubernetes/pki/apiserver-etcd-client.crt
    keyFile: /etc/kubernetes/pki/apiserver-etcd-client.key
`},
	{"bash", `sudo crictl ps --name kube-apiserver
sudo crictl logs --tail 50 $(sudo crictl ps -q --name kube-apiserver)
sudo journalctl -u kubelet --since "10 min ago" --no-pager
`},
	{"console", `$ kubectl get nodes -o wide
NAME       STATUS     ROLES           AGE   VERSION   INTERNAL-IP
cp-1       Ready      control-plane   52d   v1.31.0   10.0.0.11
cp-2       Ready      control-plane   52d   v1.31.0   10.0.0.12
cp-3       NotReady   control-plane   52d   v1.31.0   10.0.0.13
worker-1   Ready      <none>          51d   v1.31.0   10.0.0.21
`},
	{"yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      nodeSelector:
        kubernetes.io/hostname: worker-1
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 80
`},
	{"bash", `ssh cp-1 'sudo grep -- --etcd-servers /etc/kubernetes/manifests/kube-apiserver.yaml'
ssh cp-1 'sudo grep -- --advertise-address /etc/kubernetes/manifests/kube-apiserver.yaml'
`},
	{"text", `frontend kube-apiserver
    bind *:6443
    mode tcp
    default_backend control-plane
backend control-plane
    mode tcp
    balance roundrobin
    server cp-1 10.0.0.11:6443 check
    server cp-2 10.0.0.12:6443 check
    server cp-3 10.0.0.13:6443 check
`},
	{"bash", `openssl x509 -in /etc/kubernetes/pki/apiserver.crt -noout -text \
  | grep -A1 "Subject Alternative Name"
sudo kubeadm certs check-expiration
`},
	{"console", `$ sudo kubeadm certs check-expiration
CERTIFICATE                EXPIRES                  RESIDUAL TIME   EXTERNALLY MANAGED
admin.conf                 Nov 02, 2027 09:14 UTC   364d            no
apiserver                  Nov 02, 2027 09:14 UTC   364d            no
apiserver-etcd-client      Nov 02, 2027 09:14 UTC   364d            no
etcd-server                Nov 02, 2027 09:14 UTC   364d            no
`},
	{"bash", `kubectl -n kube-system get lease kube-scheduler -o yaml | grep holderIdentity
kubectl -n kube-system get lease kube-controller-manager -o yaml | grep holderIdentity
kubectl get --raw='/readyz?verbose' | tail -n 5
`},
}
