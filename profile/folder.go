package profile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clmeter/clmeter/internal/atomicfile"
	"github.com/clmeter/clmeter/internal/userfile"
)

// MaxProfileBytes is the most a stored profile may hold (one is a few KiB):
// a file of the folder is read whole, through package userfile.
const MaxProfileBytes = 16 * userfile.MiB

// profileLimit is a stored profile's limit.
func profileLimit() userfile.Limit {
	return userfile.Limit{What: "device profile", Bytes: MaxProfileBytes}
}

// A Store keeps profiles as JSON files in a folder, one per Key.
type Folder struct {
	Dir string
}

// DirEnv names the variable that puts the profiles in another folder; the
// command reads it and passes its value to DefaultFolder.
const DirEnv = "CLMETER_PROFILE_DIR"

// DefaultFolder is the folder dir when not "" (CLMETER_PROFILE_DIR, read by
// the command), else in the user's cache folder (~/.cache/clmeter/profiles on
// Linux).
func DefaultFolder(dir string) (Folder, error) {
	if dir != "" {
		return Folder{Dir: dir}, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return Folder{}, fmt.Errorf("device profiles: no user cache folder (%v): set CLMETER_PROFILE_DIR", err)
	}
	return Folder{Dir: filepath.Join(base, "clmeter", "profiles")}, nil
}

// Path is where the profile of k is kept.
func (s Folder) Path(k Key) string { return filepath.Join(s.Dir, k.FileName()) }

// ErrNoProfile is returned by Load when no usable profile is stored.
var ErrNoProfile = errors.New("no device profile stored")

// Load returns the stored profile of k. It returns an error wrapping
// ErrNoProfile when there is none, or when the stored one is of another format
// or another key (a damaged or foreign file is never used).
func (s Folder) Load(k Key) (*Profile, error) {
	path := s.Path(k)
	b, err := userfile.Read(path, profileLimit())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w for %s (driver %s)", ErrNoProfile, k.Device, k.DriverVersion)
	}
	if err != nil {
		return nil, err
	}
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%w: %s is not a profile (%v)", ErrNoProfile, path, err)
	}
	if p.Format != FormatVersion {
		return nil, fmt.Errorf("%w: %s is of format %d, this clmeter reads %d", ErrNoProfile, path, p.Format, FormatVersion)
	}
	if p.Key != k {
		return nil, fmt.Errorf("%w: %s belongs to another device or driver", ErrNoProfile, path)
	}
	if p.Compute == nil {
		p.Compute = map[string]*Ceiling{}
	}
	return &p, nil
}

// Save writes p atomically (a temporary file in the same folder, synced, then
// renamed) and returns its path.
func (s Folder) Save(p *Profile) (string, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", fmt.Errorf("device profiles: %w", err)
	}
	p.Format = FormatVersion
	if p.Compute == nil {
		p.Compute = map[string]*Ceiling{}
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return "", err
	}
	path := s.Path(p.Key)
	if err := atomicfile.WriteFile(path, append(b, '\n')); err != nil {
		return "", fmt.Errorf("device profiles: %w", err)
	}
	return path, nil
}

// Remove forgets the stored profile of k (nothing to forget is no error). It
// reports whether there was one.
func (s Folder) Remove(k Key) (bool, error) {
	err := os.Remove(s.Path(k))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("device profiles: %w", err)
	}
	return true, nil
}

// RemoveAll forgets every profile in the store, of any format (a file whose
// JSON names a device key); other files are left alone. It returns the
// paths removed.
func (s Folder) RemoveAll() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("device profiles: %w", err)
	}
	var removed []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(s.Dir, e.Name())
		b, err := userfile.Read(path, profileLimit())
		if err != nil {
			continue
		}
		var head struct {
			Format int `json:"format"`
			Key    Key `json:"key"`
		}
		if json.Unmarshal(b, &head) != nil || head.Format == 0 || head.Key.Device == "" {
			continue
		}
		if err := os.Remove(path); err != nil {
			return removed, fmt.Errorf("device profiles: %w", err)
		}
		removed = append(removed, path)
	}
	return removed, nil
}

// List returns every usable profile in the store, sorted by device name and
// driver; files that are not profiles of this format are left out and named
// in skipped, with why.
func (s Folder) List() (ps []*Profile, skipped []string, err error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("device profiles: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(s.Dir, e.Name())
		b, err := userfile.Read(path, profileLimit())
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", path, err))
			continue
		}
		var p Profile
		if err := json.Unmarshal(b, &p); err != nil || p.Format != FormatVersion {
			why := fmt.Sprintf("of format %d, this clmeter reads %d (measured again when next used)", p.Format, FormatVersion)
			if err != nil {
				why = "not a profile: " + err.Error()
			}
			skipped = append(skipped, path+": "+why)
			continue
		}
		if p.Compute == nil {
			p.Compute = map[string]*Ceiling{}
		}
		ps = append(ps, &p)
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Key.Device != ps[j].Key.Device {
			return ps[i].Key.Device < ps[j].Key.Device
		}
		return ps[i].Key.DriverVersion < ps[j].Key.DriverVersion
	})
	return ps, skipped, nil
}
