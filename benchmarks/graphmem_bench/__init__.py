# graphmem-bench: the dataset runners of `graphmem bench`. A package of its own beside graphmem,
# which never imports it: each runner is a module with a typer command function (run one with
# `PYTHONPATH=$PWD:$PWD/benchmarks python -m graphmem_bench.<name>`).
