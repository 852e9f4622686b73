"""python -m bench perf [--quick] [--out DIR] [--only SECTION]
python -m bench locomo FILE... [--k 5,10,20] [--json OUT] [--plot PNG] [--ablations] [--cross-validate]
                               [--fit-ranker OUT] [--home DIR] [--uri URI]
python -m bench beam PATH... [--k 5,10,20] [--limit N] [--asker NAME] [--json OUT] [--plot PNG] [--home DIR]
                             [--uri URI]
python -m bench fit --locomo FILE... --beam PATH... [--home DIR] [--out RANKER.json] [--json OUT]"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import DEFAULT_OUT, SECTIONS, perf


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description="graphmem benchmarks")
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("perf", help="speed of the simplex tree against the relational design and gudhi")
    p.add_argument("--quick", action="store_true", help="N up to 10^4 and fewer queries (under 5 minutes)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"where JSON and PNGs go (default {DEFAULT_OUT})")
    p.add_argument("--only", action="append", choices=[name for name, _ in SECTIONS], help="run only this section")
    lo = commands.add_parser("locomo", help="Recall@k and All@k on LoCoMo conversations, next to BM25 and dense")
    lo.add_argument("paths", nargs="+", metavar="FILE", help="LoCoMo conversation files")
    lo.add_argument("--k", dest="ks", default="5,10,20", metavar="K,K,...", help="cut-offs (default 5,10,20)")
    lo.add_argument("--json", dest="json_out", metavar="OUT", help="write the figures here")
    lo.add_argument("--plot", dest="plot_out", metavar="PNG", help="write a PNG bar plot here")
    lo.add_argument("--ablations", action="store_true", help="also run graphmem without each channel")
    lo.add_argument("--cross-validate", action="store_true",
                    help="also rank each conversation with a ranker fit on the other conversations only")
    lo.add_argument("--fit-ranker", dest="fit_out", metavar="OUT",
                    help="fit the recall ranker on these conversations, write it here")
    lo.add_argument("--home", metavar="DIR", help="embedded database directory (default: a fresh temporary one)")
    connection_options(lo)
    be = commands.add_parser("beam", help="Recall@k and All@k on BEAM conversations per ability, next to BM25 and dense")
    be.add_argument("paths", nargs="+", metavar="PATH", help="BEAM conversation folders, or folders of them")
    be.add_argument("--k", dest="ks", default="5,10,20", metavar="K,K,...", help="cut-offs (default 5,10,20)")
    be.add_argument("--limit", type=int, metavar="N", help="only the first N conversations")
    be.add_argument("--asker", metavar="NAME", help="recall's asker (default: none, the public default)")
    be.add_argument("--json", dest="json_out", metavar="OUT", help="write the figures here")
    be.add_argument("--plot", dest="plot_out", metavar="PNG", help="write a PNG bar plot here")
    be.add_argument("--home", metavar="DIR",
                    help="embedded database directory, kept (default: a fresh temporary one); a later run on it only asks")
    connection_options(be)
    fi = commands.add_parser("fit", help="fit the recall rankers on LoCoMo and BEAM, measured held out")
    fi.add_argument("--locomo", nargs="+", default=[], metavar="FILE", help="LoCoMo conversation files")
    fi.add_argument("--beam", nargs="+", default=[], metavar="PATH", help="BEAM conversation folders")
    fi.add_argument("--home", metavar="DIR", help="embedded database directory, kept; a later run on it only asks")
    fi.add_argument("--out", metavar="RANKER", help="write here a ranker per kind of conversation, fit on all of that kind")
    fi.add_argument("--json", dest="json_out", metavar="OUT", help="write the figures here")
    args = parser.parse_args(argv)
    if args.command == "perf":
        perf(quick=args.quick, out=args.out, only=args.only)
        return 0
    from graphmem.errors import GraphmemError

    if args.command == "fit":
        from . import fit

        try:
            fit.run(args.locomo, args.beam, home=args.home, out=args.out, json_out=args.json_out)
        except GraphmemError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        return 0

    auth = (args.neo4j_user or "neo4j", args.neo4j_password or "") if args.neo4j_user or args.neo4j_password else None
    try:
        if args.command == "beam":
            from . import beam

            beam.run(args.paths, ks=args.ks, limit=args.limit, asker=args.asker, home=args.home, uri=args.uri,
                     auth=auth, json_out=args.json_out, plot_out=args.plot_out)
            return 0
        from .locomo_run import run

        run(args.paths, ks=args.ks, ablations=args.ablations, cross_validate=args.cross_validate,
            fit_out=args.fit_out, home=args.home, uri=args.uri, auth=auth, json_out=args.json_out,
            plot_out=args.plot_out)
    except GraphmemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def connection_options(parser: argparse.ArgumentParser) -> None:
    """--uri, --neo4j-user, --neo4j-password: the backend a benchmark runs on."""
    parser.add_argument("--uri", help="backend URI (default: GRAPHMEM_URI, else the embedded database)")
    parser.add_argument("--neo4j-user", default=os.environ.get("GRAPHMEM_NEO4J_USER") or None, metavar="NAME",
                        help="Neo4j user (default: GRAPHMEM_NEO4J_USER; neo4j when a password is given)")
    parser.add_argument("--neo4j-password", default=os.environ.get("GRAPHMEM_NEO4J_PASSWORD") or None,
                        metavar="SECRET", help="Neo4j password (default: GRAPHMEM_NEO4J_PASSWORD)")


if __name__ == "__main__":
    sys.exit(main())
