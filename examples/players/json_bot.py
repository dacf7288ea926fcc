#!/usr/bin/env python3
"""An external bot for ``--players 'exec:python3 examples/players/json_bot.py'``: it imports nothing from
mjsim and speaks the JSON-lines protocol of docs/write-a-player.md, so it could be written in any language.

It wins when it may, passes on every other claim, and otherwise discards the first tile of the first
legal discard whose kind it holds only once (else the first legal discard).
"""

import json
import sys


def choose(request):
    legal = request["legal"]
    if "win" in legal:
        return "win"
    if request["decision"] != "turn":
        return "pass" if "pass" in legal else legal[0]
    hand = request["hand"]  # MPSZ text, e.g. "1123m557z"
    counts, digits = {}, []
    for character in hand:
        if character.isdigit():
            digits.append(character)
        else:
            for digit in digits:
                counts[digit + character] = counts.get(digit + character, 0) + 1
            digits = []
    discards = [action for action in legal if action.startswith("discard ")]
    for action in discards:
        if counts.get(action.split()[1], 0) == 1:
            return action
    return discards[0] if discards else legal[0]


def main():
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "decide":
            sys.stdout.write(json.dumps({"action": choose(request)}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
