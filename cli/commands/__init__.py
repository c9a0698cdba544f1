"""The commands of ``rulecraft``, a module for each group of them; :mod:`cli.main` gathers them under one group.

Each module defines its commands as plain click commands over the shared options of :mod:`cli.options`:
:mod:`~cli.commands.catalog` (list, schema, explain, compile, new), :mod:`~cli.commands.checks` (validate, check),
:mod:`~cli.commands.games` (play, replay), :mod:`~cli.commands.runs` (simulate, sweep), :mod:`~cli.commands.bench`
and :mod:`~cli.commands.serve`.
"""
