/* Tensor maps of the public API (gpumemsim.h gms_tensor_map_encode; docs/launch-files.md,
 * "Tensor maps"): cuTensorMapEncodeTiled's fields checked and written in gpumemsim's 128-byte
 * layout (exec/tensor_map.h), which the bulk tensor copies read back. */
#include <string.h>

#include "exec/tensor_map.h"
#include "sim/gms_internal.h"

gms_status gms_tensor_map_encode(const gms_tensor_map_desc *d, uint8_t *out,
                                 gms_diag_list *caller)
{
    gms_sink sk;
    diag_list *dl = gms_sink_open(&sk, caller);
    gms_status st = GMS_OK;
    const char *why = NULL;
    tensor_map m;
    memset(&m, 0, sizeof m);
    if (!d || !out) {
        st = gms_bad_argument(dl, "gms_tensor_map_encode", "an argument is NULL");
    } else if (d->interleave != 0) {
        why = "an interleaved layout is not modelled (interleave must be 0, none)";
    } else if (d->data_type > 255 || d->rank > TENSOR_MAP_MAX_RANK || d->swizzle > 255 ||
               d->l2_promotion > 255 || d->oob_fill > 255) {
        why = "a field is outside its enumeration";
    } else {
        m.type = (uint8_t)d->data_type;
        m.rank = (uint8_t)d->rank;
        m.swizzle = (uint8_t)d->swizzle;
        m.l2_promotion = (uint8_t)d->l2_promotion;
        m.oob_fill = (uint8_t)d->oob_fill;
        m.address = d->global_address;
        for (unsigned i = 0; i < m.rank; i++) {
            m.dims[i] = d->dims[i];
            m.strides[i] = i ? d->strides[i - 1] : tensor_map_elem_bytes(m.type);
            m.box[i] = d->box[i];
            m.elem_strides[i] = d->element_strides[i];
        }
        static const unsigned span[] = {0, 32, 64, 128};
        if (m.swizzle && m.swizzle < 4 && m.rank &&
            (uint64_t)m.box[0] * tensor_map_elem_bytes(m.type) != span[m.swizzle])
            why = "with a swizzle, the box's inner dimension must be exactly the swizzle span "
                  "(32, 64 or 128 bytes): narrower boxes are not modelled";
        else
            why = tensor_map_encode(&m, out);
    }
    if (why) {
        diag_add(dl, DIAG_ERROR, "API-TMAP-001", "", 0, 0, "gms_tensor_map_encode: %s", why);
        st = GMS_ERR_ARGUMENT;
    }
    gms_sink_close(&sk);
    return st;
}
