"""Timing helpers shared by the quick benchmarks (small_quick.py,
decode_quick.py): the best of a few timeit runs, and how many calls make a
sample of about 20 ms."""

import time
import timeit


def best(stmt, g, number, inner):
    """Seconds per call of `stmt` (in globals `g`): the best of `inner` runs of `number` calls."""
    t = timeit.Timer(stmt, globals=g)
    return min(t.timeit(number) for _ in range(inner)) / number


def best_cpu(stmt, g, number, inner):
    """`best` in the thread's CPU time instead of wall time (the `--cpu`
    option of the A/B scripts: a machine shared with other jobs distorts
    it far less)."""
    t = timeit.Timer(stmt, timer=time.thread_time, globals=g)
    return min(t.timeit(number) for _ in range(inner)) / number


def calibrate(stmt, g):
    """The number of calls of `stmt` that take about 20 ms."""
    n = 1
    while True:
        t = timeit.Timer(stmt, globals=g).timeit(n)
        if t > 0.01:
            return max(1, int(n * 0.02 / t))
        n *= 4
