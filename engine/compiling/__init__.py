"""The sections of a ruleset, one module each, compiled by :class:`engine.compiling.builder.Builder`.

Each module reads or compiles one concern of the ruleset tree into the
:class:`~engine.model.game.Game` being built, through functions that take the
builder ``b`` (for its tree, its game, its settings helpers and its error
reporting); :meth:`~engine.compiling.builder.Builder.build` says in which order they
run (interleaved with the phases at which the building blocks' hooks read
their own sections: :data:`engine.blocks.block.PHASES`)::

    names       options, types and their values; each name means one thing
    seating     players, roles (and how they are shuffled), teams
    components  component kinds, their attributes and instances
    zones       the board, zones, how values look, owner_known
    turn        setup and the steps of a turn
    outcomes    the end, scoring and goals, running score, invariants, dry-run setups

For example, ``read_players(b)`` (in :mod:`engine.compiling.seating`) turns
``players: [2, 4]`` into ``b.game.player_counts == (2, 4)``.
"""
