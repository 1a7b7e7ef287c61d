// thought: three phases over the cores in one launch, with SyncAll (the soft form, its zeroed flags leading a GM workspace the host entry allocates) between them. The score order: a stable LSD radix sort of (descending score key, index) pairs, 8 bits a pass (-0 folded onto 0 so they tie; equal scores keep the lower index first, as the reference's stable sort). The boxes gathered in that order as corner-normalised SoA rows (x1, y1, x2, y2, area; padding columns are empty boxes). The suppression bitmask: 64-row blocks round-robin over the cores, each row against 2048-column chunks from its block on, with Mins/Maxs/Sub/Maxs for the overlap, Mul for inter, Adds/Sub for the union and Compare(inter > thr * union) writing one bit per pair (exact for the task's integer coordinates, and false for two empty boxes, where the reference's 0/0 is NaN). Then core 0 sweeps in score order: a box whose bit is clear in the removed mask is kept and ORs its row into the mask with the vector Or.
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

constexpr uint32_t CH = 2048;         // elements per chunk (sort, gather, sweep)
constexpr uint32_t RADIX = 256;       // 8 bits a pass
constexpr uint32_t GROUP_PAD = 8;     // each digit's group starts on a multiple of 8 elements: 32 bytes for uint32
constexpr uint32_t RB = 64;           // mask rows per block
constexpr uint32_t CC = 2048;         // mask columns per chunk
constexpr uint32_t MAX_CORES = 20;    // every block must be resident for SyncAll: no more than any A2 has
constexpr uint64_t SYNC_BYTES = 32 * 64;  // SyncAll's flags: 32 bytes per core, zeroed by the host

// The workspace: SyncAll flags, per-core histograms, two (key, position) buffers, the sorted boxes, the bitmask.
struct NmsWs {
  uint64_t hist, keysA, keysB, posA, posB, soa, mask;
  __aicore__ inline NmsWs(uint64_t n, uint64_t np, uint32_t cores) {
    const uint64_t n8 = (n + 7) / 8 * 8;
    hist = SYNC_BYTES;
    keysA = hist + (uint64_t)cores * RADIX * 4;
    keysB = keysA + n8 * 4;
    posA = keysB + n8 * 4;
    posB = posA + n8 * 4;
    soa = posB + n8 * 4;
    mask = soa + 5 * np * 4;
  }
};
// Its size, on the host (the same layout).
inline uint64_t NmsWsBytes(uint64_t n, uint64_t np, uint32_t cores) {
  const uint64_t n8 = (n + 7) / 8 * 8;
  return SYNC_BYTES + (uint64_t)cores * RADIX * 4 + n8 * 16 + 5 * np * 4 + n * (np / 8);
}

class KernelNms {
 public:
  __aicore__ inline KernelNms() {}
  __aicore__ inline void Init(GM_ADDR boxes, GM_ADDR scores, GM_ADDR keep, GM_ADDR num, GM_ADDR ws, uint64_t n,
                              uint64_t np, float thr) {
    n_ = n, np_ = np, thr_ = thr, cores_ = (uint32_t)GetBlockNum(), me_ = (uint32_t)GetBlockIdx();
    const uint64_t per = (n + cores_ - 1) / cores_;
    lo_ = me_ * per < n ? me_ * per : n;
    hi_ = lo_ + per < n ? lo_ + per : n;
    const NmsWs w(n, np, cores_);
    boxGm_.SetGlobalBuffer((__gm__ float*)boxes, 4 * n);
    scoreGm_.SetGlobalBuffer((__gm__ uint32_t*)scores, n);
    keepGm_.SetGlobalBuffer((__gm__ int64_t*)keep, n);
    numGm_.SetGlobalBuffer((__gm__ int64_t*)num, 1);
    syncGm_.SetGlobalBuffer((__gm__ int32_t*)ws, SYNC_BYTES / 4);
    histGm_.SetGlobalBuffer((__gm__ uint32_t*)(ws + w.hist), (uint64_t)cores_ * RADIX);
    keysGm_[0].SetGlobalBuffer((__gm__ uint32_t*)(ws + w.keysA), n);
    keysGm_[1].SetGlobalBuffer((__gm__ uint32_t*)(ws + w.keysB), n);
    posGm_[0].SetGlobalBuffer((__gm__ uint32_t*)(ws + w.posA), n);
    posGm_[1].SetGlobalBuffer((__gm__ uint32_t*)(ws + w.posB), n);
    soaGm_.SetGlobalBuffer((__gm__ float*)(ws + w.soa), 5 * np);
    maskGm_.SetGlobalBuffer((__gm__ uint8_t*)(ws + w.mask), n * (np / 8));
    pipe_.InitBuffer(keyIn_, CH * sizeof(uint32_t));
    pipe_.InitBuffer(posIn_, CH * sizeof(uint32_t));
    pipe_.InitBuffer(keyOut_, (CH + RADIX * GROUP_PAD) * sizeof(uint32_t));
    pipe_.InitBuffer(posOut_, (CH + RADIX * GROUP_PAD) * sizeof(uint32_t));
    pipe_.InitBuffer(hists_, MAX_CORES * RADIX * sizeof(uint32_t));
    pipe_.InitBuffer(digits_, 4 * RADIX * sizeof(uint32_t));  // counts, group starts, global bases, own histogram
    pipe_.InitBuffer(cols_, 5 * CC * sizeof(float));          // a column chunk: x1, y1, x2, y2, area
    pipe_.InitBuffer(rows_, 5 * RB * sizeof(float));          // a row block's boxes
    pipe_.InitBuffer(tmp_, 4 * CC * sizeof(float));
    pipe_.InitBuffer(bits_, 2 * CC / 8);                      // two rows' bits, alternately
    pipe_.InitBuffer(syncUb_, MAX_CORES * 32);
  }

  __aicore__ inline void Process() {
    MakeKeys();
    Sync();
    int cur = 0;
    for (uint32_t shift = 0; shift < 32; shift += 8)
      if (Pass(shift, cur)) cur ^= 1;
    Gather(cur);
    Sync();
    Mask();
    Sync();
    if (me_ == 0) Sweep(cur);
  }

 private:
  __aicore__ inline void Sync() { SyncAll(syncGm_, syncUb_.Get<int32_t>(), (int32_t)cores_); }
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

  // Descending score order as an ascending key: the float order key, complemented (-0 is 0).
  __aicore__ inline void MakeKeys() {
    LocalTensor<uint32_t> k = keyIn_.Get<uint32_t>(), p = posIn_.Get<uint32_t>();
    for (uint64_t c = lo_; c < hi_; c += CH) {
      const uint32_t m = hi_ - c < CH ? (uint32_t)(hi_ - c) : CH;
      In(k, scoreGm_[c], m);
      Wait<HardEvent::MTE2_S>();
      for (uint32_t i = 0; i < m; ++i) {
        uint32_t u = k.GetValue(i);
        if (u == 0x80000000u) u = 0;
        const uint32_t up = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
        k.SetValue(i, ~up);
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
    LocalTensor<uint32_t> k = keyIn_.Get<uint32_t>(), ko = keyOut_.Get<uint32_t>();
    LocalTensor<uint32_t> p = posIn_.Get<uint32_t>(), po = posOut_.Get<uint32_t>();
    LocalTensor<uint32_t> d = digits_.Get<uint32_t>(), cnt = d, grp = d[RADIX], base = d[2 * RADIX], own = d[3 * RADIX];
    LocalTensor<uint32_t> all = hists_.Get<uint32_t>();
    for (uint32_t r = 0; r < RADIX; ++r) own.SetValue(r, 0);
    for (uint64_t c = lo_; c < hi_; c += CH) {
      const uint32_t m = hi_ - c < CH ? (uint32_t)(hi_ - c) : CH;
      In(k, keysGm_[cur][c], m);
      Wait<HardEvent::MTE2_S>();
      for (uint32_t i = 0; i < m; ++i) {
        const uint32_t r = (k.GetValue(i) >> shift) & (RADIX - 1);
        own.SetValue(r, own.GetValue(r) + 1);
      }
      Wait<HardEvent::S_MTE2>();
    }
    Wait<HardEvent::S_MTE3>();
    DataCopy(histGm_[me_ * RADIX], own, RADIX);
    Wait<HardEvent::MTE3_S>();
    Sync();
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
          const uint32_t r = (k.GetValue(i) >> shift) & (RADIX - 1);
          cnt.SetValue(r, cnt.GetValue(r) + 1);
        }
        uint32_t at = 0;
        for (uint32_t r = 0; r < RADIX; ++r) {
          grp.SetValue(r, at);
          at += (cnt.GetValue(r) + GROUP_PAD - 1) / GROUP_PAD * GROUP_PAD;
        }
        for (uint32_t i = 0; i < m; ++i) {
          const uint32_t key = k.GetValue(i);
          const uint32_t r = (key >> shift) & (RADIX - 1), to = grp.GetValue(r);
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

  // The boxes in score order, corners normalised, as five rows of np floats; columns past n are empty boxes.
  __aicore__ inline void Gather(int cur) {
    LocalTensor<uint32_t> p = posIn_.Get<uint32_t>();
    LocalTensor<float> c5 = cols_.Get<float>();
    const uint64_t per = (np_ + cores_ - 1) / cores_;
    const uint64_t a0 = me_ * per < np_ ? me_ * per : np_, a1 = a0 + per < np_ ? a0 + per : np_;
    for (uint64_t c = a0; c < a1; c += CC) {
      const uint32_t m = a1 - c < CC ? (uint32_t)(a1 - c) : CC;
      const uint32_t real = c >= n_ ? 0 : (n_ - c < m ? (uint32_t)(n_ - c) : m);
      if (real > 0) {
        In(p, posGm_[cur][c], real);
        Wait<HardEvent::MTE2_S>();
      }
      for (uint32_t i = 0; i < m; ++i) {
        float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
        if (i < real) {  // the input boxes, read by the scalar unit (nothing writes them)
          const uint64_t b = p.GetValue(i);
          const float ax = boxGm_.GetValue(4 * b), ay = boxGm_.GetValue(4 * b + 1);
          const float bx = boxGm_.GetValue(4 * b + 2), by = boxGm_.GetValue(4 * b + 3);
          x1 = ax < bx ? ax : bx, x2 = ax < bx ? bx : ax;
          y1 = ay < by ? ay : by, y2 = ay < by ? by : ay;
        }
        c5.SetValue(i, x1);
        c5.SetValue(CC + i, y1);
        c5.SetValue(2 * CC + i, x2);
        c5.SetValue(3 * CC + i, y2);
        c5.SetValue(4 * CC + i, (x2 - x1) * (y2 - y1));
      }
      Wait<HardEvent::S_MTE3>();
      for (uint32_t f = 0; f < 5; ++f) Out(soaGm_[f * np_ + c], c5[f * CC], m);
      Wait<HardEvent::MTE3_S>();
      Wait<HardEvent::MTE3_MTE2>();
    }
  }

  // Row i's bits: column j set when box j's overlap with box i exceeds thr of their union (j from i's block on).
  __aicore__ inline void Mask() {
    LocalTensor<float> c5 = cols_.Get<float>(), r5 = rows_.Get<float>(), t = tmp_.Get<float>();
    LocalTensor<float> mn = t, mx = t[CC], w = t[2 * CC], h = t[3 * CC];
    LocalTensor<uint8_t> bits = bits_.Get<uint8_t>();
    const uint64_t rowBytes = np_ / 8;
    uint32_t flip = 0;
    for (uint64_t r0 = (uint64_t)me_ * RB; r0 < n_; r0 += (uint64_t)cores_ * RB) {
      const uint32_t rows = n_ - r0 < RB ? (uint32_t)(n_ - r0) : RB;
      for (uint32_t f = 0; f < 5; ++f) In(r5[f * RB], soaGm_[f * np_ + r0], rows);
      for (uint64_t a = r0; a < np_; a += CC) {  // r0 is a multiple of 64, so is every count
        const uint32_t m = np_ - a < CC ? (uint32_t)(np_ - a) : CC;
        Wait<HardEvent::V_MTE2>();
        for (uint32_t f = 0; f < 5; ++f) In(c5[f * CC], soaGm_[f * np_ + a], m);
        Wait<HardEvent::MTE2_V>();
        Wait<HardEvent::MTE2_S>();
        for (uint32_t i = 0; i < rows; ++i) {
          const float x1 = r5.GetValue(i), y1 = r5.GetValue(RB + i), x2 = r5.GetValue(2 * RB + i);
          const float y2 = r5.GetValue(3 * RB + i), area = r5.GetValue(4 * RB + i);
          Mins(mn, c5[2 * CC], x2, m);
          Maxs(mx, c5, x1, m);
          Sub(w, mn, mx, m);
          Maxs(w, w, 0.0f, m);
          Mins(mn, c5[3 * CC], y2, m);
          Maxs(mx, c5[CC], y1, m);
          Sub(h, mn, mx, m);
          Maxs(h, h, 0.0f, m);
          Mul(w, w, h, m);                 // inter
          Adds(h, c5[4 * CC], area, m);
          Sub(h, h, w, m);                 // union
          Muls(h, h, thr_, m);
          LocalTensor<uint8_t> b = bits[flip * (CC / 8)];
          Wait<HardEvent::MTE3_V>();
          Compare(b, w, h, CMPMODE::GT, m);
          Wait<HardEvent::V_MTE3>();
          Out(maskGm_[(r0 + i) * rowBytes + a / 8], b, m / 8);
          flip ^= 1;
        }
      }
      Wait<HardEvent::MTE3_MTE2>();
    }
    Wait<HardEvent::MTE3_S>();
  }

  // Core 0: in score order, a box not yet removed is kept and removes what its row marks.
  __aicore__ inline void Sweep(int cur) {
    LocalTensor<uint16_t> removed = tmp_.Get<uint16_t>();          // np bits (np <= 32 * CC)
    LocalTensor<uint16_t> row = cols_.Get<uint16_t>();             // one mask row
    LocalTensor<uint32_t> p = posIn_.Get<uint32_t>();
    LocalTensor<int64_t> out = keyOut_.Get<int64_t>();             // kept indices, CH at a time
    const uint64_t rowBytes = np_ / 8;
    Duplicate(removed, (uint16_t)0, (int32_t)(np_ / 16));
    Wait<HardEvent::V_S>();
    uint64_t kept = 0, flushed = 0;
    for (uint64_t s = 0; s < n_; ++s) {
      if (s % CH == 0) {
        Wait<HardEvent::S_MTE2>();
        In(p, posGm_[cur][s], n_ - s < CH ? (uint32_t)(n_ - s) : CH);
        Wait<HardEvent::MTE2_S>();
      }
      if ((removed.GetValue((uint32_t)(s / 16)) >> (s % 16)) & 1u) continue;
      out.SetValue((uint32_t)(kept - flushed), (int64_t)p.GetValue((uint32_t)(s % CH)));
      ++kept;
      if (kept - flushed == CH) {
        Wait<HardEvent::S_MTE3>();
        Out(keepGm_[flushed], out, CH);
        Wait<HardEvent::MTE3_S>();
        flushed = kept;
      }
      const uint64_t c = s / 256 * 256;  // from the 256-column block holding s: 32-byte aligned in both
      Wait<HardEvent::V_MTE2>();
      DataCopy(row.template ReinterpretCast<uint8_t>(), maskGm_[s * rowBytes + c / 8], (uint32_t)((np_ - c) / 8));
      Wait<HardEvent::MTE2_V>();
      Or(removed[(uint32_t)(c / 16)], removed[(uint32_t)(c / 16)], row, (int32_t)((np_ - c) / 16));
      Wait<HardEvent::V_S>();
    }
    Wait<HardEvent::S_MTE3>();
    if (kept > flushed) Out(keepGm_[flushed], out, (uint32_t)(kept - flushed));
    Wait<HardEvent::MTE3_V>();
    Duplicate(out.template ReinterpretCast<int32_t>(), (int32_t)-1, (int32_t)(2 * CH));
    Wait<HardEvent::V_MTE3>();
    for (uint64_t a = kept; a < n_; a += CH) Out(keepGm_[a], out, n_ - a < CH ? (uint32_t)(n_ - a) : CH);
    Wait<HardEvent::MTE3_S>();
    out.SetValue(0, (int64_t)kept);
    Wait<HardEvent::S_MTE3>();
    Out(numGm_, out, 1);
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> keyIn_, posIn_, keyOut_, posOut_, hists_, digits_, cols_, rows_, tmp_, bits_, syncUb_;
  GlobalTensor<float> boxGm_, soaGm_;
  GlobalTensor<uint32_t> scoreGm_, histGm_, keysGm_[2], posGm_[2];
  GlobalTensor<int64_t> keepGm_, numGm_;
  GlobalTensor<int32_t> syncGm_;
  GlobalTensor<uint8_t> maskGm_;
  uint64_t n_ = 0, np_ = 0, lo_ = 0, hi_ = 0;
  float thr_ = 0.5f;
  uint32_t cores_ = 1, me_ = 0;
};

extern "C" __global__ __aicore__ void nms_custom(GM_ADDR boxes, GM_ADDR scores, GM_ADDR keep, GM_ADDR num, GM_ADDR ws,
                                                 uint64_t n, uint64_t np, float thr) {
  KernelNms op;
  op.Init(boxes, scores, keep, num, ws, n, np, thr);
  op.Process();
}

// fp32 boxes and scores. The workspace is the host's: allocated once and grown as needed (kope synchronises the
// stream after every call), its SyncAll flags zeroed before each launch. Up to 32 * CH boxes (the sweep's removed
// mask lives in the UB).
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *boxes = &a->inputs[0], *scores = &a->inputs[1], *keep = &a->outputs[0], *num = &a->outputs[1];
  if (boxes->dtype != KOPE_F32 || scores->dtype != KOPE_F32 || keep->dtype != KOPE_I64 || num->dtype != KOPE_I64)
    return 1;
  const uint64_t n = (uint64_t)scores->numel;
  if (n == 0) return 0;
  const uint64_t np = (n + 255) / 256 * 256;
  if (np > 32 * CH) return 2;
  const float thr = (float)kope_attr_or(a, "iou_threshold", 0.5);
  uint64_t blockDim = (n + RB - 1) / RB;
  blockDim = blockDim < MAX_CORES ? blockDim : MAX_CORES;
  const uint64_t bytes = NmsWsBytes(n, np, (uint32_t)blockDim);
  GM_ADDR pb = (GM_ADDR)boxes->data, ps = (GM_ADDR)scores->data, pk = (GM_ADDR)keep->data, pn = (GM_ADDR)num->data;
#ifdef ASCENDC_CPU_DEBUG
  GM_ADDR ws = (GM_ADDR)AscendC::GmAlloc(bytes);
  std::memset(ws, 0, SYNC_BYTES);
  ICPU_RUN_KF(nms_custom, blockDim, pb, ps, pk, pn, ws, n, np, thr);
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
  nms_custom<<<blockDim, nullptr, stream>>>(pb, ps, pk, pn, (GM_ADDR)ws, n, np, thr);
#endif
  return 0;
}
