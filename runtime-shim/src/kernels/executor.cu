// Device plan executor, compiled at run time (NVRTC; hipRTC for the HIP path) and by nvcc in
// the tests where it exists. Each logical threadblock of the launch table runs in one physical
// block. Pinned launches use a dispatcher: a block reads where it runs (%smid on NVIDIA,
// XCC_ID, the die, on AMD) and claims a logical threadblock planned there (tbinfo's third field
// holds the planned SM or die accordingly). A block with nothing planned where it landed (a
// spare) exits as soon as every threadblock of its range is claimed; only if some stay
// unclaimed for steal_after does it take one, so the plan always finishes and the readback
// shows what ran where. Every wait is bounded: on expiry the block raises the abort flag with a
// reason (1: a wait timed out, 2: an operand outside every segment) and returns, and the host
// reports it instead of hanging. Budgets are in the kernel's timer: %globaltimer nanoseconds on
// NVIDIA (its rate does not follow the SM clock), wall_clock64 ticks on AMD.
//
// Step record (NR_F long longs): op, nelem, src_off, dst_off, stage_off, from_stage_off,
// from (global step or -1), ndeps, dep_first. Offsets are floats within one arena; an operand
// the step does not use is -1.
//
// stats (per device, device memory): [0] threadblocks of [tb_lo, tb_hi) claimed so far,
// [1] the highest location read plus one, [2] %nsmid on NVIDIA (0 elsewhere).
//
// Ranks on several devices (the host compiles with -DNR_MULTI=1): each device runs the
// threadblocks [tb_lo, tb_hi) of its ranks and holds their storages and stages; the offsets
// stay global (one virtual arena) and a step translates its base pointers once through the
// segment table (nseg triples: first offset, end offset, device address of the first), which
// covers every device's memory, peers' included. The done flags, claims and abort flag are in
// host-mapped memory shared by every device, so their atomics, fences and acquire loads are
// system-scope (sm_70+ on NVIDIA). Without NR_MULTI the arena is the one device's and offsets
// index it.
// What each op does to element i of its operands, written once: the kernel's loop expands it,
// and the host mock (src/test/native/mock_common.c) includes this file with NR_ELEMENT_ONLY
// defined, which keeps only this macro, to run steps on the host as the device does.
#define NR_ELEMENT(op, i, dst, self, src, got) \
    switch (op) { \
    case OP_S: (self)[i] = (src)[i]; break; \
    case OP_R: (dst)[i] = (got)[i]; break; \
    case OP_RCS: (dst)[i] = (got)[i]; (self)[i] = (got)[i]; break; \
    case OP_RRS: (self)[i] = (got)[i] + (src)[i]; break; \
    case OP_RRC: (dst)[i] = (got)[i] + (src)[i]; break; \
    case OP_RRCS: { float v_ = (got)[i] + (src)[i]; (self)[i] = v_; (dst)[i] = v_; } break; \
    case OP_CPY: case OP_PUT: case OP_GET: (dst)[i] = (src)[i]; break; \
    case OP_RE: case OP_RA: case OP_GETRE: (dst)[i] += (src)[i]; break; \
    default: break; \
    }
#ifndef NR_ELEMENT_ONLY
#define NR_F 9
#define OP_S 0
#define OP_R 1
#define OP_RCS 2
#define OP_RRS 3
#define OP_RRC 4
#define OP_RRCS 5
#define OP_CPY 6
#define OP_RE 7
#define OP_RA 8
#define OP_PUT 10
#define OP_GET 11
#define OP_GETRE 12

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC_RTC__) || defined(__AMDGCN__)
#define NR_AMD 1
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__)
#define NR_AMD_XCC 1 // several XCDs: XCC_ID says which one runs the wave
#endif
#if defined(__gfx908__) || defined(__gfx90a__) || defined(NR_AMD_XCC)
#define NR_AMD_HWID 1 // the gfx9 HW_ID layout (CU_ID 11:8, SH_ID 12, SE_ID from bit 13)
#endif
#endif

#define NR_ABORT_TIMEOUT 1
#define NR_ABORT_ADDRESS 2

#if defined(NR_MULTI)
#define NR_EXCH(p, v) atomicExch_system((p), (v))
#define NR_CAS(p, a, b) atomicCAS_system((p), (a), (b))
#define NR_FENCE() __threadfence_system()
#else
#define NR_EXCH(p, v) atomicExch((p), (v))
#define NR_CAS(p, a, b) atomicCAS((p), (a), (b))
#define NR_FENCE() __threadfence()
#endif

// A poll of a flag another block (or device) sets: an acquire load, so the data written before
// the flag is visible after it; no read-modify-write, which over PCIe costs a round trip.
__device__ static int nr_load(const int *p) {
#if defined(NR_AMD) && defined(NR_MULTI)
    return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
#elif defined(NR_AMD)
    return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
#else
    int v;
#if defined(NR_MULTI)
    asm volatile("ld.acquire.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
#else
    asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
#endif
    return v;
#endif
}

// Where this block runs, in the unit the dispatcher places by: the SM, or the die on AMD.
__device__ static int nr_location(void) {
#if defined(NR_AMD_XCC)
    unsigned v;
    asm volatile("s_getreg_b32 %0, hwreg(HW_REG_XCC_ID)" : "=s"(v));
    return (int) (v & 0xf);
#elif defined(NR_AMD)
    return 0; // one die
#else
    unsigned v;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(v));
    return (int) v;
#endif
}

// The finer location for the readback: the raw HW_ID register on AMD (decoded by the host),
// %smid again on NVIDIA, -1 where the register layout is not known.
__device__ static int nr_hw_id(void) {
#if defined(NR_AMD_HWID)
    unsigned v;
    asm volatile("s_getreg_b32 %0, hwreg(HW_REG_HW_ID)" : "=s"(v));
    return (int) v;
#elif defined(NR_AMD)
    return -1;
#else
    return nr_location();
#endif
}

// The timer budgets are counted in: %globaltimer nanoseconds on NVIDIA (clock64 follows the
// SM clock, which idles at a fraction of its boost rate), the constant-rate wall clock on AMD
// (the host assumes 100 MHz).
__device__ static long long nr_clock(void) {
#if defined(NR_AMD)
    return wall_clock64();
#else
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (long long) t;
#endif
}

// How many units the hardware numbers locations over: %nsmid on NVIDIA, 0 where unknown.
__device__ static int nr_nunits(void) {
#if defined(NR_AMD)
    return 0;
#else
    unsigned v;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(v));
    return (int) v;
#endif
}

// Raises the abort flag with a reason; the first reason stays.
__device__ static void nr_abort(int *abort_flag, int why) { NR_CAS(abort_flag, 0, why); }

// Spins until flag is set or the budget runs out; returns 0 on success.
__device__ static int nr_wait(const int *flag, int *abort_flag, long long budget) {
    long long t0 = nr_clock();
    while (nr_load(flag) == 0) {
        if (nr_load(abort_flag) != 0) return -1;
        if (nr_clock() - t0 > budget) {
            nr_abort(abort_flag, NR_ABORT_TIMEOUT);
            return -1;
        }
    }
    return 0;
}

#if defined(NR_MULTI)
// The device address of global arena offset `off` (-1: an operand the step does not use, NULL):
// the segment that holds it. An offset in no segment is a bad table or a bad translation; the
// caller aborts rather than touch memory the offset does not name.
__device__ static float *nr_at(const long long *seg, int nseg, long long off, int *bad) {
    if (off < 0) return 0;
    for (int k = 0; k < nseg; k++)
        if (off >= seg[3 * k] && off < seg[3 * k + 1]) return (float *) seg[3 * k + 2] + (off - seg[3 * k]);
    *bad = 1;
    return 0;
}
#endif

// Claims a threadblock of [lo, hi) planned at `loc` (any when loc < 0); -1 when none is left.
__device__ static int nr_claim(const int *tbinfo, int *claim, int *stats, int lo, int hi, int loc) {
    for (int t = lo; t < hi; t++) {
        if ((loc < 0 || tbinfo[3 * t + 2] == loc) && nr_load(&claim[t]) == 0 && NR_CAS(&claim[t], 0, 1) == 0) {
            atomicAdd(&stats[0], 1);
            return t;
        }
    }
    return -1;
}

// A spare block: gone as soon as every threadblock is claimed (or the launch aborted); after
// steal_after it takes any one left, so a plan whose blocks landed elsewhere still finishes.
__device__ static int nr_spare(const int *tbinfo, int *claim, int *stats, const int *abort_flag, int lo, int hi, long long steal_after) {
    long long t0 = nr_clock();
    while (nr_load(&stats[0]) < hi - lo && nr_load(abort_flag) == 0)
        if (nr_clock() - t0 >= steal_after) return nr_claim(tbinfo, claim, stats, lo, hi, -1);
    return -1;
}

extern "C" __global__ void nunart_exec(const long long *steps, const int *deps, const int *tbinfo, int ntb,
                                       float *arena, int *done, int *ran_on, int *hw_id, int *claim, int pinned,
                                       long long steal_after, long long budget, const long long *seg, int nseg,
                                       int tb_lo, int tb_hi, int *stats) {
    __shared__ int mine;
    __shared__ int bad;
#if defined(NR_MULTI)
    __shared__ float *p_dst, *p_self, *p_src, *p_got;
#endif
    int *abort_flag = &claim[ntb];
    if (threadIdx.x == 0) {
        int loc = nr_location();
        bad = 0;
        if (!pinned) {
            int t = tb_lo + (int) blockIdx.x;
            mine = t < tb_hi && NR_CAS(&claim[t], 0, 1) == 0 ? t : -1;
            if (mine >= 0) atomicAdd(&stats[0], 1);
        } else {
            mine = nr_claim(tbinfo, claim, stats, tb_lo, tb_hi, loc);
            if (mine < 0) mine = nr_spare(tbinfo, claim, stats, abort_flag, tb_lo, tb_hi, steal_after);
        }
        atomicMax(&stats[1], loc + 1);
        if (blockIdx.x == 0) stats[2] = nr_nunits();
        if (mine >= 0) {
            ran_on[mine] = loc;
            hw_id[mine] = nr_hw_id();
        }
    }
    __syncthreads();
    const int t = mine;
    if (t < 0) return;
    const int first = tbinfo[3 * t], n = tbinfo[3 * t + 1];
    for (int g = first; g < first + n; g++) {
        const long long *s = steps + (long long) g * NR_F;
        if (threadIdx.x == 0) {
            for (int d = 0; d < (int) s[7] && !bad; d++) bad = nr_wait(&done[deps[s[8] + d]], abort_flag, budget);
            if (!bad && s[6] >= 0) bad = nr_wait(&done[s[6]], abort_flag, budget);
            NR_FENCE();
#if defined(NR_MULTI)
            int outside = 0;
            p_dst = nr_at(seg, nseg, s[3], &outside);
            p_self = nr_at(seg, nseg, s[4], &outside);
            p_src = nr_at(seg, nseg, s[2], &outside);
            p_got = nr_at(seg, nseg, s[5], &outside);
            if (outside && !bad) {
                nr_abort(abort_flag, NR_ABORT_ADDRESS);
                bad = 1;
            }
#endif
        }
        __syncthreads();
        if (bad) return;
        const int op = (int) s[0];
        const long long ne = s[1];
#if defined(NR_MULTI)
        float *dst = p_dst;
        float *self = p_self;
        const float *src = p_src;
        const float *got = p_got;
#else
        float *dst = s[3] >= 0 ? arena + s[3] : arena;
        float *self = s[4] >= 0 ? arena + s[4] : arena;
        const float *src = s[2] >= 0 ? arena + s[2] : arena;
        const float *got = s[5] >= 0 ? arena + s[5] : arena;
#endif
        for (long long i = threadIdx.x; i < ne; i += blockDim.x) {
            NR_ELEMENT(op, i, dst, self, src, got)
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            NR_FENCE();
            NR_EXCH(&done[g], 1);
        }
    }
}

// ---- Latency probe (device check; the NUNA paper's section 3.2 method, its Fig. 4) ----
// The first block to land on each location (an SM; an XCD on AMD) measures from there the
// latency of loads and atomics to `naddr` addresses; every other block exits at once. The host
// spreads the addresses evenly over every block of device memory it could allocate (the whole
// memory by default) and passes them in addr: location s probes addr[a * nloc + s], lines no
// other location touches, so its first load of each comes from memory. The memory is never
// written (the atomics add 0) and need not be zeroed: each load's value masked with `mask` (0)
// is the next one's offset, so the chains stay dependent whatever the memory holds. Per
// (location, address), in the location's clock cycles: that first load (cold), the mean of a
// chain of `reps` dependent loads of the line (warm: from L2) and of `reps` dependent atomic
// adds; per location its clock and timer deltas over the whole measurement, which convert cycles
// to nanoseconds. out holds nloc records of 2 + 3 * naddr long longs; owner, nloc ints.
__device__ static long long nr_cycles(void) {
#if defined(NR_AMD)
    return clock64();
#else
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
    return c;
#endif
}

__device__ static unsigned nr_load_l2(const unsigned *p) {
#if defined(NR_AMD)
    return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#else
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
#endif
}

extern "C" __global__ void nunart_probe(const unsigned long long *addr, unsigned mask, int naddr, int reps, int *owner, long long *out, int nloc) {
    // Storing each value to shared memory before reading the clock makes the read wait for it.
    volatile __shared__ unsigned sink;
    if (threadIdx.x != 0) return;
    const int s = nr_location();
    if (s < 0 || s >= nloc || atomicCAS(&owner[s], 0, 1) != 0) return;
    long long *o = out + (long long) s * (2 + 3 * naddr);
    const long long c_start = nr_cycles(), t_start = nr_clock();
    for (int a = 0; a < naddr; a++) {
        unsigned *p = (unsigned *) addr[(long long) a * nloc + s];
        long long c0 = nr_cycles();
        unsigned v = nr_load_l2(p);
        sink = v;
        long long c1 = nr_cycles();
        o[2 + 3 * a] = c1 - c0;
        c0 = nr_cycles();
        for (int r = 0; r < reps; r++) v = nr_load_l2(p + (v & mask));
        sink = v;
        c1 = nr_cycles();
        o[3 + 3 * a] = (c1 - c0) / reps;
        c0 = nr_cycles();
        for (int r = 0; r < reps; r++) v = atomicAdd(p + (v & mask), 0u);
        sink = v;
        c1 = nr_cycles();
        o[4 + 3 * a] = (c1 - c0) / reps;
    }
    o[0] = nr_cycles() - c_start;
    o[1] = nr_clock() - t_start;
}
#endif // NR_ELEMENT_ONLY
