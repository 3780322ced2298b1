/* Reference for producer_consumer: after each hand-off the consumer block has received the whole
 * payload t * 3 + 1 and the flag is 1 (the early reads race with the producer and are not
 * checked). */
#include "ref_common.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: producer_consumer LAUNCH.json");
    ref_open(argv[1]);
    const char *sides[2] = {"a", "b"};
    for (int s = 0; s < 2; ++s) {
        char payload_name[32], received_name[32], flag_name[32];
        snprintf(payload_name, sizeof payload_name, "payload_%s", sides[s]);
        snprintf(received_name, sizeof received_name, "received_%s", sides[s]);
        snprintf(flag_name, sizeof flag_name, "flag_%s", sides[s]);
        int32_t *payload = ref_input(payload_name, "i32", 128);
        int32_t *received = ref_input(received_name, "i32", 128);
        int32_t *flag = ref_input(flag_name, "i32", 1);
        for (int t = 0; t < 128; ++t)
            payload[t] = received[t] = t * 3 + 1;
        flag[0] = 1;
        ref_write_expected(payload_name, payload, 128 * sizeof *payload);
        ref_write_expected(received_name, received, 128 * sizeof *received);
        ref_write_expected(flag_name, flag, sizeof *flag);
        free(payload), free(received), free(flag);
    }
    return 0;
}
