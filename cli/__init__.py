"""The ``rulecraft`` command line (click), thin over the engine's public API.

``cli.main`` gathers the commands of ``cli.commands`` (a module per group of
them, over the shared options of ``cli.options``), ``cli.render`` draws states (over ``cli.board_drawing``, ``cli.zone_listing`` and ``cli.piece_labels``), ``cli.play`` runs
a game at the terminal, ``cli.gamelog`` reads and writes game logs,
``cli.explain`` turns a compiled game into English, ``cli.new`` starts a
ruleset folder from a copy, ``cli.games_csv`` writes a simulation's games
one row each and ``cli.drawn`` prints a drawing again from memory (``list``'s
table)::

    $ rulecraft --help
"""
