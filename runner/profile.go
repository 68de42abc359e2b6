package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/table"
)

// Actions of 'clmeter profile'.
const (
	ProfileShow    = "show"
	ProfileRebuild = "rebuild"
	ProfileReset   = "reset"
)

// ProfileOptions are what 'clmeter profile' was asked to do.
type ProfileOptions struct {
	// Action is ProfileShow, ProfileRebuild or ProfileReset.
	Action string
	// Device selects the devices whose profiles show or reset act on ("":
	// show every stored profile; reset then needs All).
	Device string
	// All makes reset forget every stored profile.
	All bool
	// Files are the result files rebuild reads.
	Files []string
	// Format is "table" or "json" (show and rebuild).
	Format string
	// Dir is the profiles' folder (CLMETER_PROFILE_DIR; "": profile.DefaultFolder's).
	Dir string
}

// Profile shows, rebuilds from result files, or resets the stored device
// profiles.
func Profile(ctx context.Context, o ProfileOptions, stdout, stderr io.Writer) error {
	st, err := profile.DefaultFolder(o.Dir)
	if err != nil {
		return err
	}
	if o.Format == "" {
		o.Format = "table"
	}
	switch o.Action {
	case ProfileShow:
		return showProfiles(o, st, stdout, stderr)
	case ProfileRebuild:
		return rebuildProfiles(o, st, stdout)
	case ProfileReset:
		return resetProfiles(o, st, stdout)
	}
	return usageErr("'clmeter profile %s': want show, rebuild or reset", o.Action)
}

// selectedKeys are the profile keys of the devices o.Device selects.
func selectedKeys(o ProfileOptions) ([]profile.Key, []string, error) {
	m := runtime.NewManager()
	defer m.Close()
	devs, err := m.Select(o.Device)
	if err != nil {
		return nil, nil, fail.With(fail.NoDevice, err)
	}
	var keys []profile.Key
	var names []string
	for _, d := range devs {
		keys = append(keys, profile.KeyOf(d.Describe()))
		names = append(names, fmt.Sprintf("%s (%s)", d.Info.Name, d.Describe().Index))
	}
	return keys, names, nil
}

func showProfiles(o ProfileOptions, st profile.Folder, stdout, stderr io.Writer) error {
	var ps []*profile.Profile
	var missing []string
	if o.Device == "" {
		list, skipped, err := st.List()
		if err != nil {
			return err
		}
		for _, s := range skipped {
			fmt.Fprintln(stderr, "skipped "+s)
		}
		ps = list
		if len(ps) == 0 {
			missing = append(missing, "no device profile stored in "+st.Dir+": 'clmeter suite peaks' measures one")
		}
	} else {
		keys, names, err := selectedKeys(o)
		if err != nil {
			return err
		}
		for i, k := range keys {
			p, err := st.Load(k)
			if err != nil {
				missing = append(missing, fmt.Sprintf("%s: %v: 'clmeter suite peaks' measures one", names[i], err))
				continue
			}
			ps = append(ps, p)
		}
	}
	if o.Format == "json" {
		if ps == nil {
			ps = []*profile.Profile{}
		}
		for _, m := range missing {
			fmt.Fprintln(stderr, m)
		}
		return writeJSON(stdout, ps)
	}
	for i, p := range ps {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writeProfile(stdout, p, ", "+st.Path(p.Key))
	}
	for _, m := range missing {
		fmt.Fprintln(stdout, m)
	}
	return nil
}

// writeProfile prints a profile: a heading (ending in where, which says
// where it is kept), then its figures with where each came from.
func writeProfile(w io.Writer, p *profile.Profile, where string) {
	width := table.Width(w)
	table.WriteWrapped(w, fmt.Sprintf("device profile of %s (%s, driver %s)%s:", p.Key.Device, p.Key.Platform, p.Key.DriverVersion, where), width, "", "    ")
	for _, l := range p.Lines() {
		body := strings.TrimLeft(l, " ")
		indent := "  " + l[:len(l)-len(body)]
		table.WriteWrapped(w, body, width, indent, indent+"    ")
	}
}

func rebuildProfiles(o ProfileOptions, st profile.Folder, stdout io.Writer) error {
	if len(o.Files) == 0 {
		return usageErr("'clmeter profile rebuild' takes the result files to build the profiles from (clmeter suite peaks -o FILE writes one)")
	}
	srcs := make([]results.Source, 0, len(o.Files))
	for _, path := range o.Files {
		f, err := results.Read(path)
		if err != nil {
			return fail.With(fail.Usage, fmt.Errorf("%w: no profile was changed", err))
		}
		srcs = append(srcs, results.Source{Path: path, File: f})
	}
	ps := profile.Rebuild(srcs)
	if len(ps) == 0 {
		return fail.With(fail.Usage, fmt.Errorf("%s: no benchmark of the built-in suites (peaks, streams, launch, transfers, quick) that gives a device figure: no profile was changed",
			strings.Join(o.Files, ", ")))
	}
	for i, p := range ps {
		path, err := st.Save(p)
		if err != nil {
			return err
		}
		if o.Format == "table" {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			writeProfile(stdout, p, " rebuilt from "+strings.Join(o.Files, ", ")+", saved in "+path)
		}
	}
	if o.Format == "json" {
		return writeJSON(stdout, ps)
	}
	return nil
}

func resetProfiles(o ProfileOptions, st profile.Folder, stdout io.Writer) error {
	switch {
	case o.All && o.Device != "":
		return usageErr("'clmeter profile reset' takes --device or --all, not both")
	case o.All:
		removed, err := st.RemoveAll()
		for _, path := range removed {
			fmt.Fprintf(stdout, "forgot the device profile %s\n", path)
		}
		if len(removed) == 0 && err == nil {
			fmt.Fprintf(stdout, "no device profile stored in %s\n", st.Dir)
		}
		return err
	case o.Device == "":
		return usageErr("'clmeter profile reset' forgets the profile of the devices --device selects, or every one with --all")
	}
	keys, names, err := selectedKeys(o)
	if err != nil {
		return err
	}
	for i, k := range keys {
		gone, err := st.Remove(k)
		if err != nil {
			return err
		}
		if gone {
			fmt.Fprintf(stdout, "forgot the device profile of %s: %s; the next suite or run measures it afresh\n", names[i], st.Path(k))
		} else {
			fmt.Fprintf(stdout, "no device profile of %s stored\n", names[i])
		}
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
