/* Events of gpumemsim's libcuda.so.1 (docs/cuda-runtime.md, "Driver API"). Every call runs its
 * work to the end before it returns, so an event is complete as soon as it is recorded. An event
 * records the device's simulated time: the timing model's cycles over the launches so far
 * (gms_totals.cycles), and cuEventElapsedTime reports the cycles between two events at the
 * preset's clock (sm.clock_mhz), as libcudart's cudaEventElapsedTime does (0 ms with the timing
 * model off). */
#include <stdlib.h>

#include "runtime/cuda_driver_internal.h"

enum { EVENT_MAGIC = 0x45565431 /* "EVT1" */ };

struct CUevent_st {
    unsigned magic;
    int recorded;
    uint64_t cycles; /* gms_totals.cycles when it was last recorded */
};

static int bad_event(CUevent e)
{
    return !e || e->magic != EVENT_MAGIC;
}

/* The simulated cycles of every launch so far on the process's device (0 without one). */
static uint64_t device_cycles(void)
{
    gms_device *dev = drv_device();
    gms_totals t;
    if (!dev || gms_device_totals(dev, &t) != GMS_OK)
        return 0;
    return t.cycles;
}

CUresult cuEventCreate(CUevent *phEvent, unsigned Flags)
{
    (void)Flags; /* blocking sync and disable-timing change nothing here */
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    if (!phEvent)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUevent_st *ev = calloc(1, sizeof *ev);
    if (!ev)
        return CUDA_ERROR_OUT_OF_MEMORY;
    ev->magic = EVENT_MAGIC;
    *phEvent = ev;
    return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    (void)hStream; /* every stream is idle: the event takes the device's time now */
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    if (bad_event(hEvent))
        return CUDA_ERROR_INVALID_HANDLE;
    hEvent->recorded = 1;
    hEvent->cycles = device_cycles();
    return CUDA_SUCCESS;
}

CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
    return cuEventRecord(hEvent, hStream);
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    return bad_event(hEvent) ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent hEvent)
{
    return cuEventSynchronize(hEvent);
}

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    if (!pMilliseconds)
        return CUDA_ERROR_INVALID_VALUE;
    if (bad_event(hStart) || bad_event(hEnd))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!hStart->recorded || !hEnd->recorded)
        return CUDA_ERROR_NOT_READY;
    *pMilliseconds = 0.0f;
    gms_device_info info;
    gms_device *dev = drv_device();
    if (dev && gms_device_info_get(dev, &info) == GMS_OK && info.clock_mhz) {
        double cycles = (double)hEnd->cycles - (double)hStart->cycles;
        *pMilliseconds = (float)(cycles / info.clock_mhz / 1000.0);
    }
    return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    if (bad_event(hEvent))
        return CUDA_ERROR_INVALID_HANDLE;
    hEvent->magic = 0;
    free(hEvent);
    return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent hEvent)
{
    return cuEventDestroy_v2(hEvent);
}
