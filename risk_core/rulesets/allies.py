"""Armies placed for an allied army: classic-2p's neutral ally and napoleon-2p's independents.

Both families have an ``ally_place`` phase in which a player places armies that are not his own;
who places and how many differ (classic-2p: the mover's opponent places half the mover's income,
CL-2P-04; napoleon-2p: the mover places each chosen ally's rolled regiments, NAP-2PA-06).
"""

from __future__ import annotations

from risk_core.model import Event, Seat, event

ALLY_PLACE = {"ally_place": "place the ally's armies"}


@event
class AllyPlaced(Event, frozen=True, tag="ally_placed"):
    """``seat`` placed ``count`` armies of the allied army holding ``territory``."""

    seat: Seat
    territory: str
    count: int
