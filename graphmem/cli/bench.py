"""`graphmem bench perf`, `graphmem bench locomo` and `graphmem bench beam`: thin commands over the top-level `bench`
package of a source checkout (the benchmarks are not shipped in the wheel, and their
dependencies are the [bench] extra). Nothing here imports `bench` before a bench command runs."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import click

from .common import console, credentials, friendly_errors, uri_option

NEEDS_CHECKOUT = (
    "the benchmarks live in the `bench/` package of a graphmem source checkout, not in the installed "
    "package: clone the repository, `pip install -e '.[bench]'` in it, and run `graphmem bench ...` "
    "(or `python -m bench ...`) from its root")
# import name -> what pip installs
PACKAGES = {"rank_bm25": "rank-bm25", "sklearn": "scikit-learn", "matplotlib": "matplotlib", "gudhi": "gudhi",
            "asyncpg": "asyncpg"}


def needs(module: str | None) -> click.ClickException:
    package = PACKAGES.get((module or "").split(".")[0], module)
    return click.ClickException(f"the benchmark needs {package}: pip install -e '.[bench]' in the graphmem checkout")


def load(name: str) -> ModuleType:
    """`bench` or one of its modules, from the checkout on sys.path (an editable install puts it
    there), else from the checkout this package was imported from, else from the working directory."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != "bench" and exc.name != name:  # bench is there, one of its dependencies is not
            raise needs(exc.name) from None
    for root in (Path(__file__).resolve().parents[2], Path.cwd()):
        if (root / "bench" / "__init__.py").exists() and (root / "graphmem").is_dir():
            sys.path.insert(0, str(root))
            try:
                return importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != "bench" and exc.name != name:
                    raise needs(exc.name) from None
            finally:
                sys.path.remove(str(root))
    raise click.ClickException(NEEDS_CHECKOUT)


@click.group("bench")
def bench_group() -> None:
    """Benchmarks: retrieval quality on LoCoMo and BEAM, speed at scale (from a source checkout).

    \b
    Example:  graphmem bench perf --quick
    """


@bench_group.command("perf")
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
    bench = load("bench")
    known = [name for name, _ in bench.SECTIONS]
    unknown = [name for name in only if name not in known]
    if unknown:
        raise click.ClickException(f"unknown section {unknown[0]!r}; known: {', '.join(known)}")
    try:
        bench.perf(quick=quick, out=out, only=list(only) or None)
    except ModuleNotFoundError as exc:
        raise needs(exc.name) from None
    except RuntimeError as exc:  # PostgreSQL or the embedded server could not start
        raise click.ClickException(str(exc)) from None


@bench_group.command("locomo")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--k", "ks", default="5,10,20", show_default=True, help="Comma-separated cut-offs.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), default=None, help="Write the figures here.")
@click.option("--plot", "plot_out", type=click.Path(dir_okay=False), default=None, help="Write a PNG bar plot here.")
@click.option("--ablations", is_flag=True, help="Also run graphmem without each channel.")
@click.option("--cross-validate", is_flag=True,
              help="Also rank each conversation with a ranker fit on the other conversations only.")
@click.option("--fit-ranker", "fit_out", type=click.Path(dir_okay=False), default=None,
              help="Fit the recall ranker on these conversations and write it here (GRAPHMEM_RECALL_RANKER=PATH uses it).")
@click.option("--home", type=click.Path(file_okay=False), default=None,
              help="Embedded database directory (default: a fresh temporary one, its server stopped at the end).")
@uri_option
@click.pass_context
@friendly_errors
def locomo(ctx, paths, ks, json_out, plot_out, ablations, cross_validate, fit_out, home):
    """Recall@k and All@k on LoCoMo conversations, per category, next to BM25 and dense
    baselines measured in the same run.

    \b
    Example:  graphmem bench locomo ../shared/data/locomo/locomo10_v2/*.json --k 5,10,20
    """
    uri, auth = credentials(ctx)
    try:
        load("bench.locomo_run").run(paths, ks=ks, ablations=ablations, cross_validate=cross_validate,
                                     fit_out=fit_out, home=home, uri=uri, auth=auth, json_out=json_out,
                                     plot_out=plot_out, console=console)
    except ModuleNotFoundError as exc:
        raise needs(exc.name) from None


@bench_group.command("beam")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--k", "ks", default="5,10,20", show_default=True, help="Comma-separated cut-offs.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N conversations.")
@click.option("--asker", default=None, help="Recall's asker, whose \"I\" the questions mean (default: none).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), default=None, help="Write the figures here.")
@click.option("--plot", "plot_out", type=click.Path(dir_okay=False), default=None, help="Write a PNG bar plot here.")
@click.option("--home", type=click.Path(file_okay=False), default=None,
              help="Embedded database directory, kept: a later run on it finds the conversations ingested "
                   "(default: a fresh temporary one, its server stopped at the end).")
@uri_option
@click.pass_context
@friendly_errors
def beam(ctx, paths, ks, limit, asker, json_out, plot_out, home):
    """Recall@k and All@k of the evidence messages on BEAM conversations, per ability, next to BM25
    and dense baselines measured in the same run; and how often the newer of a knowledge update's
    or a contradiction's two statements ranks above the older. PATH: a conversation folder
    (chat.json, probing_questions.json) or a folder of them.

    \b
    Example:  graphmem bench beam ../shared/data/beam/100K --limit 3
    """
    uri, auth = credentials(ctx)
    try:
        load("bench.beam").run(paths, ks=ks, limit=limit, asker=asker, home=home, uri=uri, auth=auth,
                               json_out=json_out, plot_out=plot_out, console=console)
    except ModuleNotFoundError as exc:
        raise needs(exc.name) from None


COMMANDS = [bench_group]
