/* Shared by the ALU unit tests of three-operand float and half instructions: build an
 * instruction, run it on 32 lanes of cases, and compare every lane with its expected bits.
 * Include after <cmocka.h> and "exec/alu.h". */
#ifndef GMS_TESTS_ALU_CASES_H
#define GMS_TESTS_ALU_CASES_H

typedef struct lane_case {
    uint64_t a, b, c, want;
} lane_case;

static ir_insn make(ir_opcode op, ir_type type, uint32_t mods, ir_round rnd)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.type = (uint8_t)type;
    in.mods = mods;
    in.rnd = (uint8_t)rnd;
    in.nsrc = 2;
    return in;
}

static void check_cases(const ir_insn *in, const lane_case *cases, size_t n)
{
    uint64_t src[3][ALU_LANES], dst[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        src[0][l] = cases[(size_t)l % n].a;
        src[1][l] = cases[(size_t)l % n].b;
        src[2][l] = cases[(size_t)l % n].c;
    }
    alu_fn fn = alu_lookup(in);
    assert_non_null(fn);
    alu_args args = {{src[0], src[1], src[2], NULL}, dst, NULL, NULL, NULL};
    fn(in, &args);
    for (int l = 0; l < ALU_LANES; l++) {
        const lane_case *c = &cases[(size_t)l % n];
        if (dst[l] != c->want)
            print_error("%s.%s rnd %d lane %d: a=%#llx b=%#llx c=%#llx got %#llx want %#llx\n",
                        ir_opcode_name((ir_opcode)in->op), ir_type_name((ir_type)in->type),
                        in->rnd, l, (unsigned long long)c->a, (unsigned long long)c->b,
                        (unsigned long long)c->c, (unsigned long long)dst[l],
                        (unsigned long long)c->want);
        assert_int_equal(dst[l], c->want);
    }
}

#endif
