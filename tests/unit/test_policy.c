/* Unit tests of src/mem/mem_policy.c: the createpolicy encoders against the values ptxas 13.0
 * produces (reference l2-cache-policy.md §4 table, §7 worked examples), descriptor decoding per
 * address (§6), and access-policy windows (gpu-figures §10). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mem/mem_policy.h"

/* Every row of the fractional table: primary, secondary, fraction, upper 32 bits. */
static void test_encode_fractional_table(void **state)
{
    (void)state;
    static const struct {
        uint8_t primary, secondary;
        float fraction;
        uint32_t upper;
    } rows[] = {
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 1.0f, 0x14F00000u},
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0.9375f, 0x14E00000u},
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0.51f, 0x14800000u},
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0.5f, 0x14700000u},
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0.44f, 0x14700000u},
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0.4375f, 0x14600000u},
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0.3f, 0x14400000u},
        {IR_EVICT_LAST, IR_EVICT_FIRST, 0.25f, 0x15300000u},
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0.0625f, 0x14000000u},
        {IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0.01f, 0x14000000u},
        {IR_EVICT_NORMAL, IR_EVICT_FIRST, 0.75f, 0x17B00000u},
        {IR_EVICT_UNCHANGED, IR_EVICT_FIRST, 0.5f, 0x11700000u},
        {IR_EVICT_FIRST, IR_EVICT_FIRST, 0.5f, 0x13700000u},
        {IR_EVICT_UNCHANGED, IR_EVICT_UNCHANGED, 0.125f, 0x10100000u},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint64_t d = policy_encode_fractional(rows[i].primary, rows[i].secondary, rows[i].fraction);
        assert_int_equal(d >> 32, rows[i].upper);
        assert_int_equal(d & 0xFFFFFFFFu, 0); /* fractional mode: the low bits are reserved */
        /* F = ceil(16 f) - 1 in bits 55-52 */
        assert_int_equal((d >> 52) & 0xF, (rows[i].upper >> 20) & 0xF);
    }
    /* The known constants of §3. */
    assert_int_equal(policy_encode_fractional(IR_EVICT_FIRST, IR_EVICT_UNCHANGED, 1.0f),
                     0x12F0000000000000ull);
    assert_int_equal(policy_encode_fractional(IR_EVICT_NORMAL, IR_EVICT_UNCHANGED, 1.0f),
                     0x16F0000000000000ull);
    assert_int_equal(policy_encode_fractional(IR_EVICT_UNCHANGED, IR_EVICT_UNCHANGED, 1.0f),
                     0x10F0000000000000ull);
}

static void test_encode_range_examples(void **state)
{
    (void)state;
    /* ptr 0x7f0000100000, 3 MiB of 4 MiB: 32 KiB blocks (E 3), start 32, count 96. */
    assert_int_equal(policy_encode_range(IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0x7f0000100000ull,
                                         3u << 20, 4u << 20),
                     0x1C320C0000000000ull);
    /* 1 MiB aligned, primary = total = 1 MiB: 8 KiB blocks, count 128 clamped to 127. */
    assert_int_equal(policy_encode_range(IR_EVICT_LAST, IR_EVICT_UNCHANGED, 0x7f0000000000ull,
                                         1u << 20, 1u << 20),
                     0x1C100FE000000000ull);
    /* 512 KiB of 1 MiB with an evict_first secondary: 8 KiB blocks, count 64. */
    assert_int_equal(policy_encode_range(IR_EVICT_LAST, IR_EVICT_FIRST, 0x7f0000000000ull,
                                         512u << 10, 1u << 20),
                     0x1D10080000000000ull);
}

static uint8_t priority(uint64_t desc, uint64_t addr)
{
    int valid = -1;
    uint8_t p = policy_priority(desc, addr, &valid);
    assert_int_equal(valid, 1);
    return p;
}

static void test_priority_range_probes(void **state)
{
    (void)state;
    const uint64_t d = 0x1C320C0000000000ull; /* §7: 3 MiB of 4 MiB at 0x7f0000100000 */
    assert_int_equal(priority(d, 0x7f0000100000ull), IR_EVICT_LAST);
    assert_int_equal(priority(d, 0x7f00003fffffull), IR_EVICT_LAST);     /* last primary byte */
    assert_int_equal(priority(d, 0x7f0000400000ull), IR_EVICT_UNCHANGED); /* trailing */
    assert_int_equal(priority(d, 0x7f00004fffffull), IR_EVICT_UNCHANGED);
    assert_int_equal(priority(d, 0x7f0000000000ull), IR_EVICT_UNCHANGED); /* preceding */
    assert_int_equal(priority(d, 0x7f00000fffffull), IR_EVICT_UNCHANGED);
    /* The count clamp: the last 8 KiB block of the 1 MiB buffer is secondary. */
    assert_int_equal(priority(0x1C100FE000000000ull, 0x7f00000fdfffull), IR_EVICT_LAST);
    assert_int_equal(priority(0x1C100FE000000000ull, 0x7f00000fe000ull), IR_EVICT_UNCHANGED);
    /* An evict_first secondary. */
    assert_int_equal(priority(0x1D10080000000000ull, 0x7f000007ffffull), IR_EVICT_LAST);
    assert_int_equal(priority(0x1D10080000000000ull, 0x7f0000080000ull), IR_EVICT_FIRST);
}

static void test_priority_constants(void **state)
{
    (void)state;
    /* 100% fractional descriptors give their primary to every address. */
    const uint64_t addrs[] = {0, 0x80, 0x7f0000000000ull, 0x7f0000123480ull, ~0ull};
    for (size_t i = 0; i < sizeof addrs / sizeof addrs[0]; i++) {
        assert_int_equal(priority(0x10F0000000000000ull, addrs[i]), IR_EVICT_UNCHANGED);
        assert_int_equal(priority(0x12F0000000000000ull, addrs[i]), IR_EVICT_FIRST);
        assert_int_equal(priority(0x14F0000000000000ull, addrs[i]), IR_EVICT_LAST);
        assert_int_equal(priority(0x16F0000000000000ull, addrs[i]), IR_EVICT_NORMAL);
        assert_int_equal(priority(0, addrs[i]), IR_EVICT_NONE); /* mode 0: no policy */
    }
    /* Primary and secondary codes of a fractional descriptor, field by field. */
    assert_int_equal((0x1530000000000000ull >> 57) & 3, POLICY_CODE_LAST);
    assert_int_equal((0x1530000000000000ull >> 56) & 1, 1);
}

static void test_priority_fraction_half(void **state)
{
    (void)state;
    /* F = 7: 8/16 of the lines, chosen by the line hash. Over 4096 consecutive lines the share
     * must be between 40% and 60%, the rest secondary, and the same lines every time. */
    const uint64_t d = 0x1470000000000000ull, base = 0x7f0000000000ull;
    static uint8_t first_run[4096];
    unsigned marked = 0;
    for (unsigned l = 0; l < 4096; l++) {
        uint8_t p = priority(d, base + 128ull * l);
        assert_true(p == IR_EVICT_LAST || p == IR_EVICT_UNCHANGED);
        first_run[l] = p;
        marked += p == IR_EVICT_LAST;
        /* Every byte of a line gets the line's priority. */
        assert_int_equal(priority(d, base + 128ull * l + 127), p);
    }
    assert_in_range(marked, 1639, 2457);
    for (unsigned l = 0; l < 4096; l++)
        assert_int_equal(priority(d, base + 128ull * l), first_run[l]);
    /* The selector is the documented hash: top 4 bits of line * 0x9E3779B97F4A7C15 < F + 1. */
    for (unsigned l = 0; l < 4096; l++) {
        uint64_t h = ((base >> 7) + l) * 0x9E3779B97F4A7C15ull;
        assert_int_equal(first_run[l] == IR_EVICT_LAST, (h >> 60) < 8);
    }
}

static void test_priority_mode1_invalid(void **state)
{
    (void)state;
    int valid = 1;
    assert_int_equal(policy_priority(0x0800000000000000ull, 0x7f0000000000ull, &valid),
                     IR_EVICT_NONE);
    assert_int_equal(valid, 0);
    valid = 0;
    policy_priority(0x14F0000000000000ull, 0, &valid);
    assert_int_equal(valid, 1);
}

static void test_window_priority(void **state)
{
    (void)state;
    policy_window w = {.base = 0x7f0000000000ull, .bytes = 32768, .hit_ratio = 1.0,
                       .hit_prop = 2, .miss_prop = 0};
    /* Inside: persisting -> evict_last; outside (below, at the end): no priority. */
    assert_int_equal(policy_window_priority(&w, w.base), IR_EVICT_LAST);
    assert_int_equal(policy_window_priority(&w, w.base + 32767), IR_EVICT_LAST);
    assert_int_equal(policy_window_priority(&w, w.base + 32768), IR_EVICT_NONE);
    assert_int_equal(policy_window_priority(&w, w.base - 1), IR_EVICT_NONE);
    assert_int_equal(policy_window_priority(NULL, w.base), IR_EVICT_NONE);
    /* hit_ratio 0: every line gets miss_prop (normal -> evict_normal, streaming -> first). */
    w.hit_ratio = 0.0;
    for (unsigned l = 0; l < 256; l++)
        assert_int_equal(policy_window_priority(&w, w.base + 128ull * l), IR_EVICT_NORMAL);
    w.miss_prop = 1;
    assert_int_equal(policy_window_priority(&w, w.base), IR_EVICT_FIRST);
    /* hit_ratio 0.5: the lines the fractional selector puts in 8/16 get hit_prop. */
    w.hit_ratio = 0.5;
    unsigned hits = 0;
    for (unsigned l = 0; l < 256; l++) {
        uint8_t p = policy_window_priority(&w, w.base + 128ull * l);
        assert_int_equal(p, policy_line_selected(w.base + 128ull * l, 8) ? IR_EVICT_LAST
                                                                          : IR_EVICT_FIRST);
        hits += p == IR_EVICT_LAST;
    }
    assert_in_range(hits, 102, 154); /* 40% .. 60% of 256 */
    /* Streaming and normal hit properties; a zero-length window is none. */
    w.hit_ratio = 1.0;
    w.hit_prop = 1;
    assert_int_equal(policy_window_priority(&w, w.base + 4096), IR_EVICT_FIRST);
    w.hit_prop = 0;
    assert_int_equal(policy_window_priority(&w, w.base + 4096), IR_EVICT_NORMAL);
    w.bytes = 0;
    assert_int_equal(policy_window_priority(&w, w.base), IR_EVICT_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_fractional_table),
        cmocka_unit_test(test_encode_range_examples),
        cmocka_unit_test(test_priority_range_probes),
        cmocka_unit_test(test_priority_constants),
        cmocka_unit_test(test_priority_fraction_half),
        cmocka_unit_test(test_priority_mode1_invalid),
        cmocka_unit_test(test_window_priority),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
