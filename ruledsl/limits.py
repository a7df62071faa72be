"""How big a game may be: sizes a rules file (or a parameter given to it) cannot exceed.

A rules file is untrusted input: `cards 1000000 * standard52` or `track(100000000)`
would take minutes or all memory. Each size is checked before memory is taken
for it, and a file that exceeds one gets a positioned checker error naming the
limit. docs/language.md (section 7.7) lists them.
"""

MAX_PLAYERS = 100  # the highest player count of a `players LOW..HIGH` line
MAX_CARDS = 10_000  # cards in the universe, over every `cards` line
MAX_SLOTS = 10_000  # slots of one track
MAX_ZONES = 10_000  # zones of one zone family, e.g. zone pile[1..100, player]
MAX_VALUES = 100_000  # values of one variable family, e.g. var seen[1..1000, player]
MAX_RANGE = 100_000  # values of a range gone through while playing, e.g. count(each i in 1..N where ...)
