"""The strings of workload 5, byte for byte as crates/jetjson-bench
generates them (rng.rs: xorshift64*, strings.rs: `text`), so the Python
suite escapes the same strings as the Rust suite.

`text_reference` is a direct port (one Python step per character: fine for
100 KB, ~10 s for 10 MB). `text_fast` gives the same bytes with numpy:
xorshift's state update is linear over GF(2), so the stream is cut into
lanes whose start states come from a jump matrix, and all lanes advance
together; the one data-dependent part (a control character consumes a second
draw) is resolved by a short Python walk over the rare control positions.
"""

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MULT = 0x2545F4914F6CDD1D


def seed_state(seed):
    # Rng::new: zero is xorshift's fixed point, hence `| 1`.
    return ((seed * GOLDEN) & MASK) | 1


def step(x):
    x ^= x >> 12
    x ^= (x << 25) & MASK
    x ^= x >> 27
    return x


def text_reference(length, quote, control, seed):
    x = seed_state(seed)
    out = bytearray(length)
    for i in range(length):
        x = step(x)
        r = (((x * MULT) & MASK) >> 11) % 10_000
        if r < quote:
            out[i] = 0x22
        elif r < quote + control:
            x = step(x)
            out[i] = (((x * MULT) & MASK) >> 11) % 0x20
        elif r % 7 == 0:
            out[i] = 0x20
        else:
            out[i] = 0x61 + r % 26
    return out.decode("ascii")


def _jump_columns(lane):
    """Columns of the GF(2) matrix of `lane` steps: the image of each bit."""
    cols = []
    for b in range(64):
        x = 1 << b
        for _ in range(lane):
            x = step(x)
        cols.append(x)
    return cols


def _apply(cols, x):
    y = 0
    b = 0
    while x:
        if x & 1:
            y ^= cols[b]
        x >>= 1
        b += 1
    return y


def _outputs(seed, n):
    """The first n outputs (next_u64) of Rng::new(seed), as a numpy array."""
    import numpy as np

    lane = 2048
    lanes = -(-n // lane)
    # Start state of every lane: the state before its first step.
    cols = _jump_columns(lane)
    starts = [seed_state(seed)]
    for _ in range(lanes - 1):
        starts.append(_apply(cols, starts[-1]))
    x = np.array(starts, dtype=np.uint64)
    block = np.empty((lane, lanes), dtype=np.uint64)
    s12, s25, s27 = np.uint64(12), np.uint64(25), np.uint64(27)
    for i in range(lane):
        x ^= x >> s12
        x ^= x << s25
        x ^= x >> s27
        block[i] = x
    # Lane k holds draws k*lane .. k*lane+lane-1: column-major order.
    with np.errstate(over="ignore"):
        return (block.T.reshape(-1)[:n] * np.uint64(MULT))


def text_fast(length, quote, control, seed):
    import numpy as np

    # A control character takes two draws; draw enough for the expected
    # number plus a wide margin, and more if that was not enough.
    n = length + length * control // 10_000 * 2 + 4096
    while True:
        o = _outputs(seed, n)
        r = (o >> np.uint64(11)) % np.uint64(10_000)
        secondary = np.zeros(n, dtype=bool)
        last = -1
        for j in np.flatnonzero((r >= quote) & (r < quote + control)).tolist():
            if j == last:
                continue  # a control character's second draw, not a character
            last = j + 1
            if last < n:
                secondary[last] = True
        primary = np.flatnonzero(~secondary)
        if len(primary) >= length and primary[length - 1] + 1 < n:
            break
        n *= 2
    primary = primary[:length]
    rp = r[primary]
    out = (np.uint64(0x61) + rp % np.uint64(26)).astype(np.uint8)
    out[rp % np.uint64(7) == 0] = 0x20
    ctl = (rp >= quote) & (rp < quote + control)
    out[ctl] = ((o[primary[ctl] + 1] >> np.uint64(11)) % np.uint64(0x20)).astype(np.uint8)
    out[rp < quote] = 0x22
    return out.tobytes().decode("ascii")


def text(length, quote, control, seed):
    try:
        import numpy  # noqa: F401
    except ImportError:
        return text_reference(length, quote, control, seed)
    return text_fast(length, quote, control, seed)
