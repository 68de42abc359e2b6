/*
 * A fake libnvidia-ml.so.1 for clmeter's tests (package nvmltest builds it
 * with gcc): the NVML functions clmeter calls, with the signatures of nvml.h
 * (the excerpt beside this file), answering with the known values below, so
 * that the Go binding is exercised with a real dlopen and real calls on a
 * machine without an NVIDIA driver. Every function checks its arguments as
 * NVML does: NVML started, a handle it gave out, a known clock type and
 * sensor, a name buffer of NVML_DEVICE_NAME_V2_BUFFER_SIZE.
 *
 * The devices (their values are nvmltest's constants; keep them the same):
 *   0  "NVIDIA H200"  bus 0x19  SM 1980 MHz, memory 2619 MHz, 41 C, 123456 mW,
 *                               reasons: idle; 5120-bit bus
 *   1  "NVIDIA H200"  bus 0x3b  SM 1980 MHz on the first reading then 1755,
 *                               memory 2619 MHz, 40 C then 47 C, 650000 mW,
 *                               reasons: idle first, then power cap and
 *                               hardware thermal slowdown; 5120-bit bus
 *   2  "NVIDIA L40S"  bus 0x5e  SM 2520 MHz, memory 9001 MHz, 30 C, power not
 *                               supported, no reasons; 384-bit bus
 *
 * Built with -DFAKE_MISSING it lacks nvmlDeviceGetPciInfo_v3 and
 * nvmlDeviceGetCount_v2 (an old driver); with -DFAKE_OLD_REASONS it has only
 * the old name of the reasons call (nvmlDeviceGetCurrentClocksThrottleReasons);
 * with -DFAKE_INIT_FAILS nvmlInit_v2 returns NVML_ERROR_DRIVER_NOT_LOADED.
 * fakeNvmlInits tells how many nvmlInit_v2 calls are not yet shut down.
 */
#include <stdio.h>
#include <string.h>
/* the functions keep their own names: nvmlDeviceGetCount is the old one */
#define NVML_NO_UNVERSIONED_FUNC_DEFS
#include "nvml.h"

struct nvmlDevice_st {
    int index;
};

static struct nvmlDevice_st devices[3] = {{0}, {1}, {2}};
static const char *names[3] = {"NVIDIA H200", "NVIDIA H200", "NVIDIA L40S"};
static const unsigned int buses[3] __attribute__((unused)) = {0x19, 0x3b, 0x5e};
static int inits;
static int smReads[3], reasonReads[3], tempReads[3];

int fakeNvmlInits(void) { return __atomic_load_n(&inits, __ATOMIC_SEQ_CST); }

static int started(void) { return fakeNvmlInits() > 0; }

/* indexOf returns the index of handle d, or -1 when NVML gave no such handle. */
static int indexOf(nvmlDevice_t d) {
    for (int i = 0; i < 3; i++) {
        if (d.handle == &devices[i]) {
            return i;
        }
    }
    return -1;
}

#define CHECK(d, out)                                                          \
    if (!started()) return NVML_ERROR_UNINITIALIZED;                           \
    int i = indexOf(d);                                                        \
    if (i < 0 || (out) == NULL) return NVML_ERROR_INVALID_ARGUMENT;

nvmlReturn_t nvmlInit_v2(void) {
#ifdef FAKE_INIT_FAILS
    return NVML_ERROR_DRIVER_NOT_LOADED;
#endif
    __atomic_add_fetch(&inits, 1, __ATOMIC_SEQ_CST);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void) {
    if (!started()) return NVML_ERROR_UNINITIALIZED;
    __atomic_sub_fetch(&inits, 1, __ATOMIC_SEQ_CST);
    return NVML_SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    default: return "Unknown Error";
    }
}

#ifdef FAKE_MISSING
nvmlReturn_t nvmlDeviceGetCount(unsigned int *deviceCount)
#else
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
#endif
{
    if (!started()) return NVML_ERROR_UNINITIALIZED;
    if (deviceCount == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *deviceCount = 3;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    if (!started()) return NVML_ERROR_UNINITIALIZED;
    if (index >= 3 || device == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    device->handle = &devices[index];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    CHECK(device, name)
    if (length < NVML_DEVICE_NAME_V2_BUFFER_SIZE) return NVML_ERROR_INSUFFICIENT_SIZE;
    snprintf(name, length, "%s", names[i]);
    return NVML_SUCCESS;
}

#ifndef FAKE_MISSING
nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
    CHECK(device, pci)
    memset(pci, 0, sizeof *pci);
    pci->domain = 0;
    pci->bus = buses[i];
    pci->device = 0;
    pci->pciDeviceId = i == 2 ? 0x26B910DE : 0x233510DE;
    pci->pciSubSystemId = 0x18FF10DE;
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", 0, buses[i], 0);
    snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", 0, buses[i], 0);
    return NVML_SUCCESS;
}
#endif

static unsigned int memClock(int i) { return i == 2 ? 9001 : 2619; }

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int *clock) {
    CHECK(device, clock)
    switch (type) {
    case NVML_CLOCK_SM:
        if (i == 2) {
            *clock = 2520;
        } else if (i == 1 && __atomic_fetch_add(&smReads[i], 1, __ATOMIC_SEQ_CST) > 0) {
            *clock = 1755;
        } else {
            *clock = 1980;
        }
        return NVML_SUCCESS;
    case NVML_CLOCK_MEM:
        *clock = memClock(i);
        return NVML_SUCCESS;
    default:
        return NVML_ERROR_INVALID_ARGUMENT;
    }
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int *clock) {
    CHECK(device, clock)
    switch (type) {
    case NVML_CLOCK_SM:
        *clock = i == 2 ? 2520 : 1980;
        return NVML_SUCCESS;
    case NVML_CLOCK_MEM:
        *clock = memClock(i);
        return NVML_SUCCESS;
    default:
        return NVML_ERROR_INVALID_ARGUMENT;
    }
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType, unsigned int *temp) {
    CHECK(device, temp)
    if (sensorType != NVML_TEMPERATURE_GPU) return NVML_ERROR_INVALID_ARGUMENT;
    switch (i) {
    case 0: *temp = 41; break;
    case 1: *temp = __atomic_fetch_add(&tempReads[i], 1, __ATOMIC_SEQ_CST) > 0 ? 47 : 40; break;
    default: *temp = 30;
    }
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power) {
    CHECK(device, power)
    switch (i) {
    case 0: *power = 123456; return NVML_SUCCESS;
    case 1: *power = 650000; return NVML_SUCCESS;
    default: return NVML_ERROR_NOT_SUPPORTED;
    }
}

static nvmlReturn_t reasons(nvmlDevice_t device, unsigned long long *mask) {
    CHECK(device, mask)
    switch (i) {
    case 0: *mask = nvmlClocksEventReasonGpuIdle; break;
    case 1:
        *mask = __atomic_fetch_add(&reasonReads[i], 1, __ATOMIC_SEQ_CST) > 0
                    ? nvmlClocksEventReasonSwPowerCap | nvmlClocksThrottleReasonHwThermalSlowdown
                    : nvmlClocksEventReasonGpuIdle;
        break;
    default: *mask = nvmlClocksEventReasonNone;
    }
    return NVML_SUCCESS;
}

#ifdef FAKE_OLD_REASONS
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device, unsigned long long *clocksThrottleReasons) {
    return reasons(device, clocksThrottleReasons);
}
#else
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long *clocksEventReasons) {
    return reasons(device, clocksEventReasons);
}
#endif

nvmlReturn_t nvmlDeviceGetMemoryBusWidth(nvmlDevice_t device, unsigned int *busWidth) {
    CHECK(device, busWidth)
    *busWidth = i == 2 ? 384 : 5120;
    return NVML_SUCCESS;
}
