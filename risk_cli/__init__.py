"""risk_cli: the ``risk`` command line, a thin layer over ``risk_core`` and ``risk_service``.

Commands parse their arguments, call the library and print text or, with ``--json``, JSON.
Library errors become ``Error: <message> [<code>]`` on standard error with exit status 1.
"""
