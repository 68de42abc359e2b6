package runtime

import "os"

// LayersEnv is the ICD loader's variable that puts OpenCL layers (API
// checkers, tracers) between clmeter and the driver.
const LayersEnv = "OPENCL_LAYERS"

// CrashRisk says whether OpenCL calls on d may crash the process for reasons
// of the driver's own: Oclgrind (its checks are plugins that have been seen to
// crash, with OCLGRIND_UNINITIALIZED=1 inside clEnqueueWriteBuffer even after
// a correct kernel), or any device under OpenCL layers. driver names it for a
// message and fix says what to try after a crash; both are "" when there is
// no known risk.
func CrashRisk(d *Device) (driver, fix string) {
	switch {
	case IsOclgrind(d) && os.Getenv("OCLGRIND_UNINITIALIZED") != "":
		return "the Oclgrind driver", "try without OCLGRIND_UNINITIALIZED, or use `clmeter check` (it runs Oclgrind's checks for you)"
	case IsOclgrind(d):
		return "the Oclgrind driver", "use `clmeter check` for Oclgrind's checks, or measure on another device (--device)"
	case os.Getenv(LayersEnv) != "":
		return "the OpenCL driver under the layers of " + LayersEnv + "=" + os.Getenv(LayersEnv), "try without " + LayersEnv
	}
	return "", ""
}
