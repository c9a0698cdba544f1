"""JSON Schema checks for rulesets and scenario files, with positioned errors.

The ruleset schema (draft 2020-12) is assembled from the core's keys
(:mod:`engine.compiling.core_keys`) and each block's fragment
(:class:`engine.blocks.block.Block`); ``schemas/`` holds it, and the
fragment schema derived from it, as generated files for editors, which use
them through the ``# yaml-language-server: $schema=...`` line at the top of
each file (``rulecraft schema > schemas/ruleset.schema.json`` writes it
again).  Every schema violation becomes a diagnostic at the offending node's
``file:line:col``.

A file another ruleset includes (a folder of cards, a file of statuses ...) holds only
part of a ruleset; its schema, ``fragment.schema.json``, is the ruleset schema
with nothing required and ``key+`` / ``key-`` allowed at every level (see
:func:`fragment_schema`).

>>> sorted(SCHEMAS)
['fragment', 'ruleset', 'scenario']
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from engine.compiling.quick_items import QuickValidator
from engine.core.errors import Diagnostic, RulesetError, did_you_mean, source_lines
from engine.core.paths import schemas_dir
from engine.core.showtext import CUT_AT, cut
from engine.core.yamlsource import Mapping, plain, walk_path, yaml_text

SCHEMAS = {"ruleset": "ruleset.schema.json", "scenario": "scenario.schema.json", "fragment": "fragment.schema.json"}



def schema_text(kind: str) -> str:
    """The schema's text (``rulecraft schema`` prints it): generated for rulesets and fragments, read for scenarios.

    It is made again when a block has been declared since (a plug-in's keys are then known).
    """
    from engine.blocks.catalogue import all_blocks

    return _schema_text(kind, tuple(all_blocks()))


@lru_cache(maxsize=None)
def _schema_text(kind: str, blocks: tuple[str, ...]) -> str:
    """The schema's text with the blocks named ``blocks`` declared."""
    if kind == "ruleset":
        return as_text(ruleset_schema())
    if kind == "fragment":
        return as_text(fragment_schema(ruleset_schema()))
    return (schemas_dir() / SCHEMAS[kind]).read_text(encoding="utf-8")


def as_text(schema: dict[str, Any]) -> str:
    """A generated schema as the text of its file in ``schemas/``."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def ruleset_schema() -> dict[str, Any]:
    """The ruleset JSON Schema: the core's keys, then each block's keys, step kinds and definitions, blocks by name.

    >>> schema = ruleset_schema()
    >>> "meter" in schema["properties"], "draw" in schema["$defs"]["step"]["properties"]
    (True, True)
    """
    from engine.blocks.catalogue import all_blocks
    from engine.compiling.core_keys import CORE_SCHEMA

    schema = copy.deepcopy(CORE_SCHEMA)
    steps = schema["$defs"]["step"]["properties"]
    for block in all_blocks().values():
        for part, into in ((block.keys, schema["properties"]), (block.steps, steps), (block.defs, schema["$defs"])):
            taken = part.keys() & into.keys()
            assert not taken, f"block '{block.name}' declares {', '.join(sorted(taken))} again"
            into.update(copy.deepcopy(part))
    return schema


def _validator(kind: str) -> Draft202012Validator:
    return _validator_of(schema_text(kind))


@lru_cache(maxsize=None)
def _validator_of(text: str) -> Draft202012Validator:
    return QuickValidator(json.loads(text))  # type: ignore[no-any-return]  # Draft 2020-12, quicker for long lists


def schema_errors(tree: Any, kind: str) -> list[Diagnostic]:
    """Every schema violation in ``tree`` as a positioned diagnostic."""
    out = []
    validator = _validator(kind)
    base_misspelt = _misspells_a_base(tree, validator.schema.get("properties") or {})
    for err in sorted(validator.iter_errors(tree), key=lambda e: list(map(str, e.absolute_path))):
        if base_misspelt and err.validator == "required" and not err.absolute_path:
            continue  # the sections it lacks would come from the base it fails to name
        if err.validator == "required" and _misspelt_beside(err, validator.schema):
            continue  # the unknown key's own message says which key it misspells
        out += [_diagnostic(tree, sub, validator.schema, validator) for sub in _expand(err)]
    return out


def _misspells_a_base(tree: Any, known: Any) -> bool:
    """Whether a top-level key is an unknown near miss of ``extends`` or ``include`` (``extend: base``).

    >>> _misspells_a_base({"name": "x", "extend": "base"}, {"name": {}, "extends": {}}), _misspells_a_base({"end": {}}, {})
    (True, False)
    """
    keys = [str(k) for k in tree if k not in known] if isinstance(tree, dict) else []
    return any(difflib.get_close_matches(k, ["extends", "include"], n=1, cutoff=0.8) for k in keys)


def _misspelt_beside(err: ValidationError, root: dict[str, Any]) -> bool:
    """Whether every key a ``required`` error misses is what an unknown key beside it misspells (``defualt: 3`` for
    ``default``), so that the unknown key's "did you mean" says it all.  A key the whole file requires (``players``)
    is known among the ``root`` schema's properties.

    >>> from jsonschema import Draft202012Validator
    >>> schema = {"required": ["default"], "properties": {"default": {}, "doc": {}}, "additionalProperties": False}
    >>> [_misspelt_beside(e, schema) for e in Draft202012Validator(schema).iter_errors({"defualt": 3}) if e.validator == "required"]
    [True]
    >>> [_misspelt_beside(e, schema) for e in Draft202012Validator(schema).iter_errors({"doc": "x"}) if e.validator == "required"]
    [False]
    """
    known = (err.schema.get("properties") or {}) if isinstance(err.schema, dict) else {}
    if not known and not err.absolute_path:  # required by a condition on the whole file
        known = root.get("properties") or {}
    if not isinstance(err.instance, dict) or not known:
        return False
    unknown = [str(key) for key in err.instance if key not in known]
    missing = [key for key in err.validator_value if key not in err.instance]
    if err.absolute_path and _stands_for(err.schema, err.instance) is not None:
        return True  # one unknown key where one required key is missing: its message names the key
    return bool(missing) and all(any(did_you_mean(key, known) == f"did you mean '{name}'?" for key in unknown)
                                 for name in missing)


def check_schema(tree: Any, kind: str) -> None:
    """Raise RulesetError listing every schema violation."""
    found = schema_errors(tree, kind)
    if found:
        raise RulesetError(found)


def fragment_schema(ruleset: dict[str, Any]) -> dict[str, Any]:
    """The schema of an included file, derived from the ruleset schema ``ruleset``.

    A fragment goes on top of the ruleset that includes it, so any part of it
    may be partial: every ``required`` goes (except inside an ``if``, where it
    tells kinds apart), the top-level "name, players ... are required" rule
    goes, and every closed mapping also accepts ``key+`` / ``key-`` lists for
    each of its own keys.
    ``schemas/fragment.schema.json`` is this function's result.

    >>> loose = fragment_schema({"$id": "ruleset.schema.json", "type": "object", "required": ["name"],
    ...                          "properties": {"name": {}, "goals": {}}, "additionalProperties": False})
    >>> "required" in loose, list(loose["patternProperties"])
    (False, ['^(name|goals)[+-]$'])
    """
    top = {k: v for k, v in ruleset.items() if k not in ("if", "then", "else")}
    top.update({
        "$id": ruleset["$id"].replace(SCHEMAS["ruleset"], SCHEMAS["fragment"]),
        "title": "Rulecraft ruleset fragment",
        "description": "A file that a ruleset includes (`include: [cards/, rules.yaml]`): any part of a "
                       "ruleset, merged onto the including file, so nothing is required here. `rulecraft validate` "
                       "checks the ruleset that includes it. Start the file with "
                       "`# yaml-language-server: $schema=<path to this file>`.",
    })
    return _loosened(top)


def _loosened(node: Any) -> Any:
    """``node`` with ``required`` dropped (outside ``if``) and merge keys allowed in closed mappings."""
    if isinstance(node, list):
        return [_loosened(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: (value if key == "if" else _loosened(value)) for key, value in node.items() if key != "required"}
    names = [re.escape(name) for name in out.get("properties", {})]
    if out.get("additionalProperties") is False and names:
        merge = {"type": ["array", "object"], "description": "Appends to (+) or removes from (-) the list or mapping of that "
                 "name; `+` with a mapping merges into the mapping, or puts items by name: `{after: NAME, add: [...]}`, "
                 "or merges into one: `{merge: NAME, with: {...}}`."}
        out["patternProperties"] = {**out.get("patternProperties", {}), f"^({'|'.join(names)})[+-]$": merge}
    return out


def _expand(err: ValidationError) -> list[ValidationError]:
    """An ``anyOf`` of a text or a mapping (say) fails as the form of the value's own kind: those errors, else itself."""
    if err.validator != "anyOf":
        return [err]
    own = [e for e in err.context or () if not (e.validator == "type" and len(e.schema_path) == 2)]
    return [sub for e in own for sub in _expand(e)] or [err]


def _diagnostic(tree: Any, err: ValidationError, root: dict[str, Any] | None = None,
                validator: Draft202012Validator | None = None) -> Diagnostic:
    path = list(err.absolute_path)
    pos = walk_path(tree, path)
    where = "/".join(map(str, path)) or "the top level"
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        found = _unknown_key(err, where, pos)
        outside = (_one_level_out(tree, path, str(_first_unknown(err)), validator)
                   if validator is not None and found.hint is not None and found.hint.startswith("known keys") else None)
        return Diagnostic(found.pos, found.message, outside) if outside else found
    if err.validator == "dependentRequired" and isinstance(err.instance, dict):
        key, needed = next((k, [d for d in deps if d not in err.instance]) for k, deps in err.validator_value.items()
                           if k in err.instance and any(d not in err.instance for d in deps))
        return Diagnostic(pos, f"{where}: '{key}' needs {' and '.join(repr(d) for d in needed)} beside it")
    if err.validator == "enum" and isinstance(err.instance, str):
        allowed = [str(v) for v in err.validator_value]
        holder = _then_holder(err, root)
        if len(allowed) == 1 and holder is not None:  # a seat number or `absent`: not "'one' is not one of absent"
            kinds = [k for k in holder["type"] if k not in ("string", "null")]
            return Diagnostic(pos, f"{where}: '{cut(err.instance)}' is not {_kinds([*kinds, repr(allowed[0])])}",
                              did_you_mean(err.instance, allowed) or _described_by(path[-1], holder))
        seats = "role" in allowed and err.instance.lower() in ("player", "players", "seat", "seats")
        return Diagnostic(pos, f"{where}: '{cut(err.instance)}' is not one of {', '.join(allowed)}",
                          "each seat plays a role: write 'role'" if seats else did_you_mean(err.instance, allowed))
    if err.validator == "enum":  # a value of another kind than the words allowed (hidden: true)
        allowed = [_shown(v) if not isinstance(v, str) else v for v in err.validator_value]
        word = _word_at(pos) if isinstance(err.instance, bool) else None
        hint = f"YAML reads {word} as {_shown(err.instance)}" if word and word.lower() not in ("true", "false") else None
        if isinstance(err.instance, bool) and "none" in allowed:  # hidden: false / true
            others = [a for a in allowed if a != "none"]
            hint = (f"{hint}; " if hint else "") + (f"for {_shown(err.instance)} write " + (
                "none" if not err.instance else f"one of {', '.join(others)}"))
        return Diagnostic(pos, f"{where}: {_shown(err.instance)} is not one of {', '.join(allowed)}",
                          "; ".join(filter(None, [hint, _described(err)])) or None)
    if err.validator == "type":
        return Diagnostic(pos, f"{where}: {_shown(err.instance)} is not {_kinds(err.validator_value)}",
                          _read_as_boolean(err, pos) or _split_cell(err.instance, err.validator_value, pos)
                          or _cut_at_colon(err.instance, err.validator_value, pos)
                          or _code_read_as_a_list(err.instance, err.validator_value)
                          or _items_without_commas(err.instance, err.validator_value, path)
                          or _range_written(err.instance, err.validator_value, path)
                          or _one_in_a_list(err, path, _described(err)))
    if err.validator == "const":  # jsonschema says "True was expected", in Python's words
        key = err.absolute_path[-1] if err.absolute_path else "it"
        return Diagnostic(pos, f"{where}: {_shown(err.instance)} is not allowed: the only value is "
                               f"{_shown(err.validator_value)} (leave '{key}' out otherwise)")
    if err.validator == "required":
        missing = next((key for key in err.validator_value if isinstance(err.instance, dict) and key not in err.instance
                        and err.message.startswith(repr(key))), None)  # one error per key missing: this one's
        wanted = (err.schema.get("properties") or {}).get(missing) if isinstance(err.schema, dict) else None
        if wanted is None and not err.absolute_path and root is not None:  # required by a condition on the whole file
            wanted = (root.get("properties") or {}).get(missing)
        hint = _described_by(missing, wanted) if missing is not None and isinstance(wanted, dict) else None
        return Diagnostic(pos, f"{where}: {_cut_value(err)}", hint)
    kinds = _branch_kinds(err)
    if kinds:  # no form fits the value's own kind: say which kinds do, and what the first form that says so is for
        form = next((f for f in err.validator_value if isinstance(f, dict) and "description" in f), None)
        return Diagnostic(pos, f"{where}: {_shown(err.instance)} is not {_kinds(kinds)}",
                          _split_cell(err.instance, kinds, pos) or _cut_at_colon(err.instance, kinds, pos)
                          or _code_read_as_a_list(err.instance, kinds)
                          or (_described_by(path[-1], form) if form is not None and path else None))
    return Diagnostic(pos, f"{where}: {_cut_value(err)}")


_KINDS = {"array": "a list (like [a, b])", "object": "a mapping (like {key: value})", "string": "a text",
          "integer": "a whole number", "number": "a number", "boolean": "true/false", "null": "empty"}


def _then_holder(err: ValidationError, root: dict[str, Any] | None) -> dict[str, Any] | None:
    """The schema whose ``if: {type: string}, then: {enum: [...]}`` ``err`` broke, when it allows other kinds too (a
    seat is a whole number, or the text `absent`); else None."""
    where = list(err.absolute_schema_path)
    if root is None or where[-2:] != ["then", "enum"]:
        return None
    node: Any = root
    for step in where[:-2]:
        try:
            node = _resolved(root, node[step]) if step != "$ref" else _resolved(root, node)
        except (KeyError, IndexError, TypeError):
            return None
    kinds = node.get("type") if isinstance(node, dict) else None
    return node if isinstance(kinds, list) and any(k not in ("string", "null") for k in kinds) else None


def _resolved(root: dict[str, Any], node: Any) -> Any:
    """``node``, or the schema its local ``$ref`` (``#/$defs/seat``) names.

    >>> _resolved({"$defs": {"a": {"type": "integer"}}}, {"$ref": "#/$defs/a"})
    {'type': 'integer'}
    """
    ref = node.get("$ref") if isinstance(node, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return node
    for part in ref[2:].split("/"):
        root = root[part]
    return root


def _branch_kinds(err: ValidationError) -> list[str]:
    """The kinds an ``anyOf`` allows, when the value is none of them (every form failed on its type); else []."""
    if err.validator != "anyOf" or not err.context:
        return []
    kinds: list[str] = []
    for sub in err.context:
        if sub.validator != "type" or len(sub.schema_path) != 2:
            return []
        expected = sub.validator_value
        kinds += [k for k in ([expected] if isinstance(expected, str) else expected) if k not in kinds]
    return kinds


def _kinds(expected: str | list[str]) -> str:
    """JSON Schema's type names in a YAML writer's words.

    >>> _kinds("array"), _kinds(["integer", "string"]), _kinds(["string", "integer", "boolean"])
    ('a list (like [a, b])', 'a whole number or a text', 'a text, a whole number or true/false')
    """
    words = [_KINDS.get(name, name) for name in ([expected] if isinstance(expected, str) else expected)]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _shown(value: Any) -> str:
    """A value as YAML writes it, cut when long (``'xxx...' (4,194,304 characters)``).

    >>> _shown(True), _shown("four"), _shown([1, 2]), _shown(None), _shown({"do": {"effect": "pass " * 20}})
    ('true', "'four'", '[1, 2]', 'null', '{do: ...}')
    >>> _shown(["count(c in board)", "yes"]), _shown({"2": [1, "absent"]})
    ("[count(c in board), 'yes']", '{2: [1, absent]}')
    """
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str) and len(value) > CUT_AT:
        return f"{repr(value[:CUT_AT])[:-1]}...' ({len(value):,} characters)"
    if isinstance(value, dict):  # as YAML writes it; a long one by its keys ({do: ...})
        written = yaml_text(_as_written(plain(value)))
        return written if len(written) <= 80 and "\n" not in written else cut("{" + ", ".join(f"{yaml_text(str(k))}: ..." for k in value) + "}")
    if isinstance(value, list):  # as YAML writes it ([a, 'yes']), not as Python does (['a', 'yes'])
        written = yaml_text(_as_written(plain(value)))
        if "\n" not in written:
            return cut(written)
    return cut(repr(plain(value)))


def _as_written(value: Any) -> Any:
    """A value with its keys written in digits made numbers again, as a ruleset writes them (``2: [1, 2]``): a
    schema's examples (JSON) and :func:`plain` make every key a text.

    >>> _as_written({"2": [1, 2], "3": [{"4": 1}]})
    {2: [1, 2], 3: [{4: 1}]}
    """
    if isinstance(value, dict):
        return {int(k) if isinstance(k, str) and k.isdecimal() else k: _as_written(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_written(item) for item in value]
    return value


def _cut_value(err: ValidationError) -> str:
    """jsonschema's message, with a long offending value cut (``'xxx...' (4,194,304 characters)``)."""
    written = repr(err.instance)
    if len(written) <= CUT_AT or written not in err.message:
        return cut(err.message, 4 * CUT_AT)
    if isinstance(err.instance, str):
        shortened = f"{repr(err.instance[:CUT_AT])[:-1]}...' ({len(err.instance):,} characters)"
    else:
        shortened = cut(written)
    return err.message.replace(written, shortened)


_INSIDE = {"effect": "do"}
"""Keys written one level too high, and the key they belong in (a turn step's ``- effect: ...`` for ``- do: {effect: ...}``)."""


def _condition_inside(key: Any, instance: Any, allowed: list[str]) -> str | None:
    """For a step's ``if:`` written beside its kind (``- {name: discard, if: ..., do: {...}}``), where it goes: in the
    step's settings, as its kind is written there; else None.

    >>> _condition_inside("if", {"name": "x", "if": "turn > 1", "do": {}}, ["name", "refuse_if_after", "do", "place"])
    "a step's 'if' goes in its settings: do: {if: CONDITION, ...} (beside 'name' only 'refuse_if_after' is written)"
    """
    if str(key) != "if" or "refuse_if_after" not in allowed or not isinstance(instance, dict):
        return None
    kinds = [k for k in instance if k in allowed and k not in ("name", "refuse_if_after")]
    if len(kinds) != 1:
        return None
    return (f"a step's 'if' goes in its settings: {kinds[0]}: {{if: CONDITION, ...}} (beside 'name' only "
            "'refuse_if_after' is written)")


def _first_unknown(err: ValidationError) -> Any:
    """The first key of the mapping that neither a property nor a key pattern of its schema allows."""
    allowed = list((err.schema.get("properties") or {}).keys())
    patterns = list((err.schema.get("patternProperties") or {}).keys())
    extra = [k for k in err.instance if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]
    return extra[0] if extra else next(iter(err.instance), "?")


def _unknown_key(err: ValidationError, where: str, pos: Any) -> Diagnostic:
    """The first key that neither a property nor a key pattern allows, with a hint."""
    allowed = list((err.schema.get("properties") or {}).keys())
    patterns = list((err.schema.get("patternProperties") or {}).keys())
    key = _first_unknown(err)
    if isinstance(err.instance, Mapping):
        pos = err.instance.key_pos.get(key, pos)
    hint = did_you_mean(str(key), allowed)
    if str(key) in ("all_of", "all") and "any_of" in allowed:  # not a spelling of any_of: another meaning
        hint = ("there is only 'any_of' (any of its conditions holding is enough); for all of them, write one "
                "condition joined with 'and' under any_of")
    if str(key) == "if" and set(allowed) == {"phase", "steps"}:  # a phase played only sometimes
        hint = ("a phase holds no 'if' of its own: give each of its steps the condition (- do: {if: ..., effect: "
                "...}), read when that step's turn comes")
    if hint is None and _INSIDE.get(str(key)) in allowed:
        hint = f"'{key}' goes inside '{_INSIDE[str(key)]}': {_INSIDE[str(key)]}: {{{key}: ...}}"
    if hint is None:
        hint = _condition_inside(key, err.instance, allowed)
    if (hint is None and (" " in str(key) or re.fullmatch(r"-?\d+", str(key)) or _after_words(err.instance, key))
            and isinstance(err.instance, Mapping) and err.instance.get(key, "") is None
            and _after_a_comma(pos)):  # the rest of a text cut at a comma: words with no value, a number (a cell's
        # y: '{action: place X at 5,5}'), or a word after a value of words ('{doc: the card picked, revealed}')
        hint = "YAML ended the value before it at a comma inside {...}: put that value in quotes"
    if hint is None and _action_read_as_a_mapping(where, err.instance, key):
        hint = f"an action holding ': ' is read as a mapping: quote it, - \"{key}: {err.instance[key]}\""
    if hint is None and _reads_as_code(str(key)) and where != "the top level":
        section = where.split("/")[-1]
        hint = (f"this is a line of code: a program goes after '|' ({section}: |), its lines indented under it")
    if hint is None:
        known = allowed + [_pattern_words(p) for p in patterns]
        hint = f"known keys: {', '.join(known)}" if known else None
        missing = _stands_for(err.schema, err.instance)
        if hint is not None and missing is not None:  # no "belongs one level out": the key is needed here
            wanted = (err.schema.get("properties") or {}).get(missing)
            said = _described_by(missing, wanted) if isinstance(wanted, dict) else None
            what = f" ({said.removeprefix(f'{missing}: ')})" if said else ""
            hint = f"{where} needs '{missing}'{what}: write '{missing}:' in place of '{key}:'; {hint}"
    return Diagnostic(pos, f"unknown key '{key}' in {where}", hint)


def _action_read_as_a_mapping(where: str, instance: Any, key: Any) -> bool:
    """Whether a scenario's step is an action whose text holds ': ' (``- side: Name 1 Move``), which YAML read as
    a mapping of one key to a text.

    >>> _action_read_as_a_mapping("actions/0", {"side": "Name 1 Move"}, "side")
    True
    >>> _action_read_as_a_mapping("actions/0", {"action": "x", "expct": "y"}, "expct")
    False
    """
    return (re.fullmatch(r"actions/\d+", where) is not None and isinstance(instance, dict) and len(instance) == 1
            and isinstance(instance.get(key), str))


def _stands_for(schema: Any, instance: Any) -> str | None:
    """The one required key a mapping lacks when it has one unknown key, which must then stand for it (``end: {if:
    ...}`` for ``when``); else None.

    >>> schema = {"required": ["when"], "properties": {"when": {}, "stalled": {}}}
    >>> _stands_for(schema, {"if": "x", "stalled": True}), _stands_for(schema, {"if": "x", "else": "y"})
    ('when', None)
    """
    if not isinstance(schema, dict) or not isinstance(instance, dict):
        return None
    allowed = schema.get("properties") or {}
    patterns = list((schema.get("patternProperties") or {}).keys())
    unknown = [k for k in instance if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]
    missing = [k for k in schema.get("required") or () if k not in instance]
    return missing[0] if len(missing) == 1 and len(unknown) == 1 and missing[0] in allowed else None


def _reads_as_code(key: str) -> bool:
    """Whether a key is a line of effect code that YAML read as a key (``for r in roles:`` under ``setup:``
    written without ``|``).

    >>> _reads_as_code("for r in roles"), _reads_as_code("if turn == 1"), _reads_as_code("max_turns")
    (True, True, False)
    """
    return bool(re.match(r"(for|if|elif|else|while|repeat|let)\b\s*\S", key) or re.match(r"\w+\(.*\)$", key))


def _one_level_out(tree: Any, path: list[Any], key: str, validator: Draft202012Validator) -> str | None:
    """A hint when ``key``, unknown where it is written, is allowed in the mapping around it (a step's ``name``
    written inside its ``do:`` instead of beside it): the file is checked again with the key moved out.

    >>> v = Draft202012Validator({"properties": {"name": {}, "do": {"properties": {"if": {}},
    ...                           "additionalProperties": False}}, "additionalProperties": False})
    >>> _one_level_out({"do": {"name": "x"}}, ["do"], "name", v)
    "'name' belongs one level out: write it beside 'do:', not inside it"
    >>> _one_level_out({"do": {"nam": "x"}}, ["do"], "nam", v) is None
    True
    """
    if not path or not isinstance(path[-1], str):
        return None
    moved = plain(tree)
    parent = moved
    for step in path[:-1]:
        parent = parent[step]
    inner = parent.get(path[-1]) if isinstance(parent, dict) else None
    if not isinstance(inner, dict) or key not in inner or key in parent:
        return None
    around, value = path[:-1], inner.pop(key)

    def fits(name: str) -> bool:
        """Whether the file has no problem in or under the mapping around, with ``name: value`` written in it."""
        parent[name] = value
        try:
            return not any(list(err.absolute_path)[:len(around)] == around for err in validator.iter_errors(moved))
        finally:
            del parent[name]

    if not fits(key) or fits(key + "\u0000"):
        return None  # still wrong out there, or any name fits there (options, say): no advice
    return f"'{key}' belongs one level out: write it beside '{path[-1]}:', not inside it"


def _described(err: ValidationError) -> str | None:
    """What the key is for, from the schema: the first sentence of its description and its first example.

    >>> from jsonschema import Draft202012Validator
    >>> schema = {"properties": {"of": {"type": "string", "description": "The type whose values are the roles. More.",
    ...                                 "examples": ["hue"]}}}
    >>> _described(next(Draft202012Validator(schema).iter_errors({"of": [1]})))
    'of: the type whose values are the roles, like hue'
    """
    if not isinstance(err.schema, dict) or not err.absolute_path:
        return None
    return _described_by(err.absolute_path[-1], err.schema)


def _described_by(key: Any, schema: dict[str, Any]) -> str | None:
    """``KEY: the first sentence of its description, like ITS FIRST EXAMPLE`` (None without a description)."""
    text = schema.get("description")
    if not isinstance(text, str):
        return None
    sentence = re.split(r"(?<!e\.g)(?<!i\.e)\.\s+(?=[A-Z`])", text.strip(), maxsplit=1)[0].rstrip(".")
    first = sentence.split(" ", 1)[0]
    if first[:1].isupper() and (first[1:].islower() or len(first) == 1):  # "The type ...", "A list ..." (not "JSON" or "`x`")
        sentence = sentence[0].lower() + sentence[1:]
    examples = schema.get("examples")
    shown = (_shown(examples[0]) if not isinstance(examples[0], str) else "; ".join(examples[0].strip().splitlines())
             ) if examples else ""  # an example of code over lines is shown on one (';' separates its statements)
    like = f", like {shown}" if examples and "e.g." not in sentence and " like " not in sentence else ""
    return f"{key}: {sentence}{like}"


def _one_in_a_list(err: ValidationError, path: list[Any], described: str | None) -> str | None:
    """For one value where a list of such values is wanted (``players: 2``): how to write it as a list of one; else
    ``described`` (what the key is for).

    >>> from jsonschema import Draft202012Validator
    >>> schema = {"properties": {"players": {"type": "array", "items": {"type": "integer"}}}}
    >>> [_one_in_a_list(e, ["players"], None) for e in Draft202012Validator(schema).iter_errors({"players": 2})]
    ['a list of one is written in brackets: players: [2]']
    >>> [_one_in_a_list(e, ["players"], None) for e in Draft202012Validator(schema).iter_errors({"players": "four"})]
    [None]
    """
    value, items = err.instance, err.schema.get("items") if isinstance(err.schema, dict) else None
    if isinstance(value, dict) and value and err.validator_value == "array" and path and isinstance(path[-1], str):
        first = next(iter(value))  # turn: {do: ...}, the step written without its '- '
        return f"{path[-1]} holds a list: start each item with '- ' ({path[-1]}: then '- {first}: ...' under it)"
    kinds = items.get("type") if isinstance(items, dict) else None
    fits = kinds is None or any(_is_kind(value, kind) for kind in ([kinds] if isinstance(kinds, str) else kinds))
    wanted = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
    if "array" not in wanted or "string" in wanted or not path or not isinstance(path[-1], str) or not fits:
        return described
    written = yaml_text([plain(value)])  # quoted where a list's brackets need it ('place X at 1,1')
    return f"a list of one is written in brackets: {path[-1]}: {written}" if len(written) <= 80 else described


def _is_kind(value: Any, kind: str) -> bool:
    """Whether ``value`` is of JSON Schema's ``kind`` (a list or mapping never is: only one value is put in brackets).

    >>> _is_kind(2, "integer"), _is_kind(True, "integer"), _is_kind("x", "string"), _is_kind([1], "array")
    (True, False, True, False)
    """
    kinds = {"integer": int, "number": (int, float), "string": str, "boolean": bool}
    wanted = kinds.get(kind)
    return wanted is not None and isinstance(value, wanted) and (kind == "boolean" or not isinstance(value, bool))


def _items_without_commas(value: Any, expected: str | list[str], path: list[Any]) -> str | None:
    """A hint for a list's item that is several words of the kind wanted (``[1 0]``): YAML reads them as one text.

    >>> _items_without_commas("1 0", "integer", ["points", 0]), _items_without_commas("1 0", "integer", ["points"])
    ("YAML reads '1 0' as one item: separate a list's items with commas, like [1, 0]", None)
    """
    kinds = [expected] if isinstance(expected, str) else expected
    words = value.split() if isinstance(value, str) else []
    if not path or not isinstance(path[-1], int) or len(words) < 2 or not ({"integer", "number"} & set(kinds)):
        return None
    if not all(re.fullmatch(r"[+-]?\d+(\.\d+)?", word) for word in words):
        return None
    return f"YAML reads {_shown(value)} as one item: separate a list's items with commas, like [{', '.join(words)}]"


def _range_written(value: Any, expected: str | list[str], path: list[Any]) -> str | None:
    """A hint for a range of whole numbers written as a text (``players: 3 to 5``, ``[3..5]``) where a list, or one
    of its numbers, belongs: every number is listed.

    >>> _range_written("3 to 5", "array", ["players"]), _range_written("3..5", "integer", ["players", 0])
    ('a range is written as its every number: [3, 4, 5]', 'a range is written as its every number: [3, 4, 5]')
    >>> _range_written("3..5", "integer", ["points"]) is None, _range_written("4-2", "array", ["players"])
    (True, 'a range is written as its every number: [2, 3, 4]')
    >>> _range_written("1" * 5000 + "-2", "array", ["players"]) is None  # no number of thousands of digits is read
    True
    """
    kinds = [expected] if isinstance(expected, str) else expected
    listed = "array" in kinds or ("integer" in kinds and bool(path) and isinstance(path[-1], int))
    m = re.fullmatch(r"\s*(\d{1,6})\s*(?:-|\.\.|to)\s*(\d{1,6})\s*", value) if isinstance(value, str) and listed else None
    if m is None:
        return None
    low, high = sorted((int(m.group(1)), int(m.group(2))))
    if high - low >= 20:
        return None
    return f"a range is written as its every number: [{', '.join(map(str, range(low, high + 1)))}]"


def _read_as_boolean(err: ValidationError, pos: Any) -> str | None:
    """A hint when YAML read a word such as ``yes``, ``no``, ``on`` or ``off`` as true/false where a text belongs."""
    if not isinstance(err.instance, bool) or "string" not in ([err.validator_value] if isinstance(err.validator_value, str)
                                                              else err.validator_value):
        return None
    word = _word_at(pos)
    if word is None or word.lower() in ("true", "false"):  # written as true or false: no word was meant
        return None
    return f"YAML reads {word} as {_shown(err.instance)}: write \"{word}\" in quotes to mean the word"


def _split_cell(value: Any, kinds: str | list[str], pos: Any) -> str | None:
    """A hint when YAML cut a text (one of the ``kinds`` allowed) at the comma of a cell inside ``[...]``:
    ``[choose 3,0]`` is the text ``choose 3`` and the number 0, written at ``pos``.

    >>> _split_cell(0, "string", None) is None
    True
    """
    if isinstance(value, bool) or not isinstance(value, int) or pos is None or not pos.file:
        return None
    if "string" not in ([kinds] if isinstance(kinds, str) else kinds):
        return None
    lines = source_lines(pos.file)
    if not 0 < pos.line <= len(lines):
        return None
    line, at = lines[pos.line - 1], max(pos.col - 1, 0)
    start = max(line.rfind(mark, 0, at - 1) for mark in "[]{},") + 1  # the item's own text: the whole line was searched
    before = re.search(r"([^\[\]{},]*?-?\d),$", line[start:at])  # '... choose 3,' with no space after
    after = re.match(r"-?\d+", line[at:at + 120])
    if before is None or after is None:
        return None
    written = f"{before.group(1).strip()},{after.group(0)}"
    return (f"YAML cut '{written}' at its comma inside [...]: write \"{written}\" in quotes, "
            f"or the list one item a line (- {written})")


def _cut_at_colon(value: Any, kinds: str | list[str], pos: Any = None) -> str | None:
    """A hint when YAML read a text holding ': ' (one of the ``kinds`` allowed) as a mapping of one key: a log line
    ``- piece at (0,4) is turned up: ship`` expected in a scenario.  A mapping written in braces at ``pos`` (``per:
    {side: 1}``) is not a text cut: quoting it is no answer.

    >>> _cut_at_colon({"is turned up": "ship"}, "string")
    'YAML read the text as a mapping at its colon: write it in quotes, "is turned up: ship"'
    >>> _cut_at_colon({'say "hi"': 'now'}, "string")  # quoted as YAML reads it back
    'YAML read the text as a mapping at its colon: write it in quotes, "say \\\\"hi\\\\": now"'
    >>> _cut_at_colon({"a": 1, "b": 2}, "string") is None
    True
    """
    if not isinstance(value, dict) or len(value) != 1 or "string" not in ([kinds] if isinstance(kinds, str) else kinds):
        return None
    (key, rest), = value.items()
    if isinstance(rest, (dict, list)) or not isinstance(key, str) or _reads_as_code(key) or _char_at(pos) == "{":
        return None  # code written without '|' (for r in roles: pass) has a hint of its own
    after = "" if rest is None else rest if isinstance(rest, str) else _shown(rest)
    return f"YAML read the text as a mapping at its colon: write it in quotes, {json.dumps(f'{key}: {after}', ensure_ascii=False)}"


def _code_read_as_a_list(value: Any, kinds: str | list[str]) -> str | None:
    """A hint when YAML read a text that starts with ``[`` (code giving a list, ``[(1, 0), (0, 1)]``) as a list, where
    a value of several kinds is allowed (a function's body: code, or a mapping).

    >>> _code_read_as_a_list([[1, 0], [0, 1]], ["string", "object"])
    'YAML reads [...] as a list: a text that starts with a bracket, such as code giving a list, is written in quotes: "[...]"'
    >>> _code_read_as_a_list([1], "integer") is None, _code_read_as_a_list(["a"], "string") is None  # a text alone: no
    (True, True)
    """
    if not isinstance(value, list) or isinstance(kinds, str) or "string" not in kinds:
        return None
    return 'YAML reads [...] as a list: a text that starts with a bracket, such as code giving a list, is written in quotes: "[...]"'


def _char_at(pos: Any) -> str | None:
    """The character written at ``pos`` in its file, or None when the file cannot be read there.

    >>> _char_at(None) is None
    True
    """
    if pos is None or not pos.file:
        return None
    lines = source_lines(pos.file)
    if not 0 < pos.line <= len(lines) or not 0 < pos.col <= len(lines[pos.line - 1]):
        return None
    return lines[pos.line - 1][pos.col - 1]


def _word_at(pos: Any) -> str | None:
    """The word written at ``pos`` in its file, or None when the file cannot be read there."""
    if pos is None or not pos.file:
        return None
    lines = source_lines(pos.file)
    if not 0 < pos.line <= len(lines):
        return None
    m = re.match(r"[A-Za-z]+", lines[pos.line - 1][max(pos.col - 1, 0):])
    return m.group(0) if m else None


def _after_words(mapping: Any, key: Any) -> bool:
    """Whether the entry before ``key`` in ``mapping`` holds words (a text with a space): a one-word key with no value
    after it is then more likely the rest of that text than a setting.

    >>> _after_words({"kind": "pile", "doc": "the card picked", "revealed": None}, "revealed")
    True
    >>> _after_words({"kind": "pile", "hidden": None}, "hidden")
    False
    """
    keys = list(mapping) if isinstance(mapping, dict) else []
    at = keys.index(key) if key in keys else 0
    before = mapping[keys[at - 1]] if at > 0 else None
    return isinstance(before, str) and " " in before.strip()


def _after_a_comma(pos: Any) -> bool:
    """Whether a comma comes right before ``pos`` in its file (spaces aside): a key with no value there is the rest of
    a value YAML cut at a comma, as ``{doc: rolled, then lost}`` makes ``then lost`` a key."""
    if pos is None or not pos.file:
        return False
    lines = source_lines(pos.file)
    return 0 < pos.line <= len(lines) and lines[pos.line - 1][:max(pos.col - 1, 0)].rstrip().endswith(",")


def _pattern_words(pattern: str) -> str:
    """A key pattern in words, for hints: ^[0-9]+$ is 'a player count'."""
    return "a player count" if pattern in ("^[0-9]+$", "^[1-9][0-9]*$") else f"keys matching {pattern}"
