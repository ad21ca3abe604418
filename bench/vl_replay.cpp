// spu-vl-replay-<cfg>: the floor row of make bench-peers (docs/performance.md).
// A bare Verilator main: the Verilated spu_top of one configuration (the very
// library spu-tb links, built with the same Verilator and C++ flags, behind
// the input stage as there, vl/vl_clock.h), driven
// from the per-cycle input vectors spu-csim --vectors writes, with no golden
// model, no stimulus generator, no core model and no compare. It counts the
// selections and records the DUT shows, so the bench can check that every
// row ran the same thing.
//   spu-vl-replay-<cfg> [--repeat R] [--init-seed N] [--full-clock] VECTORS
// The whole file is read first (its inputs, which the header names; the
// expected outputs after "|" are skipped) into one array of port words, then replayed R times (default
// 1), each pass after the harness's reset sequence (rst_ni 1, 0 for two
// clocks, 1; an uninitialised reset has no edge). Prints
//   REPLAY config C: N cycles x R passes, S samples, C collisions, records kept K rejected J, X M cycles/s
// with the counts of one pass; every pass must give the same counts (exit 1
// otherwise). Cycles per second are of the replay loop alone. Bad input:
// "FILE:LINE:COL: ..." and exit 2.
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "verilated.h"
#include VTOP_HDR
#include VROOT_HDR

#include "spu_model.h"
#include "vl_clock.h"

// spu_top's inputs with a spu_in_t member, with their widths for L lanes
// and S finish ports, in the order the vector file's header names them
// (checked): configs/spu.toml [ports], through spu_ports.h.
#define VEC_BITS_ONE(w) (w)
#define VEC_BITS_LANES(w) L
#define VEC_BITS_PORTS(w) S
#define VEC_BITS_LANE(w) ((w) * L)
#define VEC_BITS_PORT(w) ((w) * S)
#define SPU_VEC_INPUTS(X) SPU_IN_ALL(X)

VL_DECLARE_REGIONS(VTOP)

namespace {

// 32-bit words of a port: 1 for CData..IData, 2 for QData, N for VlWide<N>.
template <typename P> constexpr unsigned nwords() { return (unsigned)((sizeof(std::remove_reference_t<P>) + 3) / 4); }

template <typename T> void load(T &d, const uint32_t *w)
{
    if constexpr (sizeof(T) > 4)
        d = (T)(w[0] | (uint64_t)w[1] << 32);
    else
        d = (T)w[0];
}
template <std::size_t N> void load(VlWide<N> &d, const uint32_t *w)
{
    for (std::size_t i = 0; i < N; i++)
        d[i] = w[i];
}

#define WORDS(p, m, PACK, w) +nwords<decltype(VTOP::p)>()
constexpr unsigned ROW = 0 SPU_VEC_INPUTS(WORDS); // words of one cycle's inputs
#define ONE(p, m, PACK, w) +1
constexpr unsigned NIN = 0 SPU_VEC_INPUTS(ONE);
#define NAME(p, m, PACK, w) #p,
const char *const in_name[NIN] = {SPU_VEC_INPUTS(NAME)};
#define NWORDS(p, m, PACK, w) nwords<decltype(VTOP::p)>(),
const unsigned in_words[NIN] = {SPU_VEC_INPUTS(NWORDS)};

[[noreturn]] void die(const char *file, unsigned long line, unsigned long col, const std::string &msg)
{
    std::fprintf(stderr, "%s:%lu:%lu: %s\n", file, line, col, msg.c_str());
    std::exit(2);
}

int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// One line of f into line, without its newline: false at the end.
bool read_line(FILE *f, std::string &line)
{
    char buf[1 << 16];
    bool got = false;
    line.clear();
    while (std::fgets(buf, sizeof buf, f)) {
        got = true;
        line += buf;
        if (line.back() == '\n')
            break;
    }
    if (got && !line.empty() && line.back() == '\n')
        line.pop_back();
    return got;
}

// The header line "# spu-vectors 2 config NAME lanes L slots S fields ...":
// this build's configuration, and the inputs this main drives, in its
// order. Sets each input's width (in_bits) for the header's lanes and slots.
void read_header(const char *path, const std::string &line, unsigned *in_bits)
{
    char cfg[64] = "";
    unsigned L = 0, S = 0;
    if (std::sscanf(line.c_str(), "# spu-vectors 2 config %63s lanes %u slots %u", cfg, &L, &S) != 3)
        die(path, 1, 1, "not a vector file (want '# spu-vectors 2 config NAME lanes L slots S', from spu-csim --vectors)");
    if (std::strcmp(cfg, CFG_NAME) != 0)
        die(path, 1, 1, std::string("vectors of configuration '") + cfg + "', but this is the " CFG_NAME " build");
    if (L < 1 || L > SPU_MAX_LANES || S < 1 || S > SPU_MAX_SLOTS)
        die(path, 1, 1, "lanes " + std::to_string(L) + " slots " + std::to_string(S) + ": out of range");
#define BITS(p, m, PACK, w) VEC_BITS_##PACK(w),
    const unsigned bits[NIN] = {SPU_VEC_INPUTS(BITS)};
    std::memcpy(in_bits, bits, sizeof bits);
    const size_t at = line.find(" fields ");
    if (at == std::string::npos)
        die(path, 1, 1, "the header names no fields (a vector file of an older spu-csim?)");
    size_t pos = at + 8;
    for (unsigned k = 0; k < NIN; k++) {
        const size_t end = line.find_first_of(", ", pos);
        const std::string got = line.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (got != in_name[k])
            die(path, 1, pos + 1, "input field " + std::to_string(k + 1) + " is '" + got + "', this main drives '" +
                                      in_name[k] + "' there");
        pos = end == std::string::npos ? line.size() : end + 1;
    }
    if (line.compare(pos, 2, "| ") != 0)
        die(path, 1, pos + 1, "more input fields than the " + std::to_string(NIN) + " of spu_top");
}

// Input k's hexadecimal field, line[start, end), into its words w (8
// digits to a word, from the last); a digit beyond its bits is an error.
void read_field(const char *path, unsigned long ln, const std::string &line, size_t start, size_t end, unsigned k,
                unsigned bits, uint32_t *w)
{
    unsigned digits = 0;
    for (size_t i = end; i-- > start; digits++) {
        const int v = hexval(line[i]);
        if (v < 0)
            die(path, ln, i + 1, std::string("'") + line[i] + "' is not a hexadecimal digit (" + in_name[k] + ")");
        if (digits / 8 >= in_words[k]) {
            if (v)
                die(path, ln, i + 1, std::string("value wider than port ") + in_name[k]);
            continue;
        }
        if (v >> std::min(4u, bits > 4 * digits ? bits - 4 * digits : 0u))
            die(path, ln, i + 1, std::string("value wider than port ") + in_name[k] + " (" + std::to_string(bits) +
                                     " bits)");
        w[digits / 8] |= (uint32_t)v << (4 * (digits % 8));
    }
}

// One cycle's line: its inputs appended to rows (ROW words), then "|".
void read_row(const char *path, unsigned long ln, const std::string &line, const unsigned *in_bits,
              std::vector<uint32_t> &rows)
{
    const size_t base = rows.size();
    rows.resize(base + ROW, 0);
    uint32_t *w = rows.data() + base;
    size_t pos = 0;
    for (unsigned k = 0; k < NIN; k++) {
        while (pos < line.size() && line[pos] == ' ')
            pos++;
        const size_t start = pos;
        while (pos < line.size() && line[pos] != ' ')
            pos++;
        if (start == pos)
            die(path, ln, start + 1, std::string("missing field ") + std::to_string(k + 1) + " (" + in_name[k] + ")");
        read_field(path, ln, line, start, pos, k, in_bits[k], w);
        w += in_words[k];
    }
    while (pos < line.size() && line[pos] == ' ')
        pos++;
    if (pos >= line.size() || line[pos] != '|')
        die(path, ln, pos + 1, "expected '|' after the " + std::to_string(NIN) + " input fields");
}

// Reads every line's inputs into rows (ROW words per cycle). The header
// line must name this build's configuration and inputs.
void read_vectors(const char *path, std::vector<uint32_t> &rows)
{
    FILE *f = std::fopen(path, "r");
    if (!f) {
        std::fprintf(stderr, "%s: %s\n", path, std::strerror(errno));
        std::exit(2);
    }
    std::string line;
    unsigned in_bits[NIN] = {};  // each port's width, from the header's lanes and slots
    unsigned long ln = 0;
    while (read_line(f, line)) {
        if (++ln == 1)
            read_header(path, line, in_bits);
        else
            read_row(path, ln, line, in_bits, rows);
    }
    if (std::ferror(f))
        die(path, ln, 1, std::strerror(errno));
    std::fclose(f);
    if (!ln)
        die(path, 1, 1, "empty file (want the '# spu-vectors' header)");
    if (rows.empty())
        die(path, ln, 1, "no cycles");
}

struct counts {
    uint64_t samples = 0, collisions = 0, kept = 0, rejected = 0;
    bool operator==(const counts &o) const
    {
        return samples == o.samples && collisions == o.collisions && kept == o.kept && rejected == o.rejected;
    }
};

void drive(VTOP *t, const uint32_t *w)
{
#define LOAD(p, m, PACK, bits)                                                                                             \
    load(t->p, w);                                                                                                 \
    w += nwords<decltype(VTOP::p)>();
    SPU_VEC_INPUTS(LOAD)
}

// One step: the model's clocks (clk_i, and ld_i behind the input stage:
// piped, the outputs one step late), in one evaluation where the Verilator
// allows it (vl/vl_clock.h).
// k: vl_pick()'s clocking (VL_REAL for --full-clock).
void tick(VTOP *t, const vl_clocking<VL_ROOT_T(VTOP)> &k)
{
    if (!vl_rise(t->rootp, t, vl_clocks<VTOP>, k))
        vl_toggle(t, vl_clocks<VTOP>, [] {});
}

void reset(VTOP *t, const vl_clocking<VL_ROOT_T(VTOP)> &k)
{
    static const uint32_t zero[ROW] = {};
    drive(t, zero);
    vl_reset_sequence(t, [t, &k] { tick(t, k); });
}

// The selections and records the outputs show.
void count(const VTOP *t, counts &c)
{
    // most cycles select nothing and finish nothing: nothing to count
    // (a bit count without -mpopcnt is a library call, every cycle)
    if (!(t->smp_valid_o | t->col_valid_o | t->rec_valid_o))
        return;
    const uint64_t rv = t->rec_valid_o, keep = t->rec_keep_o;
    c.samples += (uint64_t)__builtin_popcountll(t->smp_valid_o);
    c.collisions += (uint64_t)__builtin_popcountll(t->col_valid_o);
    c.kept += (uint64_t)__builtin_popcountll(rv & keep);
    c.rejected += (uint64_t)__builtin_popcountll(rv & ~keep);
}

__attribute__((noinline)) counts replay_pass(VTOP *t, const std::vector<uint32_t> &rows, const vl_clocking<VL_ROOT_T(VTOP)> &k)
{
    counts c;
    const uint32_t *w = rows.data(), *end = w + rows.size();
    // Behind the input stage a step shows the cycle before: the first step
    // shows a reset cycle (not counted), one step more the last row's.
    constexpr bool late = vl_has_ld<VTOP>;
    if (late && w != end) {
        drive(t, w);
        tick(t, k);
        w += ROW;
    }
    for (; w != end; w += ROW) {
        drive(t, w);
        tick(t, k);
        count(t, c);
    }
    if (late && !rows.empty()) {
        tick(t, k);
        count(t, c);
    }
    return c;
}

double now_s()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

unsigned long number(const char *opt, const char *v, unsigned long min)
{
    char *e;
    errno = 0;
    const unsigned long n = v ? std::strtoul(v, &e, 10) : 0;
    if (!v || !*v || *e || errno || n < min || n > 1000000000ul) {
        std::fprintf(stderr, "spu-vl-replay: %s '%s': want a whole number >= %lu\n", opt, v ? v : "", min);
        std::exit(2);
    }
    return n;
}

} // namespace

int main(int argc, char **argv)
{
    unsigned long repeat = 1, init_seed = 1;
    bool full_clock = false;
    const char *path = nullptr;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--repeat")
            repeat = number("--repeat", i + 1 < argc ? argv[++i] : nullptr, 1);
        else if (a == "--init-seed")
            init_seed = number("--init-seed", i + 1 < argc ? argv[++i] : nullptr, 1);
        else if (a == "--full-clock")
            full_clock = true;
        else if (a == "-h" || a == "--help") {
            std::printf("usage: %s [--repeat R] [--init-seed N] [--full-clock] VECTORS\n"
                        "  the Verilated spu_top of " CFG_NAME " replaying spu-csim --vectors input vectors\n"
                        "  R times (default 1), no model, no compare (make bench-peers, docs/performance.md)\n",
                        argv[0]);
            return 0;
        } else if (a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "spu-vl-replay: unknown option '%s' (--help lists them)\n", a.c_str());
            return 2;
        } else if (path) {
            std::fprintf(stderr, "spu-vl-replay: one vector file only ('%s' and '%s')\n", path, a.c_str());
            return 2;
        } else
            path = argv[i];
    }
    if (!path) {
        std::fprintf(stderr, "spu-vl-replay: no vector file (spu-csim --vectors FILE writes one)\n");
        return 2;
    }
    std::vector<uint32_t> rows;
    read_vectors(path, rows);
    const uint64_t cycles = rows.size() / ROW;

    auto ctx = std::make_unique<VerilatedContext>();
    // X initialisation as spu-tb does it: random values, seeded (seed >= 1).
    const std::string seed = "+verilator+seed+" + std::to_string(init_seed);
    const char *vargv[] = {"spu-vl-replay", "+verilator+rand+reset+2", seed.c_str()};
    ctx->commandArgs(3, vargv);
    auto top = std::make_unique<VTOP>(ctx.get(), "spu_top");

    const auto clocking = vl_pick(top->rootp, top.get(), VL_REGIONS(VTOP), full_clock);
    counts first;
    double busy = 0;
    for (unsigned long r = 0; r < repeat; r++) {
        reset(top.get(), clocking);
        const double t0 = now_s();
        const counts c = replay_pass(top.get(), rows, clocking);
        busy += now_s() - t0;
        if (r == 0)
            first = c;
        else if (!(c == first)) {
            std::fprintf(stderr, "FAIL: pass %lu of %s counted differently from pass 1\n", r + 1, path);
            return 1;
        }
    }
    top->final();
    std::fprintf(stderr,
                 "REPLAY config %s: %" PRIu64 " cycles x %lu passes, %" PRIu64 " samples, %" PRIu64
                 " collisions, records kept %" PRIu64 " rejected %" PRIu64 ", %.2f M cycles/s\n",
                 CFG_NAME, cycles, repeat, first.samples, first.collisions, first.kept, first.rejected,
                 busy > 0 ? (double)(cycles * repeat) / busy / 1e6 : 0.0);
    return 0;
}
