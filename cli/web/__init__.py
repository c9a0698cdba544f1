"""``rulecraft serve``: a browser table for any ruleset — play, watch, replay, read the rules, simulate.

The server (:mod:`cli.web.app`) uses only the engine's public API; the page
is drawn from what the compiled game declares (:mod:`cli.web.svg`,
:mod:`cli.web.view`), so every ruleset gets a table without any code of its
own.  Start it with ``rulecraft serve`` or::

    import uvicorn
    from cli.web.app import create_app
    uvicorn.run(create_app(None), host="127.0.0.1", port=8000)
"""
