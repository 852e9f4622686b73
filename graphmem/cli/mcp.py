"""`graphmem mcp`: serve one store to agents over the Model Context Protocol (graphmem/mcp_server.py)."""

from __future__ import annotations

import click

from .common import friendly_errors, open_memory, uri_option


@click.command("mcp")
@click.option("--user", "-u", envvar="GRAPHMEM_USER", default=None,
              help="Serve only this user's memory (default: any user each call names).")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True,
              help="stdio: started by a desktop agent; http: streamable HTTP, a long-lived server.")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP: the address to bind.")
@click.option("--port", type=int, default=8000, show_default=True, help="HTTP: the port.")
@click.option("--path", default="/mcp", show_default=True, help="HTTP: the endpoint's path.")
@click.option("--token", envvar="GRAPHMEM_MCP_TOKEN", default=None, metavar="SECRET",
              help="HTTP: require `Authorization: Bearer SECRET` (required when bound beyond 127.0.0.1).")
@uri_option
@click.pass_context
@friendly_errors
def mcp_command(ctx, user, transport, host, port, path, token):
    """Serve memory over MCP: tools remember, recall, gaps, list, get, forget, history, supersede,
    unsupersede.

    The models load once, when the server starts. Over stdio nothing but the protocol is
    written to stdout.

    \b
    Example:  graphmem mcp --user alice                      (a desktop agent starts this)
              graphmem mcp --transport http --port 8765
    """
    from ..keys import check_user

    if user is not None:
        check_user(user)  # refused before anything is opened, rather than on every call
    from ..mcp_server import check_binding, check_port, serve  # the SDK loads only for this command

    if transport == "http":
        check_binding(host, token)
        check_port(host, port)
    mem = open_memory(ctx)
    serve(mem, user=user, transport=transport, host=host, port=port, path=path, token=token,
          ready=lambda url: click.echo(f"graphmem: serving MCP at {url}", err=True))


COMMANDS = [mcp_command]
