// thought: torch.unique is a sort: every element (fp32, fp16, bf16, int32 or int64) becomes an order-preserving 64-bit key (floats by their raw bits with the sign flipped and negatives inverted, -0 folded onto 0, no arithmetic, so bf16 needs no cast; signed ints with the top bit flipped) paired with its position, and an LSD radix sort, 8 bits a pass, orders the pairs in a GM workspace the host entry allocates. The cores split N in contiguous ranges; each pass every core histograms its range, SyncAll (the soft form, whose zeroed flags lead the workspace), every core reads all histograms and places its range stably, chunk by chunk, grouped by digit in the UB (each group 32-byte aligned) and copied out group by group with DataCopyPad; a pass whose digit is the same for every key is skipped. Then head flags give each core its unique count, a SyncAll and a prefix give its first unique id, and one scan writes values, run starts and inverse (one 8-byte DataCopyPad per element: scalar SetValue to GM would share 64-byte cache lines between cores); a last SyncAll lets counts = next start - start, and the zero tails and U follow.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include <cstring>
#include "tikicpulib.h"
#else
#include "acl/acl.h"
#endif
using namespace AscendC;

constexpr uint32_t CH = 2048;         // elements per chunk
constexpr uint32_t RADIX = 256;       // 8 bits a pass
constexpr uint32_t GROUP_PAD = 8;     // each digit's group starts on a multiple of 8 elements: 32 bytes for uint32
constexpr uint32_t SLOTS = 64;        // 32-byte UB slots for the inverse's single-element copies
constexpr uint32_t MAX_CORES = 20;    // every block must be resident for SyncAll: no more than any A2 has
constexpr uint64_t SYNC_BYTES = 32 * 64;  // SyncAll's flags: 32 bytes per core, zeroed by the host

// The workspace: SyncAll flags, per-core histograms and unique counts, two (key, position) buffers, run starts.
struct UniqueWs {
  uint64_t hist, ucnt, keysA, keysB, posA, posB, starts;
  __aicore__ inline UniqueWs(uint64_t n, uint32_t cores) {
    const uint64_t n8 = (n + 7) / 8 * 8;
    hist = SYNC_BYTES;
    ucnt = hist + (uint64_t)cores * RADIX * 4;
    keysA = ucnt + (uint64_t)cores * 32;
    keysB = keysA + n8 * 8;
    posA = keysB + n8 * 8;
    posB = posA + n8 * 4;
    starts = posB + n8 * 4;
  }
};
// Its size, on the host (the same layout; starts holds n + 1 entries).
inline uint64_t UniqueWsBytes(uint64_t n, uint32_t cores) {
  const uint64_t n8 = (n + 7) / 8 * 8;
  return SYNC_BYTES + (uint64_t)cores * (RADIX * 4 + 32) + n8 * (8 + 8 + 4 + 4) + (n + 8) / 8 * 8 * 4;
}

// B: the element's bits (uint16_t, uint32_t, uint64_t); isFloat: sign-magnitude order (fp16, bf16, fp32), else two's complement.
template <typename B, bool isFloat> class KernelUnique {
  static constexpr uint32_t W = sizeof(B) * 8;
  static constexpr uint64_t SIGN = 1ULL << (W - 1);
  static constexpr uint64_t MASK = W == 64 ? ~0ULL : (1ULL << W) - 1;

 public:
  __aicore__ inline KernelUnique() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR inverse, GM_ADDR counts, GM_ADDR num, GM_ADDR ws,
                              uint64_t n, uint64_t perCore) {
    n_ = n, cores_ = (uint32_t)GetBlockNum(), me_ = (uint32_t)GetBlockIdx();
    lo_ = me_ * perCore < n ? me_ * perCore : n;
    hi_ = lo_ + perCore < n ? lo_ + perCore : n;
    const UniqueWs w(n, cores_);
    xGm_.SetGlobalBuffer((__gm__ B*)x, n);
    vGm_.SetGlobalBuffer((__gm__ B*)values, n);
    invGm_.SetGlobalBuffer((__gm__ int64_t*)inverse, n);
    cntGm_.SetGlobalBuffer((__gm__ int64_t*)counts, n);
    numGm_.SetGlobalBuffer((__gm__ int64_t*)num, 1);
    syncGm_.SetGlobalBuffer((__gm__ int32_t*)ws, SYNC_BYTES / 4);
    histGm_.SetGlobalBuffer((__gm__ uint32_t*)(ws + w.hist), (uint64_t)cores_ * RADIX);
    ucntGm_.SetGlobalBuffer((__gm__ int32_t*)(ws + w.ucnt), (uint64_t)cores_ * 8);
    keysGm_[0].SetGlobalBuffer((__gm__ uint64_t*)(ws + w.keysA), n);
    keysGm_[1].SetGlobalBuffer((__gm__ uint64_t*)(ws + w.keysB), n);
    posGm_[0].SetGlobalBuffer((__gm__ uint32_t*)(ws + w.posA), n);
    posGm_[1].SetGlobalBuffer((__gm__ uint32_t*)(ws + w.posB), n);
    startsGm_.SetGlobalBuffer((__gm__ uint32_t*)(ws + w.starts), n + 1);
    pipe_.InitBuffer(xBuf_, CH * sizeof(uint64_t));
    pipe_.InitBuffer(keyIn_, CH * sizeof(uint64_t));
    pipe_.InitBuffer(posIn_, CH * sizeof(uint32_t));
    pipe_.InitBuffer(keyOut_, (CH + RADIX * GROUP_PAD) * sizeof(uint64_t));
    pipe_.InitBuffer(posOut_, (CH + RADIX * GROUP_PAD) * sizeof(uint32_t));
    pipe_.InitBuffer(hists_, MAX_CORES * RADIX * sizeof(uint32_t));
    pipe_.InitBuffer(digits_, 4 * RADIX * sizeof(uint32_t));  // counts, group starts, global bases, own histogram
    pipe_.InitBuffer(outBuf_, CH * sizeof(int64_t));
    pipe_.InitBuffer(slots_, SLOTS * 32);
    pipe_.InitBuffer(syncUb_, MAX_CORES * 32);
  }

  __aicore__ inline void Process() {
    MakeKeys();
    Sync();
    int cur = 0;
    for (uint32_t shift = 0; shift < W; shift += 8)
      if (Pass(shift, cur)) cur ^= 1;
    Finish(cur);
  }

 private:
  __aicore__ inline uint64_t Key(B b) const {
    uint64_t u = (uint64_t)b;
    if constexpr (isFloat) {
      if (u == SIGN) u = 0;  // -0 is 0
      return (u & SIGN) ? (~u & MASK) : (u | SIGN);
    } else {
      return u ^ SIGN;
    }
  }
  __aicore__ inline B Value(uint64_t k) const {
    if constexpr (isFloat) return (B)((k & SIGN) ? (k ^ SIGN) : (~k & MASK));
    else return (B)(k ^ SIGN);
  }
  __aicore__ inline void Sync() {
    SyncAll(syncGm_, syncUb_.Get<int32_t>(), (int32_t)cores_);
  }
  template <HardEvent e> __aicore__ inline void Wait() {
    SetFlag<e>(0);
    WaitFlag<e>(0);
  }
  template <typename T> __aicore__ inline void In(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t n) {
    DataCopyPad(dst, src, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
  }
  template <typename T> __aicore__ inline void Out(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n) {
    DataCopyPad(dst, src, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
  }

  // keys and positions of this core's range into buffer 0
  __aicore__ inline void MakeKeys() {
    LocalTensor<B> xb = xBuf_.Get<B>();
    LocalTensor<uint64_t> k = keyIn_.Get<uint64_t>();
    LocalTensor<uint32_t> p = posIn_.Get<uint32_t>();
    for (uint64_t c = lo_; c < hi_; c += CH) {
      const uint32_t m = hi_ - c < CH ? (uint32_t)(hi_ - c) : CH;
      In(xb, xGm_[c], m);
      Wait<HardEvent::MTE2_S>();
      for (uint32_t i = 0; i < m; ++i) {
        k.SetValue(i, Key(xb.GetValue(i)));
        p.SetValue(i, (uint32_t)(c + i));
      }
      Wait<HardEvent::S_MTE3>();
      Out(keysGm_[0][c], k, m);
      Out(posGm_[0][c], p, m);
      Wait<HardEvent::MTE3_S>();
      Wait<HardEvent::MTE3_MTE2>();
    }
  }

  // One stable pass by the digit at `shift`, buffer cur to cur ^ 1; false when every key has the same digit there.
  __aicore__ inline bool Pass(uint32_t shift, int cur) {
    LocalTensor<uint64_t> k = keyIn_.Get<uint64_t>(), ko = keyOut_.Get<uint64_t>();
    LocalTensor<uint32_t> p = posIn_.Get<uint32_t>(), po = posOut_.Get<uint32_t>();
    LocalTensor<uint32_t> d = digits_.Get<uint32_t>(), cnt = d, grp = d[RADIX], base = d[2 * RADIX], own = d[3 * RADIX];
    LocalTensor<uint32_t> all = hists_.Get<uint32_t>();
    // this core's histogram
    for (uint32_t r = 0; r < RADIX; ++r) own.SetValue(r, 0);
    for (uint64_t c = lo_; c < hi_; c += CH) {
      const uint32_t m = hi_ - c < CH ? (uint32_t)(hi_ - c) : CH;
      In(k, keysGm_[cur][c], m);
      Wait<HardEvent::MTE2_S>();
      for (uint32_t i = 0; i < m; ++i) {
        const uint32_t r = (uint32_t)(k.GetValue(i) >> shift) & (RADIX - 1);
        own.SetValue(r, own.GetValue(r) + 1);
      }
      Wait<HardEvent::S_MTE2>();
    }
    Wait<HardEvent::S_MTE3>();
    DataCopy(histGm_[me_ * RADIX], own, RADIX);
    Wait<HardEvent::MTE3_S>();
    Sync();
    // every core's histogram: where this core's keys of each digit go
    DataCopy(all, histGm_, cores_ * RADIX);
    Wait<HardEvent::MTE2_S>();
    uint64_t run = 0;
    bool one = false;
    for (uint32_t r = 0; r < RADIX; ++r) {
      uint64_t before = 0, total = 0;
      for (uint32_t q = 0; q < cores_; ++q) {
        const uint32_t h = all.GetValue(q * RADIX + r);
        before += q < me_ ? h : 0;
        total += h;
      }
      one = one || total == n_;
      base.SetValue(r, (uint32_t)(run + before));
      run += total;
    }
    if (!one) {
      for (uint64_t c = lo_; c < hi_; c += CH) {
        const uint32_t m = hi_ - c < CH ? (uint32_t)(hi_ - c) : CH;
        In(k, keysGm_[cur][c], m);
        In(p, posGm_[cur][c], m);
        Wait<HardEvent::MTE2_S>();
        for (uint32_t r = 0; r < RADIX; ++r) cnt.SetValue(r, 0);
        for (uint32_t i = 0; i < m; ++i) {
          const uint32_t r = (uint32_t)(k.GetValue(i) >> shift) & (RADIX - 1);
          cnt.SetValue(r, cnt.GetValue(r) + 1);
        }
        uint32_t at = 0;
        for (uint32_t r = 0; r < RADIX; ++r) {
          grp.SetValue(r, at);
          at += (cnt.GetValue(r) + GROUP_PAD - 1) / GROUP_PAD * GROUP_PAD;
        }
        for (uint32_t i = 0; i < m; ++i) {
          const uint64_t key = k.GetValue(i);
          const uint32_t r = (uint32_t)(key >> shift) & (RADIX - 1), to = grp.GetValue(r);
          ko.SetValue(to, key);
          po.SetValue(to, p.GetValue(i));
          grp.SetValue(r, to + 1);
        }
        Wait<HardEvent::S_MTE3>();
        for (uint32_t r = 0; r < RADIX; ++r) {
          const uint32_t nr = cnt.GetValue(r);
          if (nr == 0) continue;
          const uint32_t from = grp.GetValue(r) - nr, to = base.GetValue(r);
          Out(keysGm_[cur ^ 1][to], ko[from], nr);
          Out(posGm_[cur ^ 1][to], po[from], nr);
          base.SetValue(r, to + nr);
        }
        Wait<HardEvent::MTE3_S>();
        Wait<HardEvent::MTE3_MTE2>();
      }
    }
    Sync();
    return !one;
  }

  // Head flags, unique ids, values, run starts, inverse; then counts, the zero tails and U.
  __aicore__ inline void Finish(int cur) {
    LocalTensor<uint64_t> k = keyIn_.Get<uint64_t>();
    LocalTensor<uint32_t> p = posIn_.Get<uint32_t>(), st = posOut_.Get<uint32_t>();
    LocalTensor<int32_t> uc = hists_.Get<int32_t>();
    LocalTensor<int64_t> slot = slots_.Get<int64_t>();
    LocalTensor<B> vb = xBuf_.Get<B>();
    // the key before this core's range
    uint64_t prev = 0;
    if (lo_ > 0 && lo_ < hi_) {
      In(k, keysGm_[cur][lo_ - 1], 1);
      Wait<HardEvent::MTE2_S>();
      prev = k.GetValue(0);
      Wait<HardEvent::S_MTE2>();
    }
    int32_t mine = 0;
    uint64_t last = prev;
    for (uint64_t c = lo_; c < hi_; c += CH) {
      const uint32_t m = hi_ - c < CH ? (uint32_t)(hi_ - c) : CH;
      In(k, keysGm_[cur][c], m);
      Wait<HardEvent::MTE2_S>();
      for (uint32_t i = 0; i < m; ++i) {
        const uint64_t key = k.GetValue(i);
        mine += (c + i == 0 || key != last) ? 1 : 0;
        last = key;
      }
      Wait<HardEvent::S_MTE2>();
    }
    for (uint32_t i = 0; i < 8; ++i) uc.SetValue(i, i == 0 ? mine : 0);
    Wait<HardEvent::S_MTE3>();
    DataCopy(ucntGm_[me_ * 8], uc, 8);
    Wait<HardEvent::MTE3_S>();
    Sync();
    DataCopy(uc, ucntGm_, cores_ * 8);
    Wait<HardEvent::MTE2_S>();
    uint64_t u0 = 0, U = 0;
    for (uint32_t q = 0; q < cores_; ++q) {
      u0 += q < me_ ? (uint64_t)uc.GetValue(q * 8) : 0;
      U += (uint64_t)uc.GetValue(q * 8);
    }
    // values and run starts of the uniques that begin in this range; inverse of every element in it
    uint64_t u = u0;  // the next unique id
    uint32_t s = 0;
    last = prev;
    for (uint64_t c = lo_; c < hi_; c += CH) {
      const uint32_t m = hi_ - c < CH ? (uint32_t)(hi_ - c) : CH;
      In(k, keysGm_[cur][c], m);
      In(p, posGm_[cur][c], m);
      Wait<HardEvent::MTE2_S>();
      const uint64_t first = u;
      uint32_t made = 0;
      for (uint32_t i = 0; i < m; ++i) {
        const uint64_t key = k.GetValue(i);
        if (c + i == 0 || key != last) {
          vb.SetValue(made, Value(key));
          st.SetValue(made, (uint32_t)(c + i));
          ++made, ++u;
        }
        last = key;
        slot.SetValue(s * 4, (int64_t)(u - 1));
        if (++s == SLOTS || i + 1 == m) {  // a batch of inverse entries, one 8-byte copy each
          Wait<HardEvent::S_MTE3>();
          for (uint32_t j = 0; j < s; ++j) Out(invGm_[p.GetValue(i + 1 - s + j)], slot[j * 4], 1);
          Wait<HardEvent::MTE3_S>();
          s = 0;
        }
      }
      if (made > 0) {
        Out(vGm_[first], vb, made);
        Out(startsGm_[first], st, made);
      }
      Wait<HardEvent::MTE3_S>();
      Wait<HardEvent::MTE3_MTE2>();
    }
    if (me_ == 0) {  // starts[U] = N closes the last run
      st.SetValue(0, (uint32_t)n_);
      Wait<HardEvent::S_MTE3>();
      Out(startsGm_[U], st, 1);
      Wait<HardEvent::MTE3_S>();
    }
    Sync();
    // counts of this core's uniques
    LocalTensor<int64_t> o = outBuf_.Get<int64_t>();
    for (uint64_t a = u0; a < u; a += CH - 8) {
      const uint32_t m = u - a < CH - 8 ? (uint32_t)(u - a) : CH - 8;
      In(st, startsGm_[a], m + 1);
      Wait<HardEvent::MTE2_S>();
      for (uint32_t i = 0; i < m; ++i) o.SetValue(i, (int64_t)st.GetValue(i + 1) - (int64_t)st.GetValue(i));
      Wait<HardEvent::S_MTE3>();
      Out(cntGm_[a], o, m);
      Wait<HardEvent::MTE3_S>();
      Wait<HardEvent::MTE3_MTE2>();
    }
    // zeros in values and counts from U on, split over the cores; U from core 0
    const uint64_t tail = n_ - U, per = (tail + cores_ - 1) / cores_;
    const uint64_t zlo = U + me_ * per < n_ ? U + me_ * per : n_, zhi = zlo + per < n_ ? zlo + per : n_;
    Wait<HardEvent::MTE3_V>();
    Duplicate(o.template ReinterpretCast<int32_t>(), (int32_t)0, (int32_t)(CH * 2));
    Duplicate(vb.template ReinterpretCast<uint16_t>(), (uint16_t)0, (int32_t)(CH * sizeof(B) / 2));
    Wait<HardEvent::V_MTE3>();
    Wait<HardEvent::S_MTE3>();
    for (uint64_t a = zlo; a < zhi; a += CH) {
      const uint32_t m = zhi - a < CH ? (uint32_t)(zhi - a) : CH;
      Out(vGm_[a], vb, m);
      Out(cntGm_[a], o, m);
    }
    Wait<HardEvent::MTE3_S>();
    if (me_ == 0) {
      o.SetValue(0, (int64_t)U);
      Wait<HardEvent::S_MTE3>();
      Out(numGm_, o, 1);
    }
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> xBuf_, keyIn_, posIn_, keyOut_, posOut_, hists_, digits_, outBuf_, slots_, syncUb_;
  GlobalTensor<B> xGm_, vGm_;
  GlobalTensor<int64_t> invGm_, cntGm_, numGm_;
  GlobalTensor<int32_t> syncGm_, ucntGm_;
  GlobalTensor<uint32_t> histGm_, startsGm_, posGm_[2];
  GlobalTensor<uint64_t> keysGm_[2];
  uint64_t n_ = 0, lo_ = 0, hi_ = 0;
  uint32_t cores_ = 1, me_ = 0;
};

extern "C" __global__ __aicore__ void unique_custom(GM_ADDR x, GM_ADDR values, GM_ADDR inverse, GM_ADDR counts, GM_ADDR num,
                                                    GM_ADDR ws, uint64_t n, uint64_t perCore, int32_t kind) {
  if (kind == 0) {
    KernelUnique<uint32_t, true> op;
    op.Init(x, values, inverse, counts, num, ws, n, perCore);
    op.Process();
  } else if (kind == 1) {
    KernelUnique<uint16_t, true> op;
    op.Init(x, values, inverse, counts, num, ws, n, perCore);
    op.Process();
  } else if (kind == 2) {
    KernelUnique<uint32_t, false> op;
    op.Init(x, values, inverse, counts, num, ws, n, perCore);
    op.Process();
  } else {
    KernelUnique<uint64_t, false> op;
    op.Init(x, values, inverse, counts, num, ws, n, perCore);
    op.Process();
  }
}

// fp32, fp16, bf16, int32 and int64 (bf16 is sign-magnitude like fp16: the same 16-bit float keys). The workspace
// is the host's: allocated once and grown as needed (kope synchronises the stream after every call), its SyncAll
// flags zeroed before each launch.
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *v = &a->outputs[0];
  const int32_t kind = x->dtype == KOPE_F32 ? 0 : (x->dtype == KOPE_F16 || x->dtype == KOPE_BF16) ? 1 : x->dtype == KOPE_I32 ? 2 : x->dtype == KOPE_I64 ? 3 : -1;
  if (kind < 0 || v->dtype != x->dtype || a->outputs[1].dtype != KOPE_I64 || a->outputs[2].dtype != KOPE_I64 ||
      a->outputs[3].dtype != KOPE_I64)
    return 1;
  const uint64_t n = (uint64_t)x->numel;
  if (n == 0) return 0;
  if (n >= 0xffffffffULL) return 2;  // positions are uint32
  uint64_t blockDim = n / CH ? n / CH : 1;
  blockDim = blockDim < MAX_CORES ? blockDim : MAX_CORES;
  const uint64_t perCore = (n + blockDim - 1) / blockDim;
  const uint64_t bytes = UniqueWsBytes(n, (uint32_t)blockDim);
  GM_ADDR px = (GM_ADDR)x->data, pv = (GM_ADDR)v->data, pi = (GM_ADDR)a->outputs[1].data,
          pc = (GM_ADDR)a->outputs[2].data, pn = (GM_ADDR)a->outputs[3].data;
#ifdef ASCENDC_CPU_DEBUG
  GM_ADDR ws = (GM_ADDR)AscendC::GmAlloc(bytes);
  std::memset(ws, 0, SYNC_BYTES);
  ICPU_RUN_KF(unique_custom, blockDim, px, pv, pi, pc, pn, ws, n, perCore, kind);
  AscendC::GmFree(ws);
#else
  static void* ws = nullptr;
  static uint64_t cap = 0;
  if (cap < bytes) {
    if (ws != nullptr) aclrtFree(ws);
    ws = nullptr, cap = 0;
    aclError e = aclrtMalloc(&ws, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (e != ACL_SUCCESS) return e;
    cap = bytes;
  }
  aclError e = aclrtMemset(ws, SYNC_BYTES, 0, SYNC_BYTES);
  if (e != ACL_SUCCESS) return e;
  unique_custom<<<blockDim, nullptr, stream>>>(px, pv, pi, pc, pn, (GM_ADDR)ws, n, perCore, kind);
#endif
  return 0;
}
