"""``python -m ruledsl``: the same as the ``ruledsl`` command."""

from .cli import main

main(prog_name="ruledsl")
