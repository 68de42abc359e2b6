package dashboard

import (
	"net/http"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/fleetview"
	"github.com/clmeter/clmeter/peers"
)

// fleetRuns is /fleet: the fleet runs in the store, each linked to its view.
func (s *Server) fleetRuns(w http.ResponseWriter, r *http.Request) {
	runs, err := s.st.FleetRuns(r.Context())
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	s.render(w, http.StatusOK, "fleets", "Fleet runs", runs)
}

// fleetRun is /fleet/{run}: one fleet run as 'clmeter fleet view' shows it
// (package fleetview), latest attempts only.
func (s *Server) fleetRun(w http.ResponseWriter, r *http.Request) {
	v, err := fleetview.Build(r.Context(), s.st, r.PathValue("run"), 0)
	switch {
	case fail.KindOf(err) == fail.Usage:
		s.fail(w, http.StatusNotFound, err)
		return
	case err != nil:
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	s.render(w, http.StatusOK, "fleet", "Fleet run "+v.Run, struct {
		V    *fleetview.View
		Grid peers.Grid
	}{v, v.Matrix.Grid()})
}
