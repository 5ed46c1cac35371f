package serve

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
)

// NextPorts is how many ports after the default Listen tries when the
// default is in use.
const NextPorts = 10

// Listen listens on bind:port. When that port is in use and was not asked
// for (explicit false: the default), it takes the first free one of the
// next NextPorts, as Hugo's server does, and note says so; a port asked
// for that is in use is an error that says how to choose another.
func Listen(bind string, port int, explicit bool) (ln net.Listener, note string, err error) {
	addr := net.JoinHostPort(bind, strconv.Itoa(port))
	ln, err = net.Listen("tcp", addr)
	if err == nil || !errors.Is(err, syscall.EADDRINUSE) {
		if err != nil {
			err = fmt.Errorf("cannot listen on %s: %v (choose another address with --bind, or a port with --port N)", addr, unwrapOp(err))
		}
		return ln, "", err
	}
	if !explicit && port != 0 {
		for p := port + 1; p <= port+NextPorts && p < 65536; p++ {
			if ln, err2 := net.Listen("tcp", net.JoinHostPort(bind, strconv.Itoa(p))); err2 == nil {
				return ln, fmt.Sprintf("port %d is in use; serving on port %d instead (--port N chooses one)", port, p), nil
			}
		}
	}
	return nil, "", fmt.Errorf("port %d on %s is in use (another kakehashi serve or hugo server?): stop that server, or choose another port with --port N (--port 0: any free port)", port, bind)
}

// unwrapOp is the operating system's reason in a listening error, without
// the address that the message already names.
func unwrapOp(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

// URL is the address a browser opens for a server listening on ln, bound
// to bind: an address bound to every interface is opened on 127.0.0.1.
func URL(bind string, ln net.Listener) string {
	host := bind
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)) + "/"
}

// OpenBrowser runs the system's opener for url, quietly, when there is
// one.
func OpenBrowser(url string) {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		return
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return
	}
	cmd := exec.Command(bin, url)
	if cmd.Start() == nil {
		go cmd.Wait() // reap it; its exit status does not matter
	}
}
