"""`graphmem bench perf`: the speed benchmark. The benchmark code lives in the top-level `bench`
package of a source checkout (it is not shipped in the wheel)."""

from __future__ import annotations

import importlib
from pathlib import Path

import click

NEEDS_CHECKOUT = (
    "the benchmarks live in the `bench/` package of a graphmem source checkout and are not part of "
    "an installed wheel; clone the repository, `pip install -e '.[bench]'` in it, and run "
    "`graphmem bench perf` (or `python -m bench perf`) from its root")


def _bench():
    try:
        return importlib.import_module("bench")
    except ModuleNotFoundError as exc:
        if exc.name != "bench":  # bench is there but one of its dependencies is not
            raise click.ClickException(
                f"the benchmark needs {exc.name!r}: pip install 'graphmem[bench]' (gudhi, asyncpg, matplotlib)") from None
    # an editable install puts the checkout on sys.path; a plain one may not: try the checkout
    # this package was imported from, then the working directory
    import sys

    for root in (Path(__file__).resolve().parent.parent, Path.cwd()):
        if (root / "bench" / "__init__.py").exists() and (root / "graphmem").is_dir():
            sys.path.insert(0, str(root))
            try:
                return importlib.import_module("bench")
            except ModuleNotFoundError as exc:
                if exc.name != "bench":
                    raise click.ClickException(
                        f"the benchmark needs {exc.name!r}: pip install 'graphmem[bench]'") from None
            finally:
                sys.path.remove(str(root))
    raise click.ClickException(NEEDS_CHECKOUT)


@click.command()
@click.option("--quick", is_flag=True, help="N up to 10^4 and fewer queries (a few minutes).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where the JSON and PNG plots go (default: bench/results/ in the checkout).")
@click.option("--only", multiple=True, help="Run only this section (repeatable).")
def perf(quick: bool, out: Path | None, only: tuple[str, ...]) -> None:
    """Speed of the simplex tree at 10^3..10^5 stored simplices, side by side with the relational
    reference design (PostgreSQL, as written and as recursive CTEs) and gudhi's SimplexTree.

    \b
    Example:  graphmem bench perf --quick
    """
    bench = _bench()
    known = [name for name, _ in bench.SECTIONS]
    unknown = [name for name in only if name not in known]
    if unknown:
        raise click.ClickException(f"unknown section {unknown[0]!r}; known: {', '.join(known)}")
    try:
        bench.perf(quick=quick, out=out, only=list(only) or None)
    except ModuleNotFoundError as exc:
        raise click.ClickException(
            f"the benchmark needs {exc.name!r}: pip install 'graphmem[bench]' (gudhi, asyncpg, matplotlib)") from None
    except RuntimeError as exc:  # PostgreSQL or the embedded server could not start
        raise click.ClickException(str(exc)) from None


BENCH_COMMANDS = [perf]
