"""risk_core: a pure, deterministic Risk rules engine.

No I/O beyond reading the packaged board data, no clock, no global random.  The API::

    events = start("classic", ["Ann", "Bob", "Cy"], seed=42)   # opening events
    state = replay(events)                                     # fold events into a state
    cmd = legal_commands(state)[0]                             # what the acting seat may do
    new_events = decide(state, cmd)                            # validate → events (RuleError)
    state = evolve(state, new_events[0])                       # apply one event (pure)
    new_events = decide_and_apply(state, cmd)                  # decide, advancing state
    rulesets()                                                 # registered rule sets + options

Commands and events are frozen msgspec Structs (``risk_core.model``); ``encode`` /
``decode_command`` / ``decode_events`` give their canonical JSON.  ``decide`` raises
``RuleError`` with a stable ``code``; ``evolve`` never rolls dice and never fails on an event
``decide`` produced.  Dice come from a counter-based generator whose position is in the state
(``risk_core.rng``); ``start(..., dice=[6, 6, 6])`` scripts the next faces.
"""

from risk_core.board import Board, BoardError, board_names, load_board
from risk_core.engine import (
    RuleSetInfo,
    apply_in_place,
    decide,
    decide_and_apply,
    decode_state,
    evolve,
    legal_commands,
    replay,
    ruleset_of,
    start,
    to_act,
    typed_state,
)
from risk_core.engine import list_rulesets as rulesets
from risk_core.errors import RiskError, RuleError, SetupError
from risk_core.model import (
    Command,
    Event,
    GameState,
    SeatInfo,
    decode_command,
    decode_event,
    decode_events,
    encode,
    json_schema,
)
from risk_core.rulesets.base import ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "Board",
    "BoardError",
    "Command",
    "Event",
    "GameState",
    "RiskError",
    "RuleError",
    "RuleSetInfo",
    "SeatInfo",
    "SetupError",
    "apply_in_place",
    "board_names",
    "decide",
    "decide_and_apply",
    "decode_command",
    "decode_event",
    "decode_events",
    "decode_state",
    "typed_state",
    "encode",
    "evolve",
    "json_schema",
    "legal_commands",
    "load_board",
    "replay",
    "ruleset_of",
    "rulesets",
    "start",
    "to_act",
]
