package runtime

import (
	"fmt"

	"github.com/clmeter/clmeter/runtime/cl"
)

// HeadersText names the OpenCL headers clmeter was compiled against, for
// --version: "3.0 (CL_TARGET_OPENCL_VERSION 300)". It is a fact of the build
// and loads no OpenCL library.
func HeadersText() string {
	h, target := cl.HeadersVersion()
	return fmt.Sprintf("%s (CL_TARGET_OPENCL_VERSION %d)", h, target)
}
