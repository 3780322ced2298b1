/* Streams and events of gpumemsim's libcudart (docs/cuda-runtime.md, "Runtime API"). Every call
 * runs its work to the end before it returns, so all streams execute in issue order, a stream
 * is always idle and an event is complete as soon as it is recorded. What a stream keeps is its
 * access-policy window (cudaStreamSetAttribute), which the launches issued into it use. An
 * event records the device's simulated time: the cycles of the timing model over the launches
 * so far (gms_totals.cycles), so cudaEventElapsedTime reports the cycles between two events at
 * the preset's clock (0 ms with the timing model off). */
#include <stdlib.h>

#include "runtime/cudart_internal.h"

CUDART_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream);
CUDART_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned flags);
CUDART_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned flags,
                                                       int priority);
CUDART_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                              unsigned flags);
CUDART_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t stream, int attr,
                                                 const cudaStreamAttrValue *value);
CUDART_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t stream, int attr,
                                                 cudaStreamAttrValue *value_out);
CUDART_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                                           int *greatestPriority);
CUDART_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event);
CUDART_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
CUDART_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                                   unsigned flags);
CUDART_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event);
CUDART_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event);
CUDART_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
CUDART_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event);

enum { STREAM_MAGIC = 0x5354524d, EVENT_MAGIC = 0x45564e54 };

struct rt_stream {
    unsigned magic;
    int has_window;
    struct cudaAccessPolicyWindow window;
};

struct rt_event {
    unsigned magic;
    int recorded;
    uint64_t cycles; /* the device's simulated cycles when it was recorded */
};

/* The legacy default stream (handle NULL, or the special handles 1 and 2 for the legacy and
 * per-thread default streams). */
static struct rt_stream default_stream = {STREAM_MAGIC, 0, {0}};

/* The stream record of a handle, or NULL for an invalid one. */
static struct rt_stream *stream_of(cudaStream_t s)
{
    if ((uintptr_t)s <= 2)
        return &default_stream;
    return s->magic == STREAM_MAGIC ? s : NULL;
}

int cudart_stream_window(cudaStream_t s, gms_policy_window *out)
{
    rt_lock();
    struct rt_stream *st = stream_of(s);
    int has = st && st->has_window;
    if (has) {
        const struct cudaAccessPolicyWindow *w = &st->window;
        *out = (gms_policy_window){(uint64_t)(uintptr_t)w->base_ptr, w->num_bytes, w->hitRatio,
                                   (gms_access_prop)w->hitProp, (gms_access_prop)w->missProp};
    }
    rt_unlock();
    return has;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned flags, int priority)
{
    (void)flags, (void)priority;
    if (!pStream)
        return cudart_set(cudaErrorInvalidValue);
    struct rt_stream *s = calloc(1, sizeof *s);
    if (!s)
        return cudart_set(cudaErrorMemoryAllocation);
    s->magic = STREAM_MAGIC;
    *pStream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithPriority(pStream, 0, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if ((uintptr_t)stream <= 2 || !stream_of(stream))
        return cudart_set(cudaErrorInvalidResourceHandle);
    stream->magic = 0;
    free(stream);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    if (!stream_of(stream))
        return cudart_set(cudaErrorInvalidResourceHandle);
    return cudart_sticky() ? cudart_set(cudart_sticky()) : cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return cudaStreamSynchronize(stream);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
    (void)flags;
    if (!stream_of(stream) || !event || event->magic != EVENT_MAGIC)
        return cudart_set(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, int attr,
                                   const cudaStreamAttrValue *value)
{
    rt_lock();
    struct rt_stream *s = stream_of(stream);
    cudaError_t e = cudaSuccess;
    if (!s)
        e = cudaErrorInvalidResourceHandle;
    else if (!value)
        e = cudaErrorInvalidValue;
    else if (attr == cudaLaunchAttributeAccessPolicyWindow) {
        s->window = value->accessPolicyWindow;
        s->has_window = s->window.num_bytes != 0;
    } else
        e = cudaErrorNotSupported;
    rt_unlock();
    return e ? cudart_set(e) : cudaSuccess;
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, int attr, cudaStreamAttrValue *value_out)
{
    struct rt_stream *s = stream_of(stream);
    if (!s)
        return cudart_set(cudaErrorInvalidResourceHandle);
    if (!value_out || attr != cudaLaunchAttributeAccessPolicyWindow)
        return cudart_set(!value_out ? cudaErrorInvalidValue : cudaErrorNotSupported);
    rt_lock();
    *value_out = (cudaStreamAttrValue){{0}};
    value_out->accessPolicyWindow = s->window;
    rt_unlock();
    return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return cudaSuccess;
}

/* ---- events ---- */

static int bad_event(cudaEvent_t e)
{
    return !e || e->magic != EVENT_MAGIC;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
    (void)flags;
    if (!event)
        return cudart_set(cudaErrorInvalidValue);
    struct rt_event *e = calloc(1, sizeof *e);
    if (!e)
        return cudart_set(cudaErrorMemoryAllocation);
    e->magic = EVENT_MAGIC;
    *event = e;
    return cudaSuccess;
}

/* The simulated cycles of every launch so far on the process's device (0 without one). */
static uint64_t device_cycles(void)
{
    gms_device *dev = cudart_device();
    gms_totals t;
    if (!dev || gms_device_totals(dev, &t) != GMS_OK)
        return 0;
    return t.cycles;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned flags)
{
    (void)flags;
    if (bad_event(event) || !stream_of(stream))
        return cudart_set(cudaErrorInvalidResourceHandle);
    event->recorded = 1;
    event->cycles = device_cycles();
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecordWithFlags(event, stream, 0);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    if (bad_event(event))
        return cudart_set(cudaErrorInvalidResourceHandle);
    return cudart_sticky() ? cudart_set(cudart_sticky()) : cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return cudaEventSynchronize(event);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return cudart_set(cudaErrorInvalidValue);
    if (bad_event(start) || bad_event(end))
        return cudart_set(cudaErrorInvalidResourceHandle);
    if (!start->recorded || !end->recorded)
        return cudart_set(cudaErrorNotReady);
    *ms = 0.0f;
    gms_device *dev = cudart_device();
    gms_device_info info;
    if (dev && gms_device_info_get(dev, &info) == GMS_OK && info.clock_mhz) {
        double cycles = (double)end->cycles - (double)start->cycles;
        *ms = (float)(cycles / info.clock_mhz / 1000.0);
    }
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    if (bad_event(event))
        return cudart_set(cudaErrorInvalidResourceHandle);
    event->magic = 0;
    free(event);
    return cudaSuccess;
}
