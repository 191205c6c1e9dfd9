"""Where agents reach graphmem: an MCP server (``graphmem.integrations.mcp``) and LangChain /
LangGraph tools, retriever and store (``graphmem.integrations.langchain``).

Each module imports its framework when imported itself, never from ``import graphmem``: install
the extra you use (``pip install graphmem[mcp]`` or ``graphmem[langchain]``).
"""
