// Device plan executor, compiled at run time (NVRTC; hipRTC for the HIP path) and by nvcc in
// the tests where it exists. Each logical threadblock of the launch table runs in one physical
// block. Pinned launches use a dispatcher: a block reads where it runs (%smid on NVIDIA,
// XCC_ID, the die, on AMD) and claims a logical threadblock planned there (tbinfo's third field
// holds the planned SM or die accordingly); a block with nothing planned where it landed waits
// a bounded time and then takes any unclaimed one, so the plan always finishes and the readback
// shows what ran where. Every wait is bounded: on expiry the block raises the abort flag and
// returns, and the host reports a timeout instead of hanging.
//
// Step record (NR_F long longs): op, nelem, src_off, dst_off, stage_off, from_stage_off,
// from (global step or -1), ndeps, dep_first. Offsets are floats within one arena.
//
// Ranks on several devices (the host compiles with -DNR_MULTI=1): each device runs the
// threadblocks [tb_lo, tb_hi) of its ranks and holds their storages and stages; the offsets
// stay global (one virtual arena) and a step translates its base pointers once through the
// segment table (nseg triples: first offset, end offset, device address of the first), which
// covers every device's memory, peers' included. The done flags, claims and abort flag are in
// host-mapped memory shared by every device, so their atomics and fences are system-scope
// (sm_60+ on NVIDIA). Without NR_MULTI the arena is the one device's and offsets index it.
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

#if defined(NR_MULTI)
#define NR_LOAD(p) atomicAdd_system((p), 0)
#define NR_EXCH(p, v) atomicExch_system((p), (v))
#define NR_CAS(p, a, b) atomicCAS_system((p), (a), (b))
#define NR_FENCE() __threadfence_system()
#else
#define NR_LOAD(p) atomicAdd((p), 0)
#define NR_EXCH(p, v) atomicExch((p), (v))
#define NR_CAS(p, a, b) atomicCAS((p), (a), (b))
#define NR_FENCE() __threadfence()
#endif

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

// The clock budgets are counted in: the core clock on NVIDIA (the host assumes >= 1 GHz), the
// constant-rate wall clock on AMD (the host assumes 100 MHz), since AMD core clocks vary more.
__device__ static long long nr_clock(void) {
#if defined(NR_AMD)
    return wall_clock64();
#else
    return clock64();
#endif
}

// Spins until flag is set or the budget runs out; returns 0 on success.
__device__ static int nr_wait(int *flag, int *abort_flag, long long budget) {
    long long t0 = nr_clock();
    while (NR_LOAD(flag) == 0) {
        if (NR_LOAD(abort_flag) != 0) return -1;
        if (nr_clock() - t0 > budget) {
            NR_EXCH(abort_flag, 1);
            return -1;
        }
    }
    return 0;
}

#if defined(NR_MULTI)
// The device address of global arena offset `off`: the segment that holds it. Offsets of
// operands a step does not have may lie in none; they are never dereferenced.
__device__ static float *nr_at(float *arena, const long long *seg, int nseg, long long off) {
    for (int k = 0; k < nseg; k++)
        if (off >= seg[3 * k] && off < seg[3 * k + 1]) return (float *) seg[3 * k + 2] + (off - seg[3 * k]);
    return arena;
}
#endif

extern "C" __global__ void nunart_exec(const long long *steps, const int *deps, const int *tbinfo, int ntb,
                                       float *arena, int *done, int *ran_on, int *hw_id, int *claim, int pinned,
                                       long long steal_after, long long budget, const long long *seg, int nseg,
                                       int tb_lo, int tb_hi) {
    __shared__ int mine;
    __shared__ int bad;
#if defined(NR_MULTI)
    __shared__ float *p_dst, *p_self, *p_src, *p_got;
#endif
    int *abort_flag = &claim[ntb];
    if (threadIdx.x == 0) {
        int loc = nr_location();
        mine = -1;
        bad = 0;
        if (!pinned) {
            int t = tb_lo + (int) blockIdx.x;
            if (t < tb_hi && NR_CAS(&claim[t], 0, 1) == 0) mine = t;
        } else {
            for (int t = tb_lo; t < tb_hi && mine < 0; t++)
                if (tbinfo[3 * t + 2] == loc && NR_CAS(&claim[t], 0, 1) == 0) mine = t;
            if (mine < 0) {
                long long t0 = nr_clock();
                while (nr_clock() - t0 < steal_after) { }
                for (int t = tb_lo; t < tb_hi && mine < 0; t++)
                    if (NR_CAS(&claim[t], 0, 1) == 0) mine = t;
            }
        }
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
            p_dst = nr_at(arena, seg, nseg, s[3]);
            p_self = nr_at(arena, seg, nseg, s[4]);
            p_src = nr_at(arena, seg, nseg, s[2]);
            p_got = nr_at(arena, seg, nseg, s[5] >= 0 ? s[5] : 0);
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
        float *dst = arena + s[3];
        float *self = arena + s[4];
        const float *src = arena + s[2];
        const float *got = arena + (s[5] >= 0 ? s[5] : 0);
#endif
        for (long long i = threadIdx.x; i < ne; i += blockDim.x) {
            switch (op) {
            case OP_S: self[i] = src[i]; break;
            case OP_R: dst[i] = got[i]; break;
            case OP_RCS: dst[i] = got[i]; self[i] = got[i]; break;
            case OP_RRS: self[i] = got[i] + src[i]; break;
            case OP_RRC: dst[i] = got[i] + src[i]; break;
            case OP_RRCS: { float v = got[i] + src[i]; self[i] = v; dst[i] = v; } break;
            case OP_CPY: case OP_PUT: case OP_GET: dst[i] = src[i]; break;
            case OP_RE: case OP_RA: case OP_GETRE: dst[i] += src[i]; break;
            default: break;
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            NR_FENCE();
            NR_EXCH(&done[g], 1);
        }
    }
}
