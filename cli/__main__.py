"""``python -m cli``: the ``rulecraft`` command where its console script is not on the path (a checkout run with
``PYTHONPATH``, say).

Example: ``python -m cli validate my-game`` is ``rulecraft validate my-game``.
"""

from cli.main import main

main(prog_name="rulecraft")
