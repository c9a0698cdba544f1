"""The model: ``Game`` (a compiled ruleset), ``State`` (a position and its turn flow) and saves.

It sits above the mechanisms: ``State.apply`` asks the turn's steps, and
``Game.new_state`` runs the setup program.  Lower layers only receive a game
or a state; they never import them::

    >>> import engine
    >>> state = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> type(state).__module__
    'engine.model.state'
"""
