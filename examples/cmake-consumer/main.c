/* Prints where the placement puts each threadblock of rank 0: the arrays come from the
 * header nunac generated during this build. */
#include <stdint.h>
#include <stdio.h>

#include "placement.h"

int main(void) {
    printf("ranks %d, threadblocks %d, mask words %d\n", NUNAC_RANKS, NUNAC_THREADBLOCKS, NUNAC_MASK_WORDS);
    for (uint32_t t = nunac_tb_offset[0]; t < nunac_tb_offset[1]; t++) {
        printf("rank 0 tb %u: cu %d, grid slot %d, domain %d\n", (unsigned) (t - nunac_tb_offset[0]), nunac_tb_cu[t],
               nunac_tb_grid_slot[t], nunac_tb_domain[t]);
    }
    return NUNAC_RANKS == 4 ? 0 : 1;
}
