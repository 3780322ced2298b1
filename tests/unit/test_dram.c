/* Unit tests for src/mem/dram: sparse pages, poison patterns, masks, counters and limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"

static dram *make_dram(uint32_t page_bytes, uint64_t limit_bytes)
{
    dram_config config = {page_bytes, limit_bytes};
    diag_list dl;
    diag_list_init(&dl);
    dram *d = NULL;
    assert_int_equal(dram_create(&config, &dl, &d), MEM_OK);
    assert_int_equal(dl.count, 0);
    diag_list_fini(&dl);
    return d;
}

static void test_unwritten_reads_zero_and_costs_nothing(void **state)
{
    (void)state;
    dram *d = make_dram(0, 0);
    assert_int_equal(dram_page_bytes(d), 65536);
    uint8_t buf[300];
    memset(buf, 0x5a, sizeof buf);
    assert_int_equal(dram_read(d, UINT64_C(0x7f0000000000), sizeof buf, buf), MEM_OK);
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0);
    const dram_stats *s = dram_get_stats(d);
    assert_int_equal(s->reads, 1);
    assert_int_equal(s->read_bytes, 300);
    assert_int_equal(s->pages_allocated, 0);
    assert_int_equal(s->bytes_allocated, 0);
    dram_destroy(d);
}

static void test_write_read_across_pages(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 0);
    uint8_t data[10000], back[10000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 1);
    uint64_t addr = 4096 * 3 - 17; /* starts 17 bytes before a page boundary: 4 pages */
    assert_int_equal(dram_write(d, addr, sizeof data, data, NULL), MEM_OK);
    assert_int_equal(dram_read(d, addr, sizeof back, back), MEM_OK);
    assert_memory_equal(data, back, sizeof data);
    const dram_stats *s = dram_get_stats(d);
    assert_int_equal(s->pages_allocated, 4);
    assert_int_equal(s->bytes_allocated, 4 * 4096);
    assert_int_equal(s->write_bytes, 10000);
    assert_int_equal(s->read_bytes, 10000);
    assert_int_equal(s->writes, 1);
    /* The byte before the write and the byte after stay zero. */
    uint8_t edge[2];
    assert_int_equal(dram_peek(d, addr - 1, 1, &edge[0]), MEM_OK);
    assert_int_equal(dram_peek(d, addr + sizeof data, 1, &edge[1]), MEM_OK);
    assert_int_equal(edge[0], 0);
    assert_int_equal(edge[1], 0);
    dram_destroy(d);
}

static void test_sparse_far_apart(void **state)
{
    (void)state;
    dram *d = make_dram(0, 0);
    uint64_t addrs[] = {0, UINT64_C(1) << 40, UINT64_C(1) << 63, UINT64_MAX - 3};
    for (unsigned i = 0; i < 4; i++) {
        uint32_t v = 0xdead0000u + i;
        assert_int_equal(dram_poke(d, addrs[i], 4, &v), MEM_OK);
    }
    for (unsigned i = 0; i < 4; i++) {
        uint32_t v = 0;
        assert_int_equal(dram_peek(d, addrs[i], 4, &v), MEM_OK);
        assert_int_equal(v, 0xdead0000u + i);
    }
    assert_int_equal(dram_get_stats(d)->pages_allocated, 4);
    /* peek/poke do not count traffic. */
    assert_int_equal(dram_get_stats(d)->read_bytes, 0);
    assert_int_equal(dram_get_stats(d)->write_bytes, 0);
    dram_destroy(d);
}

static void test_many_pages_grow_the_table(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 0);
    for (uint64_t i = 0; i < 3000; i++) {
        uint64_t v = i * 0x9E3779B97F4A7C15u;
        assert_int_equal(dram_poke(d, i * 12288 + 8, 8, &v), MEM_OK);
    }
    for (uint64_t i = 0; i < 3000; i++) {
        uint64_t v = 0;
        assert_int_equal(dram_peek(d, i * 12288 + 8, 8, &v), MEM_OK);
        assert_true(v == i * 0x9E3779B97F4A7C15u);
    }
    assert_int_equal(dram_get_stats(d)->pages_allocated, 3000);
    dram_destroy(d);
}

static void test_masked_write(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 0);
    uint8_t old[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint8_t neu[8] = {11, 12, 13, 14, 15, 16, 17, 18};
    uint8_t mask[8] = {0, 1, 0, 0, 1, 1, 0, 1};
    assert_int_equal(dram_poke(d, 100, 8, old), MEM_OK);
    assert_int_equal(dram_write(d, 100, 8, neu, mask), MEM_OK);
    uint8_t back[8];
    assert_int_equal(dram_peek(d, 100, 8, back), MEM_OK);
    uint8_t expect[8] = {1, 12, 3, 4, 15, 16, 7, 18};
    assert_memory_equal(back, expect, 8);
    assert_int_equal(dram_get_stats(d)->write_bytes, 8); /* masked bytes still transferred */
    /* An all-zero mask over an untouched page allocates nothing. */
    uint8_t zero_mask[8] = {0};
    assert_int_equal(dram_write(d, 1 << 20, 8, neu, zero_mask), MEM_OK);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 1);
    dram_destroy(d);
}

static void test_fill_pattern(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 0);
    /* Whole pages that hold no data only record the byte. */
    assert_int_equal(dram_fill_pattern(d, 8192, 3 * 4096, 0xcd), MEM_OK);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 0);
    uint8_t b[3];
    assert_int_equal(dram_peek(d, 8191, 3, b), MEM_OK);
    assert_int_equal(b[0], 0);
    assert_int_equal(b[1], 0xcd);
    assert_int_equal(b[2], 0xcd);
    /* A write into a poisoned page keeps the poison around it. */
    uint8_t v = 0x42;
    assert_int_equal(dram_poke(d, 9000, 1, &v), MEM_OK);
    assert_int_equal(dram_peek(d, 8999, 3, b), MEM_OK);
    assert_int_equal(b[0], 0xcd);
    assert_int_equal(b[1], 0x42);
    assert_int_equal(b[2], 0xcd);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 1);
    /* Partial-page poison of a data page; whole-page poison releases data. */
    assert_int_equal(dram_fill_pattern(d, 9000, 1, 0xee), MEM_OK);
    assert_int_equal(dram_peek(d, 9000, 1, b), MEM_OK);
    assert_int_equal(b[0], 0xee);
    assert_int_equal(dram_fill_pattern(d, 8192, 4096, 0x77), MEM_OK);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 0);
    assert_int_equal(dram_peek(d, 9000, 1, b), MEM_OK);
    assert_int_equal(b[0], 0x77);
    /* Partial poison of an absent page allocates it; poison with 0 of an absent page does not. */
    assert_int_equal(dram_fill_pattern(d, 100, 10, 0), MEM_OK);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 0);
    assert_int_equal(dram_fill_pattern(d, 100, 10, 0x99), MEM_OK);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 1);
    assert_int_equal(dram_peek(d, 99, 3, b), MEM_OK);
    assert_int_equal(b[0], 0);
    assert_int_equal(b[1], 0x99);
    dram_destroy(d);
}

/* Page data released by a whole-page poison is reused by the next page that needs data: that page
 * must read as its own fill byte (0, or a poison), not as the released page's old bytes. */
static void test_released_data_is_reused_clean(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 0);
    uint8_t full[4096], back[4096];
    memset(full, 0x11, sizeof full);
    assert_int_equal(dram_poke(d, 0, sizeof full, full), MEM_OK);
    assert_int_equal(dram_fill_pattern(d, 0, 4096, 0xab), MEM_OK); /* releases page 0's data */
    assert_int_equal(dram_get_stats(d)->pages_allocated, 0);
    uint8_t v = 0x42;
    assert_int_equal(dram_poke(d, 4096 + 5, 1, &v), MEM_OK); /* page 1, fill 0 */
    assert_int_equal(dram_peek(d, 4096, sizeof back, back), MEM_OK);
    for (size_t i = 0; i < sizeof back; i++)
        assert_int_equal(back[i], i == 5 ? 0x42 : 0);
    assert_int_equal(dram_peek(d, 0, sizeof back, back), MEM_OK);
    for (size_t i = 0; i < sizeof back; i++)
        assert_int_equal(back[i], 0xab);
    /* Released again, then taken by a page poisoned with 0x77. */
    assert_int_equal(dram_fill_pattern(d, 4096, 4096, 0), MEM_OK);
    assert_int_equal(dram_fill_pattern(d, 8192, 4096, 0x77), MEM_OK);
    assert_int_equal(dram_poke(d, 8192 + 4095, 1, &v), MEM_OK);
    assert_int_equal(dram_peek(d, 8192, sizeof back, back), MEM_OK);
    for (size_t i = 0; i < sizeof back; i++)
        assert_int_equal(back[i], i == 4095 ? 0x42 : 0x77);
    assert_int_equal(dram_peek(d, 4096, sizeof back, back), MEM_OK);
    for (size_t i = 0; i < sizeof back; i++)
        assert_int_equal(back[i], 0);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 1);
    dram_destroy(d);
}

/* Pages written densely across several slabs (a 64 KiB one, then 2 MiB ones: 12 MiB here) keep
 * their own bytes, and a page as large as the biggest slab works too. */
static void test_dense_pages_over_slabs(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 0);
    static uint8_t buf[12 << 20];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 131 + (i >> 12));
    assert_int_equal(dram_poke(d, 1 << 20, sizeof buf, buf), MEM_OK);
    assert_int_equal(dram_get_stats(d)->pages_allocated, (12 << 20) / 4096);
    static uint8_t back[12 << 20];
    assert_int_equal(dram_peek(d, 1 << 20, sizeof back, back), MEM_OK);
    assert_memory_equal(buf, back, sizeof buf);
    dram_destroy(d);
    d = make_dram(16u << 20, 0);
    assert_int_equal(dram_poke(d, (16u << 20) - 3, 6, buf), MEM_OK);
    assert_int_equal(dram_peek(d, (16u << 20) - 4, 8, back), MEM_OK);
    assert_int_equal(back[0], 0);
    assert_memory_equal(back + 1, buf, 6);
    assert_int_equal(back[7], 0);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 2);
    dram_destroy(d);
}

/* Twin of the one-page store (store_in_page) and the general path: 2,000 random masked and
 * unmasked writes inside one page on one store; on the other the same writes, each extended past
 * its page's end by 8 bytes whose mask is zero (so they take the general path and change the same
 * bytes). Poisoned pages, untouched pages and all-zero masks are among them. Every byte of the
 * pages and the pages allocated must agree. */
static void test_one_page_store_twin(void **state)
{
    (void)state;
    dram *a = make_dram(4096, 0), *b = make_dram(4096, 0);
    assert_int_equal(dram_fill_pattern(a, 4 * 4096, 4096, 0x5c), MEM_OK);
    assert_int_equal(dram_fill_pattern(b, 4 * 4096, 4096, 0x5c), MEM_OK);
    uint64_t x = 12345;
    uint8_t data[264], mask[264];
    for (int n = 0; n < 2000; n++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        uint64_t page = (x >> 33) % 8, len = 1 + (x >> 40) % 256;
        uint64_t off = (x >> 20) % (4096 - len + 1);
        int masked = (x >> 60) % 3, zero = (x >> 58) % 16 == 0;
        for (size_t i = 0; i < sizeof data; i++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            data[i] = (uint8_t)(x >> 56);
            mask[i] = zero || i >= len ? 0 : (uint8_t)((x >> 50) % 3 != 0);
        }
        uint64_t addr = page * 4096 + off;
        assert_int_equal(dram_write(a, addr, len, data, masked ? mask : NULL), MEM_OK);
        uint64_t ext = 4096 - off + 8; /* to 8 bytes into the next page */
        uint8_t *edata = calloc(ext, 1), *emask = calloc(ext, 1);
        assert_non_null(edata);
        assert_non_null(emask);
        memcpy(edata, data, len);
        if (masked)
            memcpy(emask, mask, len);
        else
            memset(emask, 1, len);
        assert_int_equal(dram_write(b, addr, ext, edata, emask), MEM_OK);
        free(edata);
        free(emask);
    }
    uint8_t pa[4096], pb[4096];
    for (uint64_t page = 0; page < 9; page++) {
        assert_int_equal(dram_peek(a, page * 4096, 4096, pa), MEM_OK);
        assert_int_equal(dram_peek(b, page * 4096, 4096, pb), MEM_OK);
        assert_memory_equal(pa, pb, 4096);
    }
    assert_int_equal(dram_get_stats(a)->pages_allocated, dram_get_stats(b)->pages_allocated);
    dram_destroy(a);
    dram_destroy(b);
}

static void test_wrap_is_rejected(void **state)
{
    (void)state;
    dram *d = make_dram(0, 0);
    uint8_t buf[16] = {0};
    assert_int_equal(dram_read(d, UINT64_MAX - 7, 16, buf), MEM_ERR_ARGUMENT);
    assert_int_equal(dram_write(d, UINT64_MAX - 7, 16, buf, NULL), MEM_ERR_ARGUMENT);
    assert_int_equal(dram_fill_pattern(d, UINT64_MAX, 2, 1), MEM_ERR_ARGUMENT);
    assert_int_equal(dram_read(d, UINT64_MAX - 7, 8, buf), MEM_OK); /* ends exactly at the top */
    assert_int_equal(dram_read(d, 5, 0, buf), MEM_OK);
    assert_int_equal(dram_get_stats(d)->reads, 2);
    assert_int_equal(dram_get_stats(d)->read_bytes, 8);
    dram_destroy(d);
}

static void test_limit_gives_nomem_without_partial_write(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 2 * 4096);
    uint8_t data[3 * 4096];
    memset(data, 0x3c, sizeof data);
    assert_int_equal(dram_write(d, 0, 2 * 4096, data, NULL), MEM_OK);
    /* The third page would exceed the limit: nothing of this write is stored. */
    assert_int_equal(dram_write(d, 4096, 2 * 4096, (uint8_t[8192]){0}, NULL), MEM_ERR_NOMEM);
    uint8_t b = 0;
    assert_int_equal(dram_peek(d, 4096, 1, &b), MEM_OK);
    assert_int_equal(b, 0x3c);
    assert_int_equal(dram_get_stats(d)->writes, 1);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 2);
    dram_reset_stats(d);
    assert_int_equal(dram_get_stats(d)->write_bytes, 0);
    assert_int_equal(dram_get_stats(d)->pages_allocated, 2);
    dram_destroy(d);
}

static void test_bad_page_size(void **state)
{
    (void)state;
    diag_list dl;
    diag_list_init(&dl);
    dram_config config = {3000, 0};
    dram *d = (dram *)&dl;
    assert_int_equal(dram_create(&config, &dl, &d), MEM_ERR_CONFIG);
    assert_null(d);
    assert_int_equal(dl.errors, 1);
    assert_non_null(diag_find(&dl, "MEM-DRAM-001"));
    diag_list_fini(&dl);
    dram_destroy(NULL);
}

/* dram_read remembers the page it read last: reads of that page after the page changed
 * (written, poisoned whole, released, the table grown under it) see the change. */
static void test_read_after_page_changes(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 0);
    const uint64_t a = UINT64_C(0x7f0000000000);
    uint8_t buf[32], data[32];
    memset(data, 0x11, sizeof data);
    assert_int_equal(dram_read(d, a + 64, 32, buf), MEM_OK); /* absent: zeros */
    assert_int_equal(buf[0], 0);
    assert_int_equal(dram_write(d, a + 64, 32, data, NULL), MEM_OK);
    assert_int_equal(dram_read(d, a + 64, 32, buf), MEM_OK);
    assert_int_equal(buf[31], 0x11);
    assert_int_equal(dram_fill_pattern(d, a, 4096, 0x5a), MEM_OK); /* released, poisoned */
    assert_int_equal(dram_read(d, a + 64, 32, buf), MEM_OK);
    assert_int_equal(buf[0], 0x5a);
    assert_int_equal(buf[31], 0x5a);
    memset(data, 0x22, sizeof data);
    assert_int_equal(dram_write(d, a + 96, 32, data, NULL), MEM_OK); /* data again */
    assert_int_equal(dram_read(d, a + 80, 32, buf), MEM_OK);
    assert_int_equal(buf[0], 0x5a);
    assert_int_equal(buf[16], 0x22);
    for (uint64_t p = 1; p <= 200; p++) { /* the table grows and moves its slots */
        uint8_t v = (uint8_t)p;
        assert_int_equal(dram_write(d, a + p * 4096, 1, &v, NULL), MEM_OK);
        assert_int_equal(dram_read(d, a + p * 4096, 1, buf), MEM_OK);
        assert_int_equal(buf[0], v);
    }
    assert_int_equal(dram_read(d, a + 96, 32, buf), MEM_OK);
    assert_int_equal(buf[0], 0x22);
    assert_int_equal(dram_read(d, a + 7 * 4096, 1, buf), MEM_OK);
    assert_int_equal(buf[0], 7);
    assert_int_equal(dram_read(d, a + 4096 - 16, 32, buf), MEM_OK); /* across two pages */
    assert_int_equal(buf[0], 0x5a);
    assert_int_equal(buf[16], 1);
    assert_int_equal(buf[17], 0);
    assert_int_equal(dram_get_stats(d)->reads, 207);
    dram_destroy(d);
}

/* A masked write longer than a word, across two pages: exactly the bytes whose mask byte is
 * nonzero (any nonzero value) change, whole zero words of the mask included. */
static void test_masked_write_long(void **state)
{
    (void)state;
    dram *d = make_dram(4096, 0);
    enum { N = 45 };
    const uint64_t at = 4096 - 21;
    uint8_t old[N], neu[N], mask[N], back[N];
    for (int i = 0; i < N; i++) {
        old[i] = (uint8_t)(100 + i);
        neu[i] = (uint8_t)(200 - i);
        mask[i] = (uint8_t)(i % 3 == 0 ? 0 : i % 3 == 1 ? 0x80 : i); /* 0, 0x80 or i */
    }
    for (int i = 8; i < 16; i++) mask[i] = 0; /* a whole zero word */
    mask[44] = 0x01;
    assert_int_equal(dram_poke(d, at, N, old), MEM_OK);
    assert_int_equal(dram_write(d, at, N, neu, mask), MEM_OK);
    assert_int_equal(dram_peek(d, at, N, back), MEM_OK);
    for (int i = 0; i < N; i++)
        assert_int_equal(back[i], mask[i] ? neu[i] : old[i]);
    dram_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unwritten_reads_zero_and_costs_nothing),
        cmocka_unit_test(test_write_read_across_pages),
        cmocka_unit_test(test_sparse_far_apart),
        cmocka_unit_test(test_many_pages_grow_the_table),
        cmocka_unit_test(test_masked_write),
        cmocka_unit_test(test_fill_pattern),
        cmocka_unit_test(test_released_data_is_reused_clean),
        cmocka_unit_test(test_dense_pages_over_slabs),
        cmocka_unit_test(test_one_page_store_twin),
        cmocka_unit_test(test_wrap_is_rejected),
        cmocka_unit_test(test_limit_gives_nomem_without_partial_write),
        cmocka_unit_test(test_bad_page_size),
        cmocka_unit_test(test_read_after_page_changes),
        cmocka_unit_test(test_masked_write_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
