/* Two placements in one translation unit: each header names its symbols by its own prefix. */
#include <stdint.h>
#include <stdio.h>

#include "ag/placement.h"
#include "ar/placement.h"

int main(void) {
    printf("ag: %d ranks, %d threadblocks, policy %s, plan %s, topology %s\n", AG_RANKS, AG_THREADBLOCKS, AG_POLICY,
           AG_PLAN_FINGERPRINT, AG_TOPOLOGY_FINGERPRINT);
    printf("ar: %d ranks, %d threadblocks, policy %s, plan %s, topology %s\n", AR_RANKS, AR_THREADBLOCKS, AR_POLICY,
           AR_PLAN_FINGERPRINT, AR_TOPOLOGY_FINGERPRINT);
    for (uint32_t s = ag_stream_offset[0]; s < ag_stream_offset[1]; s++) {
        printf("ag rank 0 stream %u: domain %d, %d CUs, mask word 0 %08x\n", (unsigned) s, ag_stream_domain[s], ag_stream_cus[s],
               (unsigned) ag_stream_mask[s][0]);
    }
    printf("grid order on this target: %s\n", AG_ADVISORY_GRID ? "advisory" : "applied");
    return AG_RANKS == 4 && AR_RANKS == 4 && AG_NAR_GRANULARITY >= 1 ? 0 : 1;
}
