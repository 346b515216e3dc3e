// The GM memory model: rounded-up tail reads and writes inside the allocator's padding, tiles
// computed beyond the data they hold, undefined values reaching GM or scalar code, and stores
// far outside a buffer. `rounded_` is the length rounded up to whole 32-byte blocks; a tile
// holds TILE floats.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 256;

class KernelGmModel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t length, uint32_t rounded)
    {
        length_ = length;
        rounded_ = rounded;
        y_ = y;
        xGm.SetGlobalBuffer((__gm__ float*)x, rounded);
        yGm.SetGlobalBuffer((__gm__ float*)y, rounded);
        pipe.InitBuffer(inQueue, 1, TILE * sizeof(float));
        pipe.InitBuffer(outQueue, 1, TILE * sizeof(float));
        pipe.InitBuffer(calc, TILE * sizeof(float));
    }
    __aicore__ inline void Run()
    {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        if (TILING_KEY_IS(2)) {
            xGm.SetGlobalBuffer((__gm__ float*)xGm.GetPhyAddr(), rounded_ + 16);
            DataCopy(x, xGm, rounded_ + 16);   // @past-allocation
        } else {
            DataCopy(x, xGm, rounded_);   // @tail-read
        }
        inQueue.EnQue(x);
        x = inQueue.DeQue<float>();
        LocalTensor<float> y = outQueue.AllocTensor<float>();
        LocalTensor<float> c = calc.Get<float>();
        uint32_t store = rounded_;
        if (TILING_KEY_IS(3)) {
            // A whole tile computed from a partly filled buffer: lanes past `rounded_` hold
            // nothing, lanes past `length_` allocator padding; only `rounded_` lanes are stored.
            Duplicate(c, 0.5f, TILE);
            Max(y, x, c, TILE);
            Sub(y, y, c, TILE);
            Abs(y, y, TILE);
            LocalTensor<half> h = c.ReinterpretCast<half>();
            Cast(h, y, RoundMode::CAST_NONE, TILE);
            Cast(y, h, RoundMode::CAST_NONE, TILE);
        } else if (TILING_KEY_IS(4)) {
            // y[i] = x[i + 8]: the last elements stored come from the padding after x.
            Muls(y, x[8], 2.0f, rounded_ - 8);
            store = rounded_ - 8;
        } else if (TILING_KEY_IS(5)) {
            // The sum includes padding lanes; the sum reaches GM.
            Muls(y, x, 2.0f, rounded_);
            ReduceSum(y, x, c, rounded_);   // @reduce
            store = 8;
        } else if (TILING_KEY_IS(6)) {
            Muls(y, x, 2.0f, rounded_);
            if (x.GetValue(length_) > 0.0f) {   // @scalar-use
                Muls(y, y, 2.0f, rounded_);
            }
        } else if (TILING_KEY_IS(7)) {
            Muls(y, x, 2.0f, rounded_);
            if (xGm.GetValue(length_) > 0.0f) {   // @gm-scalar-use
                Muls(y, y, 2.0f, rounded_);
            }
        } else if (TILING_KEY_IS(12)) {
            // A scalar move of a padding value into the output's last element.
            Muls(y, x, 2.0f, rounded_);
            y.SetValue(length_ - 1, x.GetValue(length_));   // @scalar-move
        } else if (TILING_KEY_IS(13)) {
            // A scalar move of a padding value into the output's padding: never part of y.
            Muls(y, x, 2.0f, rounded_);
            y.SetValue(length_, x.GetValue(length_));
        } else if (TILING_KEY_IS(14)) {
            // A comparison of a padding value (a branch): the stored bits are not the value read,
            // the sim cannot follow it through C++ code, so the read is reported.
            Muls(y, x, 2.0f, rounded_);
            y.SetValue(length_, x.GetValue(length_) > 0.0f ? 1.0f : 0.0f);   // @scalar-arith
        } else if (TILING_KEY_IS(15) || TILING_KEY_IS(16)) {
            // y = x > 0 ? x : 0 over a whole tile: mask byte 12 has 4 bits from data (elements
            // 96-99) and 4 from padding; mode 16 stores the selected padding into y's tensor bytes.
            LocalTensor<uint8_t> mask = c.ReinterpretCast<uint8_t>();
            CompareScalar(mask, x, 0.0f, CMPMODE::GT, TILE);
            Select(y, mask, x, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, TILE);   // @select
            if (TILING_KEY_IS(16)) Muls(y, y[8], 1.0f, length_);
        } else if (TILING_KEY_IS(20)) {
            // As 15 with the level-0 forms (mask, repeats): each mask bit as defined as its lane.
            LocalTensor<uint8_t> mask = c.ReinterpretCast<uint8_t>();
            CompareScalar(mask, x, 0.0f, CMPMODE::GT, (uint64_t)64, (uint8_t)(TILE / 64), UnaryRepeatParams());
            Select(y, mask, x, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, (uint64_t)64, (uint8_t)(TILE / 64),
                   BinaryRepeatParams());
        } else if (TILING_KEY_IS(21) || TILING_KEY_IS(22) || TILING_KEY_IS(24)) {
            // y = x through And with a mask of ones over the loaded blocks and zeros beyond (as
            // uint16 lanes), then y[i] |= y[i + 128]: lanes past the data hold padding or nothing, but
            // ANDed with a defined 0 they are defined zeros (mode 22: the level-0 forms). Mode 24
            // keeps the mask all ones: the garbage reaches y.
            LocalTensor<uint16_t> x16 = x.ReinterpretCast<uint16_t>();
            LocalTensor<uint16_t> y16 = y.ReinterpretCast<uint16_t>();
            LocalTensor<uint16_t> m16 = c.ReinterpretCast<uint16_t>();
            const uint32_t ones = TILING_KEY_IS(24) ? 2 * TILE : 2 * rounded_;
            Duplicate(m16, (uint16_t)0xFFFF, ones);
            if (ones < 2 * TILE) Duplicate(m16[ones], (uint16_t)0, 2 * TILE - ones);
            if (TILING_KEY_IS(22)) {
                And(y16, x16, m16, (uint64_t)128, (uint8_t)4, {1, 1, 1, 8, 8, 8});
                Or(y16, y16, y16[TILE], (uint64_t)128, (uint8_t)2, {1, 1, 1, 8, 8, 8});
            } else {
                And(y16, x16, m16, 2 * TILE);   // @and-ones
                Or(y16, y16, y16[TILE], TILE);
            }
        } else if (TILING_KEY_IS(23)) {
            // y = x through Or with zeros over the data and ones beyond, then y[i] &= y[i + 128]:
            // a defined 1 decides an Or whatever the other bit holds.
            LocalTensor<uint16_t> x16 = x.ReinterpretCast<uint16_t>();
            LocalTensor<uint16_t> y16 = y.ReinterpretCast<uint16_t>();
            LocalTensor<uint16_t> m16 = c.ReinterpretCast<uint16_t>();
            Duplicate(m16, (uint16_t)0, 2 * rounded_);
            Duplicate(m16[2 * rounded_], (uint16_t)0xFFFF, 2 * TILE - 2 * rounded_);
            Or(y16, x16, m16, 2 * TILE);
            And(y16, y16, y16[TILE], TILE);
        } else if (TILING_KEY_IS(18)) {
            // A table the kernel itself defines in GM (part of the kernel binary on the device).
            GlobalTensor<float> tableGm;
            tableGm.SetGlobalBuffer((__gm__ float*)kTable, 8);
            DataCopy(c, tableGm, 8);
            Muls(y, x, 2.0f, rounded_);
            Add(y, y, c, 8);
        } else if (TILING_KEY_IS(17)) {
            // y = x > 0 ? 0 : x through Not of the mask (as uint16): bitwise ops keep its bits.
            LocalTensor<uint8_t> mask = c.ReinterpretCast<uint8_t>();
            CompareScalar(mask, x, 0.0f, CMPMODE::GT, TILE);
            Not(mask.ReinterpretCast<uint16_t>(), mask.ReinterpretCast<uint16_t>(), TILE / 16);
            Select(y, mask, x, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, TILE);
        } else {
            Muls(y, x, 2.0f, rounded_);
        }
        outQueue.EnQue(y);
        inQueue.FreeTensor(x);
        y = outQueue.DeQue<float>();
        if (TILING_KEY_IS(8)) {
            *((__gm__ float*)y_ + length_ + 16384) = 1.0f;   // @raw-far
        }
        if (TILING_KEY_IS(9)) {
            *((__gm__ float*)y_ - 2) = 1.0f;   // @raw-before
        }
        if (TILING_KEY_IS(10)) {
            yGm.SetGlobalBuffer((__gm__ float*)y_ + length_ + 16384, 8);
            yGm.SetValue(0, 1.0f);   // @setvalue-far
        }
        if (TILING_KEY_IS(11)) store = 0;   // stores nothing at all
        if (store > 0) DataCopy(yGm, y, store);   // @store
        outQueue.FreeTensor(y);
    }

private:
    constexpr static __gm__ float kTable[8] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> calc;
    GlobalTensor<float> xGm, yGm;
    GM_ADDR y_ = nullptr;
    uint32_t length_ = 0;
    uint32_t rounded_ = 0;
};

extern "C" __global__ __aicore__ void gm_model(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelGmModel op;
    op.Init(x, y, t.length, t.rounded);
    op.Run();
}
