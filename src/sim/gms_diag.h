/* The public diagnostics list (gpumemsim.h) as the library's own diag_list, for the code of
 * src/sim/ that reports through the lists of the layers below: the API's implementation and the
 * launch-file runner. Nothing outside src/sim/ includes this header. */
#ifndef GMS_SIM_GMS_DIAG_H
#define GMS_SIM_GMS_DIAG_H

#include "base/diag.h"
#include "gpumemsim/gpumemsim.h"

struct gms_diag_list {
    diag_list dl;
};

/* The list a call reports to: the caller's, or a scratch list dropped at the end of the call
 * when the caller passed NULL. */
typedef struct gms_sink {
    diag_list *dl;
    diag_list scratch;
} gms_sink;
diag_list *gms_sink_open(gms_sink *s, gms_diag_list *caller);
void gms_sink_close(gms_sink *s);

/* API-ARG-001: `what` (a parameter of `call`) is missing or out of range. Returns
 * GMS_ERR_ARGUMENT. */
gms_status gms_bad_argument(diag_list *dl, const char *call, const char *what);

#endif
