"""The ``rulecraft`` command line (click), thin over the engine's public API.

``cli.main`` holds the commands, ``cli.render`` draws states, ``cli.play`` runs
a game at the terminal, ``cli.gamelog`` reads and writes game logs and
``cli.explain`` turns a compiled game into English::

    $ rulecraft --help
"""
