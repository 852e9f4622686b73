"""Timing and memory helpers shared by the sections."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable

import numpy as np


def summary(latencies: list[float], items: int | None = None) -> dict:
    """Percentiles in milliseconds; throughput in operations (or `items`) per second."""
    if not latencies:
        return {"n": 0}
    a = np.asarray(latencies) * 1000.0
    total = float(a.sum()) / 1000.0
    return {
        "n": len(latencies),
        "p50_ms": float(np.percentile(a, 50)),
        "p95_ms": float(np.percentile(a, 95)),
        "p99_ms": float(np.percentile(a, 99)),
        "mean_ms": float(a.mean()),
        "max_ms": float(a.max()),
        "per_s": (items or len(latencies)) / total if total > 0 else None,
    }


def timed(fn: Callable[[Any], Any], items: Iterable, budget_s: float, keep: int = 0,
          at_least: int = 0) -> tuple[list[float], list[Any]]:
    """Call fn on each item in order until the time budget is spent (but at least `at_least`
    calls); return each call's latency and the results of the first `keep` calls. The items are
    in random order, so a cut run measures an unbiased sample."""
    latencies, kept = [], []
    start = time.perf_counter()
    for i, item in enumerate(items):
        t = time.perf_counter()
        result = fn(item)
        latencies.append(time.perf_counter() - t)
        if i < keep:
            kept.append(result)
        if time.perf_counter() - start > budget_s and i + 1 >= at_least:
            break
    return latencies, kept


async def atimed(fn: Callable[[Any], Awaitable[Any]], items: Iterable, budget_s: float, keep: int = 0,
                 at_least: int = 0) -> tuple[list[float], list[Any]]:
    latencies, kept = [], []
    start = time.perf_counter()
    for i, item in enumerate(items):
        t = time.perf_counter()
        result = await fn(item)
        latencies.append(time.perf_counter() - t)
        if i < keep:
            kept.append(result)
        if time.perf_counter() - start > budget_s and i + 1 >= at_least:
            break
    return latencies, kept


def proc_status(pid: int | str = "self") -> dict:
    """VmRSS and VmHWM (peak RSS) of a process, in bytes; {} when unreadable (not Linux)."""
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


def peak_rss() -> int:
    """Peak RSS of this process in bytes (getrusage where /proc is missing)."""
    status = proc_status()
    if "VmHWM" in status:
        return status["VmHWM"]
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in Path(path).rglob("*") if p.is_file()) if Path(path).exists() else 0


def per_1e5(value: float, n: int) -> float:
    return value * 100_000 / n


def hiredis() -> bool:
    try:
        from redis.utils import HIREDIS_AVAILABLE
    except ImportError:
        return False
    return bool(HIREDIS_AVAILABLE)


def env() -> dict:
    import platform

    return {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
            "platform": platform.platform(), "hiredis": hiredis()}


def write_figures(figures: dict, out: Path | None) -> dict:
    """Print a benchmark's figures as JSON, and write them to `out` when given."""
    import json

    text = json.dumps(figures, indent=2)
    print(text)
    if out:
        out.write_text(text + "\n")
    return figures
