"""For the people who look at the graph: the analysts' Cypher library (``library``), export and
import of a group (``portability``), backup of the local server (``backup``) and readable memory
files (``markdown``)."""
