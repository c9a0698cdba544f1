"""The runner: what plays and checks games — bots, simulations, sweeps, replays, scenario files, benchmarks.

Everything here drives the public ``Game``/``State`` API from above::

    >>> import engine
    >>> from engine.runner.simulate import simulate
    >>> simulate(engine.load(engine.builtin_names()[0]), players=2, n=4, seed=0, agents="random").games
    4
"""
