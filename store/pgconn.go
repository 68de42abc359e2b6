package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"net"
	"regexp"
	"sync"
	"time"

	"github.com/lib/pq"
)

// unsupportedEnvRE finds lib/pq's refusal of a libpq environment variable
// it does not take (PGGSSENCMODE, PGCHANNELBINDING, ...).
var unsupportedEnvRE = regexp.MustCompile(`environment variable \$(PG[A-Z_]+) is not supported`)

// pgConfig is lib/pq's configuration of dsn (a URL, with the environment's
// PG* variables), or an error that names the store as where and says how
// to fix it.
func pgConfig(dsn, where string) (pq.Config, error) {
	cfg, err := pq.NewConfig(dsn)
	if err == nil {
		return cfg, nil
	}
	msg := RedactText(oneLine(err))
	if m := unsupportedEnvRE.FindStringSubmatch(msg); m != nil {
		return cfg, fmt.Errorf("store %s: clmeter's PostgreSQL driver (lib/pq) does not take $%s: unset it for clmeter (env -u %s clmeter ...)", where, m[1], m[1])
	}
	return cfg, fmt.Errorf("store %s: %s", where, msg)
}

// pgConnector opens each PostgreSQL connection of a store with lib/pq,
// within the context that asks for it. lib/pq dials within the context but
// then waits for the server's startup answers (TLS, login) without a
// deadline, so a server that takes the connection and says nothing would
// hold Open, CheckWritable and an upload's retries for ever; here the end
// of the context ends that wait too.
type pgConnector struct{ cfg pq.Config }

// Connect opens one connection, giving up when ctx ends.
func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	pc, err := pq.NewConnectorConfig(c.cfg)
	if err != nil {
		return nil, err
	}
	d := &ctxDialer{}
	pc.Dialer(d)
	stop := context.AfterFunc(ctx, d.abort)
	conn, err := pc.Connect(ctx)
	if !stop() {
		// ctx ended while connecting: the connection's reads and writes
		// failed or will, so it is of no use.
		if err == nil {
			conn.Close()
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w (%w)", ctx.Err(), err)
	}
	d.finish()
	return conn, err
}

// Driver is lib/pq's.
func (c pgConnector) Driver() driver.Driver { return pq.Driver{} }

// ctxDialer dials as lib/pq does and, while a connection is being set up,
// keeps what it dialed so that abort can end its reads and writes.
type ctxDialer struct {
	mu       sync.Mutex
	conns    []net.Conn
	aborted  bool
	finished bool
}

// Dial dials address.
func (d *ctxDialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

// DialTimeout dials address within timeout.
func (d *ctxDialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.DialContext(ctx, network, address)
}

// DialContext dials address within ctx; until finish, the connection is
// kept for abort.
func (d *ctxDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.finished {
		return c, nil // a later dial of the connection: a cancel request
	}
	if d.aborted {
		c.SetDeadline(time.Unix(1, 0))
	}
	d.conns = append(d.conns, c)
	return c, nil
}

// abort makes every read and write of the connections dialed so far, and
// of any dialed later while connecting, fail at once.
func (d *ctxDialer) abort() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.aborted = true
	for _, c := range d.conns {
		c.SetDeadline(time.Unix(1, 0))
	}
}

// finish forgets the connections: the one set up is in use now.
func (d *ctxDialer) finish() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.finished, d.conns = true, nil
}
