"""Which stretches of the flow may call the stretch they jump out to (flowgen.py).

A stretch of generated code (one function per leader step) ends a jump out of it with
``return TARGET``: the engine's loop (``State._run``) then charges the target's stretch its units of
work and calls it. An ``if``/``else`` chain between two decisions (a card's effect picked by
its kind: this one? that one? ...) thus cost a round through that loop per test. flowgen writes
``return _bTARGET(s, L)`` instead, so one call from the engine runs the whole way to the next
decision, where the stretch may.

The work bound stays sound: a stretch is charged the weights of its own steps and of the steps of
every stretch it may call, each once (:func:`reached`; compiler/work.py), which is at least the work
of any one way through them. But a stretch on a loop of the flow (a ``repeat``, a ``while`` whose
test and body run through the engine's loop) is charged on every round; calling its exits would
charge every round the work after the loop too, and the loop would nest calls. So only a stretch on
no loop calls its exits: :func:`on_loops` finds the stretches from which the flow can come back to
them without a decision in between, following the ``return``s of the stretches (calls only join
stretches that follow one another, so they make no new loop). :func:`calling` picks the stretches
that call, so that calls nest at most MAX_DEPTH deep (a long chain of ``if``s returns the step to
State._run every MAX_DEPTH stretches).
"""

from __future__ import annotations

from .steps import CHOOSE, HALT, JUMP, JUMP_IF_NOT, RETURN


def exits(code: list, start: int, max_trace: int, max_follow: int) -> set:
    """The steps a stretch from ``start``, written without branches in place, may return to."""
    out: set = set()
    pc, count, visited = start, 0, {start}
    while pc < len(code):
        if count >= max_trace:
            out.add(pc)
            break
        count += 1
        visited.add(pc)
        kind, a, b, _span = code[pc]
        if kind == JUMP_IF_NOT:
            out.add(b)
        elif kind == JUMP:
            if a not in visited and count < max_follow:
                pc = a
                visited.add(pc)
                continue
            out.add(a)
            break
        elif kind in (CHOOSE, HALT, RETURN):
            break
        pc += 1
    return out


MAX_DEPTH = 40  # stretches called one inside another at most (Python's own stack is not the limit)


def calling(code: list, leaders: list, end: int, max_trace: int, max_follow: int) -> set:
    """The leaders before step ``end`` (the triggers' bodies start there) whose stretch calls the
    stretches it jumps out to: those on no loop, as long as the calls nest no deeper than MAX_DEPTH
    (a stretch that would call deeper returns the step instead, and starts a new chain)."""
    graph = {pc: exits(code, pc, max_trace, max_follow) for pc in leaders}
    looping = on_loops(graph)
    depth: dict = {}
    out = set()
    for root in leaders:  # depth first, each stretch after the stretches it may call (no loop among them)
        todo = [(root, False)]
        while todo:
            pc, ready = todo.pop()
            if pc in depth:
                continue
            callees = [x for x in graph.get(pc, ()) if x in graph and x < end]
            if pc >= end or pc in looping or pc not in graph:
                depth[pc] = 1
            elif ready:
                deepest = 1 + max((depth[x] for x in callees), default=0)
                if deepest <= MAX_DEPTH:
                    depth[pc] = deepest
                    out.add(pc)
                else:
                    depth[pc] = 1
            else:
                todo.append((pc, True))
                todo.extend((x, False) for x in callees if x not in depth)
    return out


def on_loops(graph: dict) -> set:
    """The leaders whose stretch the flow may run again before the next decision (on a cycle), from
    each leader's exits."""
    leaders = list(graph)
    looping = set()
    for start in leaders:
        seen, todo = set(), list(graph[start])
        while todo:
            pc = todo.pop()
            if pc == start:
                looping.add(start)
                break
            if pc in seen or pc not in graph:
                continue
            seen.add(pc)
            todo.extend(graph[pc])
    return looping


def reached(start: int, steps: dict, calls: dict) -> set:
    """The steps of stretch ``start`` and of every stretch it calls, directly or not."""
    out, todo, seen = set(), [start], set()
    while todo:
        pc = todo.pop()
        if pc in seen:
            continue
        seen.add(pc)
        out |= steps[pc]
        todo.extend(calls.get(pc, ()))
    return out
