/* The dialects built into gpumemsim (frontend_builtin in frontend.h). This is the one file that
 * names each front-end: a new dialect adds its descriptor here and nowhere else. */
#include "frontend/frontend.h"
#include "ptx/ptx.h"
#include "sass/sass.h"
#include "visa/visa.h"

static const frontend_registry builtin = {{&ptx_dialect, &sass_dialect, &visa_dialect}, 3};

const frontend_registry *frontend_builtin(void) { return &builtin; }
