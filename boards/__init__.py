"""Board data shipped with the engine.

Each sub-folder is one board: ``board.json`` (territories, groups, edges, card symbols and
provenance) plus optional rule data for that board, such as ``missions.json``.  The folders are
package data, so an installed engine finds them next to this file.
"""

from pathlib import Path

BOARDS_DIR = Path(__file__).parent
