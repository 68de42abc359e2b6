// Package atomicfile is the one home of clmeter's outputs: it checks a target
// before any work (Check) and writes it (Write). A regular file (or a new one)
// is written atomically: the whole content goes to a temporary file in the
// target's folder, is synced and renamed over the target, so a reader sees the
// old file or the whole new one, never a part, and a failed or interrupted
// write leaves nothing behind. A character device or a FIFO (-o /dev/null,
// -o /dev/stdout, a named pipe) is written through, never replaced; a symbolic
// link is followed and the file it names is replaced, the link kept. Anything
// else (a folder, a block device, a socket) is refused.
package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/clmeter/clmeter/internal/userfile"
)

// maxLinks bounds the symbolic links followed to a target, as the kernel's
// own bound on a path's links (ELOOP).
const maxLinks = 40

// Resolve follows the symbolic links of path's last element and returns the
// path of what they name (path itself when it is no link). The result may not
// exist: a dangling link names the file a write creates. A link through /proc
// (/dev/stdout, /dev/fd/N: a file descriptor's, whose target is no path to
// replace) is an error.
func Resolve(path string) (string, error) {
	for i := 0; i < maxLinks; i++ {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		if strings.HasPrefix(to, "/proc/") {
			return "", fmt.Errorf("it is a link to an open file (%s): name the file itself", to)
		}
		path = to
	}
	return "", fmt.Errorf("more than %d symbolic links", maxLinks)
}

// IsStream reports whether path, after its symbolic links, is a character
// device or a FIFO: an output that is written through, once, not replaced.
func IsStream(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && stream(fi)
}

func stream(fi fs.FileInfo) bool {
	return fi.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0
}

// locate says what an output at path is: a stream (a character device or a
// FIFO, written through at path, every link followed by the system), or the
// regular or new file to replace, its links followed (target). Its error is
// a reason that follows path's name in a message.
func locate(path string) (target string, isStream bool, err error) {
	if err := nameFits(path); err != nil {
		return "", false, err
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && stream(fi):
		return path, true, nil
	case err == nil && fi.IsDir():
		return "", false, errors.New("is a folder: name a file")
	case err == nil && !fi.Mode().IsRegular():
		return "", false, fmt.Errorf("is %s: name a regular file, a character device or a FIFO", userfile.KindOf(fi.Mode()))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", false, fmt.Errorf("cannot write there: %v", unwrapPath(err))
	}
	if target, err = Resolve(path); err != nil {
		return "", false, fmt.Errorf("cannot write there: %v", err)
	}
	if err := nameFits(target); err != nil {
		return "", false, err
	}
	return target, false, nil
}

// nameFits checks that path's last element is within NAME_MAX bytes.
func nameFits(path string) error {
	if n := len(filepath.Base(path)); n > unix.NAME_MAX {
		return fmt.Errorf("its name is %d bytes long, over the %d a file name may have: use a shorter name", n, unix.NAME_MAX)
	}
	return nil
}

// Check says, before any work, whether path can take an output: a new or
// regular file (a symbolic link's) whose folder exists and takes a file
// (probed with a temporary file, removed) and whose name fits the file
// system's NAME_MAX; or a character device or FIFO this process may write.
// Its error names path and what to do. It leaves nothing behind.
func Check(path string) error {
	if path == "" {
		return errors.New("an empty path: name a file")
	}
	target, isStream, err := locate(path)
	if err != nil {
		if strings.HasPrefix(err.Error(), "is ") {
			return fmt.Errorf("%s %v", path, err)
		}
		return fmt.Errorf("%s: %v", path, err)
	}
	if isStream {
		if err := unix.Access(path, unix.W_OK); err != nil {
			return fmt.Errorf("%s: cannot write there: %v", path, err)
		}
		return nil
	}
	dir := filepath.Dir(target)
	f, err := os.CreateTemp(dir, ".clmeter-probe-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write there: folder %s: %v", path, dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPath takes the path off an error of package os, whose message then
// does not repeat it (or name a temporary file); other errors are kept.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// tempPattern is the temporary file's name pattern for target: hidden, named
// after it (cut so that the name stays within NAME_MAX), ".tmp-" and a
// random number.
func tempPattern(target string) string {
	base := filepath.Base(target)
	if len(base) > unix.NAME_MAX-24 {
		base = base[:unix.NAME_MAX-24]
	}
	return "." + base + ".tmp-*"
}

// pending holds the temporary files of the writes under way in this process,
// for RemovePending: the one exit that cannot wait for a write to end (the
// interrupt's backstop) still leaves none behind.
var pending = struct {
	sync.Mutex
	names map[string]bool
}{names: map[string]bool{}}

// RemovePending removes the temporary files of the writes still under way.
// It is for a process about to exit without waiting for them; those writes
// then fail.
func RemovePending() {
	pending.Lock()
	defer pending.Unlock()
	for name := range pending.names {
		os.Remove(name)
		delete(pending.names, name)
	}
}

// Write writes what write produces to path (see WriteContext).
func Write(path string, write func(io.Writer) error) error {
	return WriteContext(context.Background(), path, write)
}

// WriteFile writes data to path (see WriteContext).
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteContext writes what write produces to path: atomically, with mode
// 0644, to a regular or new file (the file a symbolic link names, the link
// kept); straight through to a character device or a FIFO. Once ctx is done,
// write's next write fails with ctx's error. On any error (write's included)
// the temporary file is removed, a file at path is untouched and the error
// names path.
func WriteContext(ctx context.Context, path string, write func(io.Writer) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	target, isStream, err := locate(path)
	switch {
	case err != nil:
	case isStream:
		err = writeThrough(ctx, path, write)
	default:
		err = replace(ctx, target, write)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	return nil
}

// ctxWriter fails every write once ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// writeThrough writes to a character device or FIFO as it is: opened for
// writing (a FIFO waits for its reader, as a shell's redirection does).
func writeThrough(ctx context.Context, target string, write func(io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return unwrapPath(err)
	}
	bw := bufio.NewWriter(f)
	if err := write(ctxWriter{ctx, bw}); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replace writes target through a temporary file renamed over it.
func replace(ctx context.Context, target string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, tempPattern(target))
	if err != nil {
		return err
	}
	pending.Lock()
	pending.names[tmp.Name()] = true
	pending.Unlock()
	defer func() {
		pending.Lock()
		delete(pending.names, tmp.Name())
		pending.Unlock()
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := write(ctxWriter{ctx, bw}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	// Make the rename itself durable; not every file system can sync a
	// folder, so a failure here is not an error.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
