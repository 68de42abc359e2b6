package dashboard

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/clmeter/clmeter/fail"
)

// loopbackNames are the host names every dashboard answers to.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// hostName is the name part of a Host header or an address (no port, no
// brackets, lower case, no trailing dot).
func hostName(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// isLoopback reports whether host (a name or an IP) is this machine only.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckAddr returns why the dashboard may not listen on addr, or nil, and a
// one-line warning to print when it may but is reachable from other machines.
// An address beyond the loopback interface (":8080", "0.0.0.0:8080", a
// network IP or host name) needs public; without it the error names the
// --public flag.
func CheckAddr(addr string, public bool) (warning string, err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fail.Usagef("--addr %q: want HOST:PORT, such as %s", addr, DefaultAddr)
	}
	h := hostName(host)
	if isLoopback(h) {
		return "", nil
	}
	where := h
	if where == "" || where == "0.0.0.0" || where == "::" {
		where = "every interface"
	}
	if !public {
		return "", fail.Usagef("--addr %s listens beyond this machine (%s) and lets anyone who reaches it read the store: add --public to mean it, or use 127.0.0.1:PORT", addr, where)
	}
	return fmt.Sprintf("clmeter serve: warning: --public: listening on %s (%s): anyone who reaches this machine can read the store", addr, where), nil
}

// allowHosts sets the host names s answers besides the loopback ones: the
// host of the address it listens on and, when that is beyond loopback, any
// IP address and this machine's own name.
func (s *Server) allowHosts(addr string, public bool) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return
	}
	if h := hostName(host); h != "" && h != "0.0.0.0" && h != "::" {
		s.hosts[h] = true
	}
	if public {
		s.anyIP = true
		if name, err := os.Hostname(); err == nil && name != "" {
			name = hostName(name)
			s.hosts[name] = true
			s.hosts[strings.SplitN(name, ".", 2)[0]] = true
		}
	}
}

// knownHost reports whether a request's Host header names this dashboard. A
// foreign name (a DNS-rebinding page's) is refused, so that no other site's
// page can read the store through the user's browser.
func (s *Server) knownHost(r *http.Request) bool {
	h := hostName(r.Host)
	if s.hosts[h] {
		return true
	}
	return s.anyIP && net.ParseIP(h) != nil
}

// misdirected answers a request for a host name that is not this dashboard's.
func misdirected(w http.ResponseWriter) {
	http.Error(w, "421 misdirected request: this dashboard answers only its own host names (localhost, 127.0.0.1, [::1], its --addr host)", http.StatusMisdirectedRequest)
}
