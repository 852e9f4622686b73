"""`graphmem` command line: a thin skin over the library; every command is one library call.

`main` is the group; the commands come from the modules beside this one, each of which imports
`common` only of this package (and the library below it), so no module here imports one that
imports it back."""

from __future__ import annotations

import logging
import sys

import click

from .bench import COMMANDS as BENCH
from .common import group_uri_option
from .db import COMMANDS as DB
from .ingest import COMMANDS as INGEST
from .maintain import COMMANDS as MAINTAIN
from .mcp import COMMANDS as MCP
from .memories import COMMANDS as MEMORIES
from .recall import COMMANDS as RECALL
from .simplex import COMMANDS as SIMPLEX
from .transfer import COMMANDS as TRANSFER


@click.group()
@click.version_option(package_name="graphmem")
@group_uri_option
def main() -> None:
    """graphmem: graph-database-native memory for LLM agents.

    The connection options apply to every command after them; the same options given after a
    command win.

    \b
    Example:
      graphmem simplex insert Alice Bob Paris --user alice
      graphmem simplex cofaces Alice Paris --user alice
      graphmem --uri neo4j://localhost:7687 --neo4j-user neo4j --neo4j-password secret stats --user alice
    """
    # the neo4j driver logs connection failures itself; we report them as one line
    logging.getLogger("neo4j").setLevel(logging.CRITICAL)


for _command in (*SIMPLEX, *INGEST, *MEMORIES, *MAINTAIN, *RECALL, *TRANSFER, *DB, *BENCH, *MCP):
    main.add_command(_command)

if __name__ == "__main__":
    sys.exit(main())
