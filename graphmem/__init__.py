"""graphmem: a knowledge-graph memory engine for LLM agents, on Neo4j."""
