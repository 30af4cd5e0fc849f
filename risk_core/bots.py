"""Seeded computer players: a ``random`` player, a ``simple`` one (``risk_core.simple_bot``)
and a ``greedy`` one.

A bot is a pure function of the state and a seed: the choice draws from a counter-based stream
keyed by the seed, the game's seed and ``state.version`` (``risk_core.rng``), so the same game
and the same bot seed give the same command on every platform, and nothing global is touched.

The greedy player reads the board through the rule set's own hooks (``attack_options``,
``valid_sets``, ``fortify_reachable``, ``must_trade``…) so that it plays any registered rule set
legally; ``choose`` still checks its proposal with ``decide`` and falls back to a randomly
drawn legal command, so a rule it does not know can only make it play worse, never illegally.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import cache, lru_cache

import msgspec

from risk_core.board import Board
from risk_core.engine import apply_in_place, decide, legal_moves, replay, ruleset_of, to_act
from risk_core.errors import RuleError
from risk_core.model import (
    Attack,
    Command,
    Defend,
    EndTurn,
    Event,
    Fortify,
    GameState,
    LegalMove,
    Occupy,
    Place,
    Seat,
    Trade,
)
from risk_core.rng import M64, Rng, mix64, normalise_seed
from risk_core.rulesets.base import RuleSet
from risk_core.simple_bot import simple_command

LEVELS: tuple[str, ...] = ("random", "simple", "greedy")

# Odds the greedy player wants before attacking: origin armies >= target armies + margin.  The
# margin drops late in long games so that evenly matched players cannot stall forever.
ATTACK_MARGIN = 2
LATE_ROUND = 40
LATE_MARGIN = 1


def bot_rng(state: GameState, seed: int | str) -> Rng:
    """The bot's stream for this decision: keyed by (seed, game seed), positioned by version.

    Versions are spaced 2**16 draws apart, far more than one decision uses, so two decisions of
    the same game never share draws.
    """
    return Rng(_bot_key(seed, state.seed), (state.version << 16) & M64)


@lru_cache(maxsize=256)  # asked at every decision, with the same pair all game long
def _bot_key(seed: int | str, game_seed: int) -> int:
    return mix64(normalise_seed(seed) ^ mix64(game_seed))


def choose(state: GameState, *, level: str = "greedy", seed: int | str = 0) -> Command:
    """The command of the seat that must act (``to_act(state)``); always accepted by ``decide``."""
    return play(state, level=level, seed=seed)[0]


def play(
    state: GameState, *, level: str = "greedy", seed: int | str = 0
) -> tuple[Command, list[Event]]:
    """``choose`` plus the events ``decide`` returns for it (one ``decide`` call, not two)."""
    cmd = propose(state, level=level, seed=seed)
    try:
        return cmd, decide(state, cmd)
    except RuleError:
        # A rule the greedy player does not model: any legal command keeps the game going.
        # (Without ``blitz``: an entry of ``legal_moves`` as it is, which ``decide`` accepts.)
        fallback = random_command(state, bot_rng(state, seed), blitz=False)
        return fallback, decide(state, fallback)


def propose(state: GameState, *, level: str = "greedy", seed: int | str = 0) -> Command:
    """The bot's preferred command, not yet checked by ``decide`` (tests check it is legal)."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r} (levels: {', '.join(LEVELS)}).")
    seat = to_act(state)
    if seat is None:
        raise ValueError("The game is over: no seat has to act.")
    return _propose(ruleset_of(state), state, seat, level, seed)


def _propose(rs: RuleSet, state: GameState, seat: Seat, level: str, seed: int | str) -> Command:
    """``propose`` for ``seat``, the seat to act, and a known level (``rs``: the state's)."""
    if level == "simple":  # its stream made only for the decisions that draw from it
        cmd = simple_command(rs, state, seat, lambda: bot_rng(state, seed))
        if cmd is not None:
            return cmd
        return random_command(state, bot_rng(state, seed))
    rng = bot_rng(state, seed)
    if level == "greedy":
        cmd = Greedy(state, seat, rng).command()
        if cmd is not None:
            return cmd
    return random_command(state, rng)


def random_command(state: GameState, rng: Rng, *, blitz: bool = True) -> Command:
    """A random legal command, drawn without listing every count (issue 14): a kind of move
    (command type) uniformly, then one of that kind's ``legal_moves`` entries uniformly, then
    a count uniformly in the entry's range.

    Drawing the kind first makes every family command as likely as attacking or ending the
    turn, so the random player exercises all of them, and the counts of large armies no longer
    swamp the draw with placements and free moves.  With ``blitz``, three attacks in four are
    fought ``until="conquer"``: single battles cannot keep up with the reinforcements, and
    random games would never reach a winner; the other quarter keeps single battles played.
    """
    kinds: dict[type[Command], list[LegalMove]] = {}
    for move in legal_moves(state):
        kinds.setdefault(type(move.command), []).append(move)
    entries = list(kinds.values())[rng.below(len(kinds))]
    move = entries[rng.below(len(entries))]
    cmd = move.nth(rng.below(move.size()))
    if blitz and type(cmd) is Attack and cmd.until == "once" and rng.below(4):
        cmd = msgspec.structs.replace(cmd, until="conquer")
    return cmd


# Readings of the board by their facts (``Greedy._read``): what a reading holds depends on
# nothing else, so taking one again changes no choice; the lists are never changed once made.
Reading = tuple[list[int], list[int], list[int], list[int], list[float], dict[int, float]]
_READINGS: dict[tuple[object, ...], Reading] = {}
_READINGS_KEPT = 4096
_NEG_INF = float("-inf")  # a name, not a call per candidate in the hot loops


@cache
def _territory_ids(board: Board) -> tuple[str, ...]:
    return tuple(t.id for t in board.territories)


class Greedy:
    """One decision of the greedy player: a read of the board, then a command for the phase."""

    def __init__(self, state: GameState, seat: Seat, rng: Rng) -> None:
        self.state = state
        self.seat = seat
        self.rng = rng
        self.rs: RuleSet = ruleset_of(state)
        board = self.rs.board
        self.board = board
        self.ids = _territory_ids(board)
        self.nbrs = board.neighbours
        self.group_of = board.territory_group
        self.owner = owner = state.owner
        self.armies = state.armies
        # The units this seat attacks and moves with (its own share of a shared territory).
        self.usable = self.rs.usable_armies(state, seat)
        self.neutral = [p.neutral for p in state.players]
        # Seats to fight: everyone else, or the other team's seats in a team game.
        team = self.rs.team_of(state, seat)
        if team is None:  # no teams: every other seat (one list, no call per seat)
            self.enemy = [True] * len(state.players)
            self.enemy[seat] = False
        else:
            self.enemy = [
                s != seat and self.rs.team_of(state, s) != team for s in range(len(state.players))
            ]
        # Ties between equal scores go to a per-decision rotation of territory indexes: the
        # seed varies the play without drawing a number for every candidate.
        self.offset = rng.below(len(owner))
        # A family's own moves may read any part of the reading, in any phase.
        self._family_moves = type(self.rs).bot_move is not RuleSet.bot_move
        self._values: dict[int, float] = {}

    # The rest of the reading (``_read``) is made only for the phases that use it: an
    # occupation or a defence needs none of it, and a decision is made for every command.
    def _read(self) -> None:
        state, seat = self.state, self.seat
        goals = self.rs.bot_goals(state, seat)  # what the seat's missions ask for
        self.mission_groups = set(goals.groups)
        self.extra_groups = goals.extra_groups
        self.victim = goals.victim
        self.mission_holds = set(goals.holds)
        # Everything below follows from the owners, the goals and who is an enemy: a reading
        # made for the same facts is taken again (placements and failed attacks leave the
        # owners as they were), with the target values worked out so far.
        owner = self.owner
        key = (self.rs, seat, tuple(owner), tuple(self.enemy), tuple(self.neutral), goals)
        known = _READINGS.get(key)
        if known is not None:
            self.counts, self.own, self.holder, self.front, self.want, self._values = known
            return
        self._read_owners(key)

    def _read_owners(self, key: tuple[object, ...]) -> None:
        """The part of ``_read`` that follows from ``key``'s facts, kept in ``_READINGS``."""
        state, seat, board, group_of = self.state, self.seat, self.board, self.group_of
        # Territory counts, own territories, and each group's sole holder (-2: mixed); list
        # methods and comprehensions rather than one loop, which costs several times more.
        owner = self.owner
        self.counts = [owner.count(s) for s in range(len(state.players))]
        self.own = [t for t, o in enumerate(owner) if o == seat]
        mine = [0] * len(board.group_members)
        for t in self.own:
            mine[group_of[t]] += 1
        self.holder = []
        for members in board.group_members:
            holder = owner[members[0]]
            for t in members:
                if owner[t] != holder:
                    holder = -2
                    break
            self.holder.append(holder)
        # ``_faces_hostile`` and ``_group_want`` written out: a reading per decision.
        nbrs, enemy = self.nbrs, self.enemy
        front = []
        for t in self.own:
            for n in nbrs[t]:
                o = owner[n]
                if o >= 0 and enemy[o]:
                    front.append(t)
                    break
        self.front = front
        mission_groups, extra, groups = self.mission_groups, self.extra_groups, board.groups
        want = []
        for g, members in enumerate(board.group_members):
            size = len(members)
            w = 2.0 * mine[g] / size + groups[g].bonus / size
            if g in mission_groups:
                w += 3.0
            elif extra:
                w += 0.5
            want.append(w)
        self.want = want
        if len(_READINGS) >= _READINGS_KEPT:
            _READINGS.clear()
        _READINGS[key] = (self.counts, self.own, self.holder, self.front, want, self._values)

    # ------------------------------------------------------------------ reading the board
    def _group_want(self, g: int, mine: int) -> float:
        """How much the player wants group ``g``: share already held, bonus per territory."""
        size = len(self.board.group_members[g])
        want = 2.0 * mine / size + self.board.groups[g].bonus / size
        if g in self.mission_groups:
            want += 3.0
        elif self.extra_groups:
            want += 0.5
        return want

    def _faces_hostile(self, t: int) -> bool:
        owner, enemy = self.owner, self.enemy
        for n in self.nbrs[t]:
            o = owner[n]
            if o >= 0 and enemy[o]:
                return True
        return False

    def hostile(self, t: int) -> bool:
        o = self.owner[t]
        return o >= 0 and self.enemy[o]

    def threat(self, t: int) -> float:
        """Hostile armies next to ``t`` minus its own; the neutral ally counts half."""
        total = 0.0
        for n in self.nbrs[t]:
            o = self.owner[n]
            if o >= 0 and self.enemy[o]:
                total += self.armies[n] * (0.5 if self.neutral[o] else 1.0)
        return total - self.armies[t]

    def target_value(self, t: int) -> float:
        """Worth of conquering ``t``: continent progress, mission, broken bonuses, eliminations."""
        value = self._values.get(t)
        if value is not None:
            return value
        g = self.group_of[t]
        value = self.want[g]
        o = self.owner[t]
        if o == self.victim:
            value += 3.0
        if t in self.mission_holds:
            value += 3.0
        if self.neutral[o]:
            value -= 0.5  # the neutral ally is only an obstacle: beating it wins nothing
        else:
            if self.holder[g] == o:
                value += 1.0 + self.board.groups[g].bonus / 2
            if self.counts[o] <= 2:
                value += 2.0  # an elimination hands over the loser's cards
        self._values[t] = value
        return value

    def tie(self, t: int) -> int:
        return (t + self.offset) % len(self.owner)

    # ------------------------------------------------------------------ phases
    def command(self) -> Command | None:
        phase = self.state.phase
        if phase not in ("occupy", "defend") or self._family_moves:
            self._read()
        if self._family_moves:  # the family's own moves first
            cmd = self.rs.bot_move(self.state, self.seat, self)
            if cmd is not None:
                return cmd
        if phase == "setup":
            return self.setup()
        if phase in ("reinforce", "elim_trade"):
            return self.reinforce()
        if phase == "attack":
            return self.attack()
        if phase == "occupy":
            return self.occupy()
        if phase == "defend":
            return self.defend()
        return None

    def setup(self) -> Command | None:
        s, seat = self.state, self.seat
        if -1 in self.owner:  # claiming: grow clusters, favour small high-bonus continents
            free = [t for t, o in enumerate(self.owner) if o == -1]
            best = max(free, key=lambda t: (self._claim_score(t), self.tie(t)))
            return Place(seat=seat, territory=self.ids[best], count=1)
        left = s.setup_left[seat]
        if left <= 0 or seat not in self.owner:
            return None
        # Setup placement rule (DEC-15): one at a time, or in a few large chunks.
        alternate = s.options.get("setup_placement", "alternate") == "alternate"
        count = 1 if alternate else max(1, (left + 2) // 3)
        return Place(seat=seat, territory=self.ids[self.placement_spot(count)], count=count)

    def _claim_score(self, t: int) -> float:
        mine = sum(1 for n in self.nbrs[t] if self.owner[n] == self.seat)
        others = sum(1 for n in self.nbrs[t] if self.hostile(n))
        return self.want[self.group_of[t]] + 0.5 * mine - 0.2 * others

    def placement_spot(self, count: int) -> int:
        """Border territory where ``count`` new armies open the best attack or meet a threat."""
        # (A team player may control nothing and hold regiments in shared territories only.)
        border = self.front or self.own or [t for t, n in enumerate(self.usable) if n > 0]
        best, best_score, best_tie = border[0], float("-inf"), -1
        # ``hostile``, ``threat``, ``tie`` and the ``target_value`` cache written out: this
        # runs for every placement, over every border territory and its neighbours.
        armies, owner, enemy, neutral, nbrs = (
            self.armies,
            self.owner,
            self.enemy,
            self.neutral,
            self.nbrs,
        )
        values, offset, size = self._values, self.offset, len(owner)
        for b in border:
            after = armies[b] + count
            chance = _NEG_INF
            total = 0.0
            for n in nbrs[b]:
                o = owner[n]
                if o >= 0 and enemy[o]:
                    total += armies[n] * (0.5 if neutral[o] else 1.0)
                    # A target out of reach counts less the further out of reach it is, so two
                    # players cannot feed an arms race over one fortress forever.
                    short = armies[n] + ATTACK_MARGIN - after
                    odds = 1.0 if short <= 0 else -1.0 - 0.1 * short
                    value = values.get(n)
                    if value is None:
                        value = self.target_value(n)
                    if value + odds > chance:  # ``max`` written out
                        chance = value + odds
            threat = total - armies[b]
            score = (chance if chance > _NEG_INF else 0.0) + 0.05 * threat
            # The best (score, tie) key, compared without building a tuple per territory.
            if score >= best_score:
                tie = (b + offset) % size
                if score > best_score or tie > best_tie:
                    best, best_score, best_tie = b, score, tie
        return best

    def best_set(self) -> tuple[int, ...] | None:
        """The valid set worth most armies, counting the +2 territory bonuses (CL-11)."""
        s, seat, rs = self.state, self.seat, self.rs
        best: tuple[int, ...] | None = None
        best_key = (-1, -1)
        for combo in rs.valid_sets(s, seat):
            value = rs.set_value(s, combo) or 0
            value += 2 * len(rs.card_bonus_territories(s, seat, combo))
            key = (value, self.tie(sum(combo)))
            if key > best_key:
                best, best_key = combo, key
        return best

    def reinforce(self) -> Command | None:
        s, seat, rs = self.state, self.seat, self.rs
        must = rs.must_trade(s, seat)
        if must or len(s.players[seat].hand) >= 3:
            combo = self.best_set()
            worth = combo is not None and (
                must or len(s.players[seat].hand) >= 4 or (rs.set_value(s, combo) or 0) >= 6
            )
            if combo is not None and worth:
                return Trade(seat=seat, cards=combo)
            if must:
                return None
        if s.reserve <= 0:
            return None
        spot = self.placement_spot(s.reserve)
        return Place(seat=seat, territory=self.ids[spot], count=s.reserve)

    def attack(self) -> Command:
        s, seat = self.state, self.seat
        if s.may_trade:  # cards just taken from an eliminated player (CL-20)
            combo = self.best_set()
            if combo is not None:
                return Trade(seat=seat, cards=combo)
        margin = LATE_MARGIN if s.round > LATE_ROUND else ATTACK_MARGIN
        best: tuple[int, int] | None = None
        best_score, best_t, best_o = _NEG_INF, -1, -1
        usable, armies, values = self.usable, self.armies, self._values
        offset, size = self.offset, len(self.owner)
        for o, t in self.rs.attack_options(s, seat):
            a, d = usable[o], armies[t]
            if a < d + margin:
                continue
            value = values.get(t)  # ``target_value``'s cache and ``tie`` written out
            if value is None:
                value = self.target_value(t)
            # The best (score, target tie, origin tie) key, compared without a tuple each.
            score = value + 0.15 * (a - d)
            if score < best_score:
                continue
            tie_t, tie_o = (t + offset) % size, (o + offset) % size
            if score > best_score or (tie_t, tie_o) > (best_t, best_o):
                best, best_score, best_t, best_o = (o, t), score, tie_t, tie_o
        if best is not None:
            o, t = best
            a = self.usable[o]
            # When the target is the origin's only hostile neighbour, the origin becomes
            # interior after a conquest: answer the occupation now, everything moves in.
            alone = all(n == t or not self.hostile(n) for n in self.nbrs[o])
            return Attack(
                seat=seat,
                origin=self.ids[o],
                target=self.ids[t],
                dice=min(3, a - 1),
                until="conquer",
                # Stop once the origin has lost two thirds: keep a garrison, not a bled stack.
                stop_at=max(1, min(a - 1, a // 3)),
                move=a if alone else None,
            )
        return self.fortify() or EndTurn(seat=seat)

    def fortify(self) -> Command | None:
        """Move the largest interior stack towards the front (the turn's one free move)."""
        s, seat = self.state, self.seat
        dist = self.front_distance()
        interior = [t for t in self.own if dist.get(t, 0) > 0 and self.usable[t] >= 2]
        if not interior or next(self.rs.fortify_options(s, seat), None) is None:
            return None  # (no free move left: napoleon-mission waits after it for an announcement)
        source = max(interior, key=lambda t: (self.usable[t], self.tie(t)))
        closer = [t for t in self.own if dist.get(t, 1 << 30) < dist[source]]
        # Best first, so the rule set's reachability test (a search under chain moves) runs
        # only until the first reachable candidate.
        closer.sort(key=lambda t: (-dist[t], self.threat(t), self.tie(t)), reverse=True)
        for t in closer:
            if self.rs.fortify_reachable(s, seat, source, t):
                return Fortify(
                    seat=seat,
                    origin=self.ids[source],
                    target=self.ids[t],
                    count=self.usable[source] - 1,
                )
        return None

    def front_distance(self) -> dict[int, int]:
        """Steps from each own territory to the nearest own territory facing a hostile one."""
        dist = {t: 0 for t in self.front}
        queue = deque(dist)
        while queue:
            t = queue.popleft()
            for n in self.nbrs[t]:
                if self.owner[n] == self.seat and n not in dist:
                    dist[n] = dist[t] + 1
                    queue.append(n)
        return dist

    def occupy(self) -> Command | None:
        """Move in everything when the conquest faces enemies and the origin no longer does."""
        occ = self.state.occupation
        if occ is None:
            return None
        mover = self.owner[occ.origin]
        target_faces = any(self._enemy_of(mover, n) for n in self.nbrs[occ.target])
        origin_faces = any(self._enemy_of(mover, n) for n in self.nbrs[occ.origin])
        if target_faces and not origin_faces:
            count = occ.max
        elif target_faces:
            count = max(occ.min, (occ.min + occ.max + 1) // 2)
        else:
            count = occ.min
        return Occupy(seat=self.seat, count=count)

    def _enemy_of(self, mover: Seat, t: int) -> bool:
        o = self.owner[t]
        return o >= 0 and o != mover and self.enemy[o]

    def defend(self) -> Command | None:
        order = self.state.attack
        if order is None:
            return None
        return Defend(seat=self.seat, dice=min(2, self.usable[order.target]))


def self_play(
    opening: Sequence[Event],
    *,
    level: str | Sequence[str] = "greedy",
    seed: int | str = 0,
    max_turns: int = 2000,
) -> tuple[list[Command], list[Event]]:
    """Bots play every seat from ``opening`` until the game ends or passes ``max_turns`` turns.

    ``level`` is one level for all seats or one per seat.  Returns the commands and the whole
    history (opening included); the last state is ``replay`` of that history.
    """
    events = list(opening)
    state = replay(events)
    commands: list[Command] = []
    rs = ruleset_of(state)
    in_place = rs.decides_in_place
    while state.phase != "over" and state.turn <= max_turns:
        seat = rs.to_act(state)  # (``to_act`` without its look-up: the game is not over)
        seat_level = level if isinstance(level, str) else level[seat]
        if in_place and seat_level in LEVELS:  # the state is ours: no copy
            cmd, new = _play_in_place(rs, state, seat, seat_level, seed)
            if new is None:  # refused part-way (a rule the bot does not model): rebuild it
                state = replay(events)
                cmd, new = play(state, level=seat_level, seed=seed)
                apply_in_place(state, new)
        else:
            cmd, new = play(state, level=seat_level, seed=seed)
            apply_in_place(state, new)  # the state is ours: no copy per event
        commands.append(cmd)
        events.extend(new)
    return commands, events


def _play_in_place(
    rs: RuleSet, state: GameState, seat: Seat, level: str, seed: int | str
) -> tuple[Command, list[Event] | None]:
    """``play`` for ``seat``, the seat to act, with the events applied to ``state`` as they
    are decided; None for the events when a refusal came after some of them (``state`` must
    then be rebuilt)."""
    cmd = _propose(rs, state, seat, level, seed)
    version = state.version
    try:
        return cmd, rs.decide_in_place(state, cmd)
    except RuleError:
        if state.version != version:
            return cmd, None
    fallback = random_command(state, bot_rng(state, seed), blitz=False)  # as ``play``
    return fallback, rs.decide_in_place(state, fallback)
