/* What the LSC files share inside src/visa/ besides visa_lsc.h: the rows of visa_ops.def's LSC
 * block as C records (visa_lsc_table.c) and a printf-style report helper. */
#ifndef GMS_VISA_VISA_LSC_INTERNAL_H
#define GMS_VISA_VISA_LSC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "visa/visa_lsc.h"

/* The word groups of VISA_LSC_WORD. */
typedef enum visa_lsc_group {
    VISA_LSC_GROUP_SFID = 0, VISA_LSC_GROUP_CACHE, VISA_LSC_GROUP_FENCE_OP, VISA_LSC_GROUP_SCOPE,
    VISA_LSC_GROUP_DATA, VISA_LSC_GROUP_ADDR_SIZE, VISA_LSC_GROUP_MODEL
} visa_lsc_group;

typedef struct visa_lsc_word {
    uint8_t group;    /* visa_lsc_group */
    const char *text; /* the spelling without its dot */
    uint8_t value;    /* the group's enumerator */
} visa_lsc_word;

/* The value of the spelling `text` (len bytes) in `group`, or -1. Case-sensitive. */
int visa_lsc_word_lookup(unsigned group, const char *text, size_t len);
const visa_lsc_word *visa_lsc_words(size_t *count);

/* Operation kinds of a cache pair (VISA_LSC_PAIR's KINDS). */
enum { VISA_LSC_PAIR_LOAD = 1u << 0, VISA_LSC_PAIR_STORE = 1u << 1, VISA_LSC_PAIR_ATOMIC = 1u << 2 };

typedef struct visa_lsc_pair {
    uint8_t kinds; /* VISA_LSC_PAIR_* bits */
    uint8_t l1, l3; /* visa_lsc_cache */
    uint8_t xe2;   /* 1: legal from Xe2 on only */
} visa_lsc_pair;

/* The row of the pair .l1.l3, or NULL when no operation may use it. */
const visa_lsc_pair *visa_lsc_find_pair(unsigned l1, unsigned l3);
const visa_lsc_pair *visa_lsc_pairs(size_t *count);

typedef struct visa_lsc_rule {
    const char *id;
    const char *summary;
} visa_lsc_rule;
const visa_lsc_rule *visa_lsc_rules(size_t *count);

/* Reports through `report` with a printf-style message of at most 255 bytes. */
void visa_lsc_reportf(visa_lsc_report_fn report, void *user, const char *rule, visa_lsc_pos at,
                      int warning, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
