"""The ``reverie-mcp`` command, installed with the package: the MCP server itself needs
the ``mcp`` extra, and says so when it is missing."""

import sys


def mcp_main() -> None:
    try:
        from .mcp_server import main
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] != "mcp":
            raise
        sys.exit("reverie-mcp needs the mcp extra: pip install 'reverie-client[mcp]'")
    main()
