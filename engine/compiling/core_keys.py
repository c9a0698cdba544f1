"""The ruleset keys the compiler itself reads: the core of the ruleset JSON Schema.

Blocks add their own keys, step kinds and definitions (see :mod:`engine.blocks.block`);
:func:`engine.compiling.schema.ruleset_schema` puts them together.

>>> CORE_SCHEMA["required"] if "required" in CORE_SCHEMA else CORE_SCHEMA["else"]["required"]
['name', 'players', 'turn', 'end']
"""

from __future__ import annotations

from typing import Any

CORE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://rulecraft.invalid/schemas/ruleset.schema.json",
    "title": "Rulecraft ruleset",
    "description": ("A tabletop game written as data: its components, board, roles, zones, turn steps, tables, end "
                    "and scoring. Effect-language text (setup, conditions, ranking keys) is checked by `rulecraft "
                    "validate`, which also checks that every name resolves. Start a file with `# "
                    "yaml-language-server: $schema=<path to this file>` to get hover help and completion in your "
                    "editor."),
    "type": "object",
    "properties": {
        "name": {
            "description": ("The ruleset's short name: what `rulecraft list` shows and what `extends:` and "
                            "scenarios use to refer to it. Lower case words joined by '-' by convention."),
            "type": "string",
            "minLength": 1,
            "examples": ["my-game", "my-variant-game"],
        },
        "title": {
            "description": "The game's full title, for people.",
            "type": "string",
            "examples": ["My game — the card game"],
        },
        "starter": {
            "description": ("A built-in ruleset that says true is the one `rulecraft new` copies by default "
                            "(otherwise the smallest); the copy drops the line."),
            "type": "boolean",
            "default": False,
        },
        "version": {
            "description": "Version of this ruleset (a whole number); raise it when a change alters how games play.",
            "type": "integer",
            "minimum": 1,
            "default": 1,
        },
        "description": {
            "description": "A paragraph describing the game, shown by `rulecraft explain` and `rulecraft list`.",
            "type": ["string", "null"],
        },
        "players": {
            "description": ("The player counts the game supports. Every count needs an outcome (`scoring` or "
                            "`goals`) and, when there are `roles`, a `roles.seating` entry."),
            "$ref": "#/$defs/playerCounts",
            "examples": [[2, 3, 4], [1, 2, 3, 4]],
        },
        "options": {
            "description": ("The game's adjustable rules (the rulebook's options), each with its default. Settings "
                            "elsewhere may name an option instead of giving a value, e.g. `max_width: board_width`. "
                            "Option names are single words (letters, digits, _)."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/option"},
            "examples": [
                {"board_width": {"default": 7, "doc": "The widest the grid may grow."}, "sudden_death": False},
            ],
        },
        "types": {
            "description": ("Named enumerations: each type lists its values, e.g. four hues. A value may "
                            "belong to only one type; values are single words. In code, the type's name with an "
                            "`s` lists all its values (`trees`)."),
            "type": ["object", "null"],
            "additionalProperties": {
                "description": ("The values of this type, in order (the order is used for display and as the order "
                                "of roles)."),
                "type": "array",
                "minItems": 1,
                "items": {"type": "string", "description": "One value: a single word such as Oak."},
            },
            "examples": [{"tree": ["Oak", "Elm", "Fir", "Yew"]}],
        },
        "components": {
            "description": ("The kinds of physical components (cards, tiles, pieces), each with its faces, "
                            "attributes and the list of actual components."),
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {"$ref": "#/$defs/componentKind"},
        },
        "board": {
            "description": "The board components are placed on. Leave it out for games without a board.",
            "$ref": "#/$defs/board",
        },
        "display": {
            "description": ("How values look in the terminal (`rulecraft play`) and the browser (`rulecraft "
                            "serve`): for a value of a declared type, a rich style (`bold magenta`, `cyan`, "
                            "`bright_black`) and a short text. A piece on the board shows the short texts of its "
                            "values (e.g. `M3`); a piece that shows no value may be named by its component's id "
                            "(`arrow: {short: x}`)."),
            "type": ["object", "null"],
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "style": {
                        "description": ("A terminal style: colour names such as `magenta`, `bright_black`, optionally "
                                        "with `bold`."),
                        "type": "string",
                        "examples": ["bold magenta"],
                    },
                    "short": {
                        "description": "A short text for the value (one or two characters).",
                        "type": "string",
                        "examples": ["R"],
                    },
                    "colour": {
                        "description": ("The value's colour in the browser (`rulecraft serve`, HTML reports): a CSS "
                                        "colour such as `#c0392b` or `teal`. Without it, the colour named in "
                                        "`style`, else the colour the value's own name is (`cyan`), else one by its "
                                        "place in its type."),
                        "type": "string",
                        "examples": ["#c0392b"],
                    },
                },
                "additionalProperties": False,
            },
            "examples": [{"magenta": {"style": "bold magenta", "short": "M"}, "large": {"short": "3"}}],
        },
        "roles": {
            "description": ("What each player plays as. Without `roles`, every player simply has a seat (seat1, "
                            "seat2, ..., one per seat of the largest player count: those beyond the players at the "
                            "table are played by nobody). With roles, each value of a type is a role (e.g. each side), and "
                            "`seating` says which seat plays which role for each player count."),
            "$ref": "#/$defs/roles",
        },
        "teams": {
            "description": ("Seats that play together, by player count: a team's seats pool their points and all of "
                            "them win when the team does (e.g. a team wins when one of its roles wins). Every seat "
                            "of that count is in exactly one team."),
            "type": ["object", "null"],
            "patternProperties": {
                "^[1-9][0-9]*$": {
                    "description": "The teams for this player count: each a list of seats.",
                    "type": "array",
                    "items": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1},
                },
            },
            "additionalProperties": False,
            "examples": [{"4": [[1, 3], [2, 4]]}],
        },
        "zones": {
            "description": ("Places components can be besides the board (which is built in, as is `supply`, where "
                            "everything starts): decks, hands, discard piles."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/zone"},
            "examples": [
                {
                    "deck": {"kind": "pile", "hidden": "order"},
                    "hand": {"kind": "hand", "per": "role", "hidden": "others"},
                },
            ],
        },
        "counters": {
            "description": ("Whole numbers the game keeps: a resource per role (`per: role`), a meter per component "
                            "(`per: <component kind>`), or one game-wide tally (`per: game`, the default). Code "
                            "reads them as `gold(r)` / `round` and changes them with `=`, `+=`, `-=`; every change "
                            "is kept within `min`..`max`."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/counter"},
            "examples": [{"gold": {"per": "role", "start": 3, "min": 0}, "round": {"start": 1}}],
        },
        "functions": {
            "description": ("Functions the ruleset's own code may call, each an expression with parameters: "
                            "`alive(c): stamina(c) > 0`, `foes(character c): f in characters where alive(f) and "
                            "team(owner(f)) != team(owner(c))` (a selection gives the list of the selected items). "
                            "A parameter is a name alone (a component of any kind) or a type and a name (`int n`, "
                            "`cell c`, `role r`, `character c`, `list of card cs`: a list, a selection or a zone). A function may "
                            "call those defined before it."),
            "type": ["object", "null"],
            "additionalProperties": {
                "description": ("The body: an expression or a selection `x in C where P`; or `{is: BODY, text: "
                                "ENGLISH}` where the text says a call in English with `{param}` for each argument."),
                "type": ["string", "boolean", "integer", "object"],
                "properties": {
                    "is": {
                        "description": "The body: an expression or a selection `x in C where P`.",
                        "type": ["string", "boolean", "integer"],
                    },
                    "text": {
                        "description": ("A call in English, with `{param}` standing for each argument, e.g. `{c} is "
                                        "alive`."),
                        "type": "string",
                    },
                    "let": {
                        "description": ("Names for values the body uses, each computed once per call, in order "
                                        "(each may use the parameters and the names before it): `{next: at(c.x, c.y "
                                        "+ 1)}`."),
                        "type": "object",
                        "additionalProperties": {"type": ["string", "boolean", "integer"]},
                    },
                },
                "required": ["is"],
                "additionalProperties": False,
            },
            "examples": [
                {"alive(c)": "stamina(c) > 0", "member(role r, text name)": "first(c in crew(r) where c.id == name)"},
            ],
        },
        "procedures": {
            "description": ("Programs the ruleset's own code may run by name, each with typed parameters as a "
                            "function's: `score_row(role r, int n): \"points(r) += n\"`, run as a line of any program "
                            "(`score_row(current_role, 3)`). The body may change the game, `choose`, and run the "
                            "procedures above it and itself; each call spends steps of the effect's budget, and calls "
                            "nested more than `call_depth` deep stop with an error."),
            "type": ["object", "null"],
            "additionalProperties": {
                "description": ("The body: a program; or `{do: PROGRAM, text: ENGLISH}` where the text says a call in "
                                "English with `{param}` for each argument."),
                "type": ["string", "object"],
                "properties": {
                    "do": {"description": "The body: a program.", "type": "string"},
                    "text": {
                        "description": ("A call in English, with `{param}` standing for each argument, e.g. `{r} "
                                        "scores row {n}`."),
                        "type": "string",
                    },
                },
                "required": ["do"],
                "additionalProperties": False,
            },
            "examples": [{"score_row(role r, int n)": "points(r) += n"}],
        },
        "first_seat": {
            "description": ("The seat that takes the first turn: a seat number, `lowest-roll` or `highest-roll` (a "
                            "roll-off: every seat rolls a d6, the lowest (highest) starts, tied seats roll again; "
                            "the rolls are logged), or the name of an option holding one of those."),
            "$ref": "#/$defs/count",
            "default": 1,
            "examples": [1, "first_seat", "lowest-roll"],
        },
        "setup": {
            "description": ("How the game is set up, in the effect language: one program for every player count, or "
                            "a mapping from `default` and/or a player count to a program. Setup is tried for every "
                            "player count when the ruleset is validated."),
            "$ref": "#/$defs/setup",
        },
        "turn": {
            "description": ("The steps of one turn, in order. Each entry is one `kind: {settings}` pair, like `- "
                            "place: {from: hand, to: board}`, or a phase grouping steps: `- {phase: opening, steps: "
                            "[...]}`."),
            "type": "array",
            "minItems": 1,
            "items": {
                "if": {"type": "object", "required": ["phase"]},
                "then": {"$ref": "#/$defs/phase"},
                "else": {"$ref": "#/$defs/step"},
            },
        },
        "end": {"description": "When the game ends.", "$ref": "#/$defs/end"},
        "scoring": {
            "description": ("A ranking outcome: rank items (e.g. hues), pay points by rank to an owner. Each "
                            "player count needs exactly one outcome (`scoring` or `goals`)."),
            "$ref": "#/$defs/scoring",
        },
        "goals": {
            "description": ("A win/lose outcome (e.g. for solo play): the game is won when any of the goals holds "
                            "at the end. Each player count needs exactly one outcome (`scoring` or `goals`)."),
            "$ref": "#/$defs/goals",
        },
        "running_score": {
            "description": ("How well the seat `me` is doing during play, as a number (an effect-language "
                            "expression). Bots use it as a heuristic and simulation reports count lead changes with "
                            "it."),
            "$ref": "#/$defs/expression",
            "examples": ["sum(count(c in board where c.hue == r) for r in roles where seat(r) == me)"],
        },
        "invariants": {
            "description": ("Named conditions that must hold after every action (effect-language conditions). Tests "
                            "and `rulecraft check --invariants` verify them over random games."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/condition"},
            "examples": [
                {
                    "every card is somewhere": ("count(c in board) + sum(count(c in hand(r)) for r in roles) + "
                                                "count(c in deck) + count(c in supply) == count(c in cards)"),
                },
            ],
        },
        "variants": {
            "description": ("Named sets of changes a player can switch on (`--variant NAME`). Each variant's body "
                            "is merged on top of the ruleset like a file that `extends` it: mappings merge key by "
                            "key, other values replace, `key+: [...]` appends to a list and `key-: [...]` removes "
                            "items or keys."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/variant"},
            "examples": [{"quick": {"description": "A smaller grid.", "options": {"board_width": {"default": 5}}}}],
        },
        "selected_variants": {
            "description": "Filled in by the loader: the variants applied, in order. Do not write it yourself.",
            "type": "array",
            "items": {"type": "string", "description": "A variant name."},
        },
        "set_options": {
            "description": ("Filled in by the loader: options set from outside the files (`--set NAME=VALUE`), as "
                            "written. Do not write it yourself."),
            "type": "object",
            "additionalProperties": {"type": "string"},
        },
        "replaced": {
            "description": ("Filled in by the loader: the definitions an overlay replaced (`status 'Sting' replaces "
                            "the one from my-game (...)`), shown by explain and validate. Do not write it yourself."),
            "type": "array",
            "items": {"type": "string"},
        },
        "extends": {
            "description": ("Start from another ruleset (a built-in name or a path relative to this file); this "
                            "file's keys go on top of it. Used up by the loader."),
            "type": "string",
            "examples": ["my-game", "../base"],
        },
        "include": {
            "description": ("Files (or folders of *.yaml files) to merge in, relative to this file; they come "
                            "first, this file's own keys on top. Used up by the loader."),
            "$ref": "#/$defs/names",
            "examples": ["board.yaml", ["board.yaml", "cards/"]],
        },
    },
    "patternProperties": {
        "^.+[+-]$": {
            "description": ("`key+: [...]` appends items to the list `key` of the ruleset this file extends or "
                            "includes; `key-: [...]` removes items from the list `key` (or keys from the mapping "
                            "`key`). Used up by the loader."),
            "type": "array",
        },
    },
    "additionalProperties": False,
    "if": {"anyOf": [{"required": ["extends"]}, {"required": ["include"]}]},
    "then": {},
    "else": {"required": ["name", "players", "turn", "end"]},
    "$defs": {
        "playerCounts": {
            "description": "A list of player counts (whole numbers, 1 or more).",
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"type": "integer", "minimum": 1, "description": "A number of players."},
        },
        "names": {
            "description": "One name, or a list of names.",
            "type": ["string", "array"],
            "items": {"type": "string", "description": "A name."},
        },
        "count": {
            "description": "A whole number (0 or more), or the name of an option holding one.",
            "type": ["integer", "string"],
            "minimum": 0,
            "examples": [7, "board_width"],
        },
        "flag": {
            "description": "true or false, or the name of an option holding one.",
            "type": ["boolean", "string"],
            "examples": [False, "sudden_death"],
        },
        "numbers": {
            "description": "A list of whole numbers, or the name of an option holding one.",
            "type": ["array", "string"],
            "items": {"type": "integer", "description": "A whole number."},
            "examples": [[4, 3, 2, 1], "place_points"],
        },
        "expression": {
            "description": "An effect-language expression, e.g. `count(c in board where c.hue == h)`.",
            "type": ["string", "integer", "boolean"],
        },
        "condition": {
            "description": ("An effect-language condition (true or false), e.g. `count(c in board) == count(c in "
                            "cards)`."),
            "type": ["string", "boolean"],
            "examples": ["count(c in board) == count(c in cards)", "player_count == 1"],
        },
        "program": {
            "description": ("Effect-language statements, one per line, with indented blocks (write it as a `|` "
                            "block)."),
            "type": "string",
            "examples": ["move(c in cards, deck)\nshuffle(deck)\n"],
        },
        "zoneName": {
            "description": ("The name of a zone declared under `zones` (a per-role zone means the current role's), "
                            "or `board` / `supply`."),
            "type": "string",
            "examples": ["hand", "deck"],
        },
        "option": {
            "description": "An option: `{default: VALUE, doc: TEXT}`, or just its default value.",
            "if": {"type": "object"},
            "then": {
                "required": ["default"],
                "properties": {
                    "default": {
                        "description": "The option's value unless a player changes it (the rulebook's reading).",
                    },
                    "doc": {"description": "What the option means, for `rulecraft explain`.", "type": "string"},
                    "values": {
                        "description": ("The values the option may take (its default, a variant's or `--set`'s "
                                        "value must be one of them), e.g. the names of the layouts a setup knows; "
                                        "they may be of several kinds, e.g. a roll-off's name or a seat number."),
                        "type": "array",
                        "minItems": 1,
                        "examples": [["ring", "dealt", "spread"]],
                    },
                    "check": {
                        "description": ("A condition the option's value must meet, given the other options and the "
                                        "components (read once, as the game is set up): a value that fails it is "
                                        "refused where it was written, the `doc` as the hint."),
                        "$ref": "#/$defs/condition",
                        "examples": ["hand_size * 4 <= count(c in cards)"],
                    },
                },
                "additionalProperties": False,
            },
        },
        "componentKind": {
            "description": "A kind of component: its faces, its attributes, and the components themselves.",
            "type": "object",
            "properties": {
                "faces": {
                    "description": ("The names of the faces, in order (flipping goes to the next face). One face if "
                                    "left out."),
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "string", "description": "A face name."},
                    "examples": [["front", "back"]],
                },
                "attributes": {
                    "description": ("The attributes each component of this kind has, each with its type. "
                                    "Effect-language code reads them as `c.NAME` (or `c.FACE.NAME` for one face)."),
                    "type": ["object", "null"],
                    "additionalProperties": {"$ref": "#/$defs/attribute"},
                    "examples": [{"hue": {"type": "hue", "per_face": True}, "cost": "int"}],
                },
                "instances": {
                    "description": ("The components, each once. Write `A/B` (one value per face) for a kind with a "
                                    "single per-face attribute, or a mapping with an `id` and attribute values."),
                    "type": ["array", "null"],
                    "items": {"$ref": "#/$defs/instance"},
                    "examples": [["Oak/Oak", "Oak/Fir"], [{"id": "dragon", "cost": 3}]],
                },
            },
            "additionalProperties": False,
        },
        "attribute": {
            "description": ("An attribute's type (`int`, `text`, `bool`, `cell`, `table` or a type declared under "
                            "`types`), or `{type: T, per_face: true}` when each face has its own value. A `cell` is a "
                            "place of the board (a point's name, \"x,y\" or [x, y]), read in code as that cell. A `table` holds "
                            "structured YAML (a mapping or a list) that a building block reads, such as a "
                            "component's special tiles or numbered actions; code can't read it."),
            "type": ["string", "object"],
            "properties": {
                "type": {
                    "description": "`int`, `text`, `bool`, `cell`, `table` or a type declared under `types`.",
                    "type": "string",
                    "examples": ["hue", "int", "table"],
                },
                "per_face": {
                    "description": "true when each face shows its own value (a two-faced card's hue).",
                    "type": "boolean",
                    "default": False,
                },
                "list": {
                    "description": ("true when the attribute holds a list of values of its type, e.g. a pattern of "
                                    "colours: `pattern: [cyan, magenta, orange]`."),
                    "type": "boolean",
                    "default": False,
                },
                "default": {
                    "description": ("The value of a component that leaves the attribute out, e.g. `{type: int, "
                                    "default: 0}` for a cost in a colour most cards don't ask for; without it, such "
                                    "a component reads none."),
                    "type": ["integer", "string", "boolean", "array"],
                    "examples": [0],
                },
                "wildcards": {
                    "description": ("true when a list of a declared type's values may also hold `_` (any value), "
                                    "`$NAME` (any value, the same wherever NAME appears) and `.` (an empty square): "
                                    "a pattern such as `[$a, $a, $a, $a]`."),
                    "type": "boolean",
                    "default": False,
                },
            },
            "required": ["type"],
            "additionalProperties": False,
        },
        "instance": {
            "description": ("One component: `Front/Back` text (one value per face), or a mapping with an `id` and "
                            "its attribute values (a per-face attribute takes a list with one value per face)."),
            "type": ["string", "object"],
            "properties": {
                "id": {
                    "description": "The component's unique name, as used in actions and scenarios.",
                    "type": ["string", "integer"],
                },
                "count": {
                    "description": ("Make this many identical components (ids `ID-1`, `ID-2`, ...). Actions and "
                                    "scenarios name them all by `ID`, and a choice between identical components in "
                                    "one zone is offered once. A number or an option name."),
                    "$ref": "#/$defs/count",
                    "examples": [13, "tokens_per_seat"],
                },
                "also": {
                    "description": ("Other names a user may write for this component, one word each, in actions, "
                                    "scenario positions and look-ups, as a rulebook prints it (`also: \"*\"` for a "
                                    "card `star`); the log, saves and the effect language keep the `id`."),
                    "type": ["string", "array"],
                    "items": {"type": "string"},
                    "examples": ["*", ["*", "wild"]],
                },
                "each": {
                    "description": ("Make one component for every combination of these attributes' values (the "
                                    "first attribute outermost), as a deck is every rank of every suit: each "
                                    "attribute takes a list of its values, or a mapping from the name a value gives "
                                    "the id to the value; the `id` names each attribute in braces "
                                    "(`\"{size}{shape}\"`). The entry's other keys are the same for every one."),
                    "type": "object",
                    "examples": [{"shape": {"S": "square", "T": "triangle"}, "size": [1, 2, 3]}],
                },
            },
            "required": ["id"],
            "additionalProperties": True,
            "examples": ["Oak/Fir", {"id": "dragon", "tree": ["Oak", "Yew"]}, {"id": "token", "count": 8}],
        },
        "board": {
            "description": "The board components are placed on.",
            "type": ["object", "null"],
            "properties": {
                "kind": {
                    "description": ("The board's geometry: `square-grid` (grows from 0,0, optionally bounded, or "
                                    "fixed with `width` and `height`) or `hex` (a fixed hexagon of hexes in axial "
                                    "coordinates q,r, six neighbours each) or `points` (named or positioned "
                                    "points joined by `links`)."),
                    "enum": ["square-grid", "hex", "points"],
                    "default": "square-grid",
                },
                "width": {
                    "description": ("A square grid with fixed edges: this many columns, x = 0 .. width-1 (give "
                                    "`height` too); a hex board: a rhombus of hexes, q = 0 .. width-1, instead of "
                                    "a hexagon of a `radius`. A number or an option name."),
                    "$ref": "#/$defs/count",
                    "examples": [8],
                },
                "height": {
                    "description": ("A square grid with fixed edges: this many rows, y = 0 .. height-1 (give "
                                    "`width` too); a hex board: a rhombus of hexes, r = 0 .. height-1. A number or "
                                    "an option name."),
                    "$ref": "#/$defs/count",
                    "examples": [8],
                },
                "stacking": {
                    "description": ("Whether pieces may be put on top of others (`stack(cell)` reads them, top "
                                    "first): true/false or an option name."),
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "y_axis": {
                    "description": ("Square grids and boards of points: which way y grows where the board is drawn (terminal and "
                                    "browser): `down` (row 0 at the top) or `up` (row 0 at the bottom, as a rack "
                                    "stands). It changes no rule."),
                    "enum": ["down", "up"],
                    "default": "down",
                },
                "lines_every": {
                    "description": ("Square grids: drawn with a heavier line every this many cells, across and down "
                                    "(3: a 6x6 board's four 3x3 quarters, a 9x9 board's nine boxes), counted from 0. It "
                                    "changes no rule. A number or an option name."),
                    "$ref": "#/$defs/count",
                    "default": 0,
                    "examples": [3],
                },
                "cell_names": {
                    "description": ("Square grids of a fixed size: how cells are written in actions, logs, "
                                    "scenarios and the drawn board's edges. `numbers`: `x,y` (4,1); `algebraic`: "
                                    "columns a, b, c ... from x = 0 (then aa, ab ...), rows 1, 2, 3 ... from y = 0, "
                                    "so (4, 1) is e2. Boards of points: `names` writes each point by its name "
                                    "(`place R at Forest`). `x,y` is still read; code keeps cells as (x, y)."),
                    "enum": ["numbers", "algebraic", "names"],
                    "default": "numbers",
                },
                "thin": {
                    "description": ("Square grids: the columns and rows whose number is `odd` (or `even`) are drawn "
                                    "thin, as the lines between squares; a piece there is drawn as a bar filling "
                                    "its cell, and where a thin column meets a thin row, as a small square. It "
                                    "changes no rule."),
                    "enum": ["none", "odd", "even"],
                    "default": "none",
                },
                "walls": {
                    "description": ("Square grids with edges: walls standing between neighbouring cells, which "
                                    "every notion of touching respects (`neighbours`, `walk`, groups, lines, "
                                    "`move` steps). A list of pairs of cells (`[[a1, a2], [\"1,0\", \"1,1\"]]`), "
                                    "or the board drawn in a text, a cell every 4 columns, `|` and `---` where a "
                                    "wall stands. `walls: []`: none yet; code builds and removes walls in play "
                                    "(`build_wall(a, b)`, `remove_wall(a, b)`)."),
                    "type": ["array", "string"],
                    "items": {"type": "array", "minItems": 2, "maxItems": 2,
                              "items": {"type": ["string", "array"], "items": {"type": "integer"}}},
                },
                "radius": {
                    "description": ("Hex boards: every hex within this distance of 0,0 is on the board (4: 61 "
                                    "hexes). A number or an option name."),
                    "$ref": "#/$defs/count",
                    "default": 4,
                    "examples": [4, "map_radius"],
                },
                "points": {
                    "description": ("Boards of points: each point's name and where it is drawn, `{a1: [0, 0], d1: "
                                    "[3, 0]}` (code reads a name as that cell), or a list of positions `[[0, 0], [3, "
                                    "0]]`. A point is a cell: `c.x`, `c.y`, `at(c)` and scenarios' `\"3,0\"` keep "
                                    "their meaning."),
                    "type": ["object", "array"],
                    "examples": [{"a1": [0, 0], "d1": [3, 0], "g1": [6, 0]}],
                },
                "links": {
                    "description": ("Boards of points: which points touch, as paths: `[[a1, d1, g1], [d1, d2]]` "
                                    "links a1-d1, d1-g1 and d1-d2 (both ways). A point may be named by its name, "
                                    "`\"3,0\"` or `[3, 0]`. Links of several kinds (roads, rails) are a mapping from "
                                    "each kind, a value of a declared type, to its paths: `{Road: [[a, b]], Rail: "
                                    "[[a, b, c]]}`; `neighbours(CELL, KIND)` follows one kind."),
                    "type": ["array", "object"],
                    "items": {"type": "array", "minItems": 2},
                    "additionalProperties": {"type": "array", "items": {"type": "array", "minItems": 2}},
                    "examples": [[["a1", "d1", "g1"], ["d1", "d2"]], {"Road": [["a", "b", "c"]], "Rail": [["a", "c"]]}],
                },
                "max_width": {
                    "description": ("The widest the board may grow (columns); 0 for no limit. A number or an option "
                                    "name."),
                    "$ref": "#/$defs/count",
                    "examples": [7, "board_width"],
                },
                "max_height": {
                    "description": ("The tallest the board may grow (rows); 0 for no limit. A number or an option "
                                    "name."),
                    "$ref": "#/$defs/count",
                    "examples": [7, "board_height"],
                },
                "adjacency": {
                    "description": ("Which cells touch: `orthogonal` (4 neighbours), `diagonal` (4 corners) or "
                                    "`all` (8)."),
                    "enum": ["orthogonal", "diagonal", "all"],
                    "default": "orthogonal",
                },
            },
            "additionalProperties": False,
        },
        "roles": {
            "description": "Roles are the values of a type; seats play them.",
            "type": ["object", "null"],
            "properties": {
                "of": {
                    "description": "The type whose values are the roles.",
                    "type": "string",
                    "examples": ["hue"],
                },
                "shuffle": {
                    "description": ("Deal roles to seats at random: the `seating` row is applied to the roles after "
                                    "the positions of the listed roles are shuffled among themselves. `true` (every "
                                    "role), `false` (none), a list of roles, or a mapping of those by player count "
                                    "with an optional `default`."),
                    "oneOf": [
                        {"$ref": "#/$defs/roleDeal"},
                        {
                            "type": "object",
                            "patternProperties": {
                                "^([1-9][0-9]*|default)$": {
                                    "description": ("The roles dealt at random for this player count (or for every "
                                                    "count not listed: `default`)."),
                                    "$ref": "#/$defs/roleDeal",
                                },
                            },
                            "additionalProperties": False,
                        },
                    ],
                    "default": False,
                    "examples": [
                        True,
                        ["A", "B", "C"],
                        {"default": ["A", "B", "C"], "2": [["A", "C"], ["B", "D"]], "5": True},
                    ],
                },
                "hidden": {
                    "description": ("true when each seat knows only its own roles: observations (what bots and the "
                                    "terminal show) hide the others' roles, and the log names seats instead of "
                                    "roles. Deal the roles at random with `shuffle`, or there is nothing to hide. "
                                    "true/false or an option name."),
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "seating": {
                    "description": ("For each player count, which seat plays each role (in the type's order); "
                                    "`absent` for a role nobody plays. A seat may play several roles. Written, it needs a "
                                    "row for every declared player count; left out, seat 1 plays the first role, "
                                    "seat 2 the second, and so on, the roles past the players absent."),
                    "type": "object",
                    "patternProperties": {
                        "^[1-9][0-9]*$": {
                            "description": "The seats for this player count, one per role, in the type's order.",
                            "type": "array",
                            "items": {
                                "description": "A seat number (1..players) or `absent`.",
                                "type": ["integer", "string"],
                                "minimum": 1,
                                "if": {"type": "string"},
                                "then": {"enum": ["absent"]},
                            },
                        },
                    },
                    "additionalProperties": False,
                    "examples": [{"2": [1, 2, 1, 2], "3": [1, 2, 3, "absent"]}],
                },
            },
            "required": ["of"],
            "additionalProperties": False,
        },
        "counter": {
            "description": ("One counter. `start`, `min` and `max` are whole numbers, option names, or expressions "
                            "of `self` (the owner: a role, a component, or none for a game-wide counter) and, "
                            "with `key`, of `key`."),
            "type": "object",
            "properties": {
                "per": {
                    "description": ("Who has one: `role`, `game` (one value for the whole game), or a component "
                                    "kind (one per component of that kind)."),
                    "type": "string",
                    "default": "game",
                },
                "key": {
                    "description": ("One value per owner and key: a type (its values), a component kind (its "
                                    "components), whole numbers `FROM..TO` (`2..12`) or `cell` (every cell of a board "
                                    "with edges: a mark on a square, `trail((3, 4))`); read and changed as "
                                    "`stock(r, X)`, or `height(7)` for a game-wide one. `start`, `min` and `max` "
                                    "may read `key`. Or two of these, a row and a column of a grid (a "
                                    "roll-and-write sheet's rows and numbers): `key: [colour, 2..12]`, read and "
                                    "changed as `marks(r, X, 7)`."),
                    "type": ["string", "array"],
                    "items": {"type": "string"},
                },
                "start": {
                    "description": "Its value when the game starts, before `setup` runs.",
                    "type": ["integer", "string"],
                    "default": 0,
                },
                "min": {
                    "description": "The lowest it can go: a change below it stops there (do as much as you can).",
                    "type": ["integer", "string"],
                },
                "max": {
                    "description": "The highest it can go: a change above it stops there.",
                    "type": ["integer", "string"],
                },
                "doc": {"description": "What it means, in English (shown by `rulecraft explain`).", "type": "string"},
                "shown": {
                    "description": ("Whether `play` draws it with the board and the log notes its changes (default "
                                    "true); false for bookkeeping the players never look at, such as a flag a step sets."),
                    "type": "boolean",
                    "default": True,
                },
            },
            "additionalProperties": False,
        },
        "roleDeal": {
            "description": ("Which roles are dealt at random: true (all), false (none), a list of roles, or a list "
                            "of groups of roles dealt as one (groups of one size: a group takes the positions of "
                            "another group, its roles in order)."),
            "oneOf": [
                {"type": "boolean"},
                {"type": "array", "items": {"type": "string", "description": "A role (a value of the roles' type)."}},
                {
                    "type": "array",
                    "items": {
                        "type": "array",
                        "minItems": 1,
                        "items": {"type": "string", "description": "A role (a value of the roles' type)."},
                        "description": "Roles dealt together, like one seat's two roles.",
                    },
                },
            ],
        },
        "zone": {
            "description": "A zone: a pile (like a deck) or a hand, shared or one per role, and what is hidden.",
            "type": "object",
            "properties": {
                "kind": {
                    "description": "`pile` (ordered, drawn from the top) or `hand`.",
                    "enum": ["pile", "hand"],
                    "default": "pile",
                },
                "per": {
                    "description": "`role` for one zone per role (`hand(Oak)`), `shared` for a single zone.",
                    "enum": ["role", "shared"],
                    "default": "shared",
                },
                "key": {
                    "description": ("One zone per key: a type (one per value: `tray: {key: hue}`, `tray(X)`), a "
                                    "component kind (one per component: `under: {key: tile}`, `under(t)`), whole "
                                    "numbers `FROM..TO` (`column: {key: 1..7}`, `column(3)`) or `{from: FROM, to: "
                                    "TO}`, whose ends may be options. The name alone, `column`, is the list of them "
                                    "all. With `per: role`, one per role and key: `row(r, X)`, `row(r)` the role's."),
                    "type": ["string", "object"],
                    "properties": {
                        "from": {"description": "The first number.", "type": ["integer", "string"]},
                        "to": {"description": "The last number.", "type": ["integer", "string"]},
                    },
                    "required": ["from", "to"],
                    "additionalProperties": False,
                    "examples": ["colour", "1..7", {"from": 1, "to": "columns"}],
                },
                "hidden": {
                    "description": ("What players cannot see: `none`, `others` (only the owner sees it), `order` (a "
                                    "face-down pile: others see only how many; the owner of a per-role one sees its "
                                    "contents but not their order), `all` (nobody sees it), `owner` (a per-role "
                                    "zone every seat sees but its owner's: a hand held facing away)."),
                    "enum": ["none", "others", "order", "all", "owner"],
                    "default": "none",
                },
                "refill": {
                    "description": ("A pile drawn from that runs short is refilled from this zone (the same role's, "
                                    "or a shared one): `move(x in deck(r), hand(r), 5)` finding 3 cards shuffles "
                                    "the discard pile under them first, as a deck-builder's discard becomes a new "
                                    "deck."),
                    "type": "string",
                    "examples": ["discard"],
                },
                "owner_known": {
                    "description": ("For a hidden per-role zone: a condition on `self` naming the components "
                                    "everyone knows stay with that role (though not where among its hidden zones), "
                                    "e.g. `not self.special`. Bots sampling what they can't see keep them with "
                                    "their owner."),
                    "$ref": "#/$defs/condition",
                },
                "show": {
                    "description": ("Attributes `rulecraft play` shows beside each component of the zone (with its "
                                    "counters), e.g. a recipe's pattern and cost."),
                    "type": "array",
                    "items": {"type": "string"},
                    "examples": [["pattern", "cost"]],
                },
                "shown": {
                    "description": ("`false`: `rulecraft play` and the web page do not draw the zone while it is "
                                    "empty — a zone for the rules' own use that holds things only in the middle of "
                                    "an effect (a hand on its way to the next player). Drawn like any other while "
                                    "it holds something."),
                    "type": "boolean",
                    "default": True,
                },
                "doc": {"description": "What it is, in English (shown by `rulecraft explain`).", "type": "string"},
            },
            "additionalProperties": False,
        },
        "setup": {
            "description": ("One setup program for every player count, or a mapping from `default` and/or player "
                            "counts to programs. A program may be a list of named parts (`{name: deal, do: PROGRAM}`), "
                            "run in order, which a file extending the ruleset can change one by one (`setup+: {after: "
                            "deal, add: [...]}`, `setup-: [deal]`)."),
            "type": ["string", "array", "object", "null"],
            "items": {"$ref": "#/$defs/setupPart"},
            "properties": {
                "default": {
                    "description": "The setup for every player count without its own entry.",
                    "$ref": "#/$defs/setupProgram",
                },
            },
            "patternProperties": {
                "^[1-9][0-9]*$": {"description": "The setup for this player count.", "$ref": "#/$defs/setupProgram"},
            },
            "additionalProperties": False,
            "examples": ["move(c in cards, deck)\nshuffle(deck)\n"],
        },
        "setupProgram": {
            "description": "A setup program, or a list of named parts run in order.",
            "type": ["string", "array"],
            "items": {"$ref": "#/$defs/setupPart"},
        },
        "setupPart": {
            "description": ("A named part of a setup program: `{name: deal, do: PROGRAM}`; a file extending the ruleset "
                            "can put parts after, before or instead of it by name."),
            "type": "object",
            "properties": {
                "name": {"description": "The part's name, unique in the setup.", "type": "string", "examples": ["deal"]},
                "do": {"description": "The part's program.", "$ref": "#/$defs/program"},
            },
            "required": ["do"],
            "additionalProperties": False,
        },
        "step": {
            "description": ("One turn step: a single `kind: {settings}` pair, and an optional `name` (unique in the "
                            "turn) by which a file extending the ruleset can put steps after, before or instead of it "
                            "(`turn+: {after: NAME, add: [...]}`) or remove it (`turn-: [NAME]`)."),
            "type": "object",
            "additionalProperties": False,
            "minProperties": 1,
            "properties": {
                "name": {"description": "The step's name, unique in the turn (phases' names included).", "type": "string",
                         "examples": ["roll"]},
                "refuse_if_after": {
                    "description": ("A condition on the position after an action of this step (its effect finished, "
                                    "its later choices tried every way) that refuses the action: it is not listed, and "
                                    "typing it is refused with the rule. `actor` is the role who acted; on a `place` "
                                    "step, `placed` is the piece placed (none for a pass). Either the "
                                    "condition, or `{when: CONDITION, because: \"the rule in words\"}`."),
                    "anyOf": [
                        {"$ref": "#/$defs/condition"},
                        {
                            "type": "object",
                            "properties": {
                                "when": {"description": "The condition that refuses the action.",
                                         "$ref": "#/$defs/condition"},
                                "because": {"description": "The rule in the game's words, given when an action is "
                                                           "refused.", "type": "string"},
                            },
                            "required": ["when"],
                            "additionalProperties": False,
                        },
                    ],
                    "examples": ["in_check(actor)"],
                },
            },
        },
        "phase": {
            "description": ("A phase of the turn (opening, action, closing ...): a name and its steps, done in "
                            "order. `explain` groups the steps by phase."),
            "type": "object",
            "properties": {
                "phase": {"description": "The phase's name.", "type": "string", "examples": ["opening", "closing"]},
                "steps": {
                    "description": "The phase's steps, each one `kind: {settings}` pair.",
                    "type": "array",
                    "minItems": 1,
                    "items": {"$ref": "#/$defs/step"},
                },
            },
            "required": ["phase", "steps"],
            "additionalProperties": False,
        },
        "end": {
            "description": ("`end: {when: CONDITION}`: the game ends after the turn in which the condition becomes "
                            "true."),
            "type": "object",
            "properties": {
                "when": {"description": "The condition that ends the game.", "$ref": "#/$defs/condition"},
                "max_turns": {
                    "description": "A safety limit on the number of turns (a number or an option name).",
                    "$ref": "#/$defs/count",
                    "default": 1000,
                },
                "stalled": {
                    "description": ("Also end the game once a whole round of turns goes by without any decision "
                                    "(every player in turn could only pass). Off by default: the game ends only by "
                                    "`when` or `max_turns`."),
                    "type": "boolean",
                    "default": False,
                },
                "no_move": {
                    "description": ("What happens when the player to move has no legal action at the first decision "
                                    "of their turn (a `choose` with nothing to choose, a `move` or `place` step with "
                                    "nothing to do, every action refused by `refuse_if_after`): the player `loses`, "
                                    "the game is a `draw`, or the player `passes` (the turn ends). Left out: the "
                                    "step goes on as it always does."),
                    "enum": ["loses", "draw", "passes"],
                },
            },
            "required": ["when"],
            "additionalProperties": False,
        },
        "scoring": {
            "description": "Rank items by keys; pay points by rank to each item's owner.",
            "type": ["object", "null"],
            "properties": {
                "players": {
                    "description": "The player counts this outcome is for (all declared counts if left out).",
                    "$ref": "#/$defs/playerCounts",
                },
                "rank": {
                    "description": ("What is ranked: a selection like `e in roles`; its variable is visible in `by` "
                                    "and `to`."),
                    "$ref": "#/$defs/expression",
                    "examples": ["e in roles"],
                },
                "by": {
                    "description": "The ranking keys (numbers, higher first); later keys break ties of earlier ones.",
                    "type": "array",
                    "items": {"description": "A number computed for each ranked item.", "$ref": "#/$defs/expression"},
                    "examples": [["count(c in board where c.hue == h)"]],
                },
                "points": {
                    "description": ("Points paid by rank (1st, 2nd, ...): a list of numbers or an option name; or "
                                    "`key`: each item scores its first key (equal keys score alike)."),
                    "$ref": "#/$defs/numbers",
                    "examples": [[4, 3, 2, 1], "key"],
                },
                "to": {
                    "description": ("Who receives a ranked item's points (its owner); the ranked item itself if "
                                    "left out."),
                    "$ref": "#/$defs/expression",
                    "examples": ["e"],
                },
                "winners": {
                    "description": ("Who wins: `most-points` (the default), the seats with the most points; "
                                    "`first-ranked`, the seats of the items ranked first on every key, so the later "
                                    "keys break ties of the first for the win too (with `points: key`); or "
                                    "`together`, the seats with the most points win together as one side, not in a "
                                    "draw (sides dealt in secret, each player scoring their side's result)."),
                    "enum": ["most-points", "first-ranked", "together"],
                },
                "nobody_wins": {
                    "description": ("A condition checked at the end: when it holds, no seat wins, whatever the "
                                    "ranking (every accusation was wrong, nobody reached the finish); the game is "
                                    "lost by all, not drawn."),
                    "$ref": "#/$defs/condition",
                    "examples": ["all(has_left(r) for r in roles where seated(r))"],
                },
            },
            "required": ["rank"],
            "additionalProperties": False,
        },
        "goals": {
            "description": "Goals: the players win when any of them holds at the end.",
            "type": ["object", "null"],
            "properties": {
                "players": {
                    "description": "The player counts this outcome is for (all declared counts if left out).",
                    "$ref": "#/$defs/playerCounts",
                },
                "any_of": {
                    "description": "Named goals; achieving any one of them wins.",
                    "type": "object",
                    "additionalProperties": {"$ref": "#/$defs/goal"},
                },
            },
            "required": ["any_of"],
            "additionalProperties": False,
        },
        "goal": {
            "description": "One goal: a text for people and a condition checked at the end.",
            "type": "object",
            "properties": {
                "text": {"description": "The goal in words, as the rulebook says it.", "type": "string"},
                "when": {
                    "description": "The condition that achieves the goal, checked at the end of the game.",
                    "$ref": "#/$defs/condition",
                },
            },
            "required": ["when"],
            "additionalProperties": False,
        },
        "variant": {
            "description": ("A variant: a description plus any changes to the ruleset (merged on top, with `key+` / "
                            "`key-`). The result of applying it is checked like any ruleset."),
            "type": ["object", "null"],
            "properties": {
                "description": {
                    "description": "What the variant changes, for people (`rulecraft explain`, `rulecraft list`).",
                    "type": "string",
                },
                "requires": {"description": "Variants switched on first, before this one.", "$ref": "#/$defs/names"},
                "conflicts": {"description": "Variants this one may not be combined with.", "$ref": "#/$defs/names"},
            },
            "additionalProperties": True,
        },
    },
}
