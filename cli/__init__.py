"""The ``rulecraft`` command line (click), thin over the engine's public API.

``cli.main`` holds the commands, ``cli.render`` draws states, ``cli.play`` runs
a game at the terminal, ``cli.gamelog`` reads and writes game logs,
``cli.explain`` turns a compiled game into English, ``cli.new`` starts a
ruleset folder from a copy and ``cli.games_csv`` writes a simulation's games
one row each::

    $ rulecraft --help
"""
