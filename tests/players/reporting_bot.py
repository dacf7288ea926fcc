#!/usr/bin/env python3
"""An external bot that plays the first legal action and reports, with every answer, `scale` (its argument)
times the tiles it has discarded so far as its chance of winning: ``exec:python3 reporting_bot.py 0.01``."""

import json
import sys


def main():
    scale = float(sys.argv[1])
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] != "decide":
            continue
        discarded = sum(character.isdigit() for character in request["discards"][request["seat"]])
        reply = {"action": request["legal"][0], "win_chance": scale * discarded}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
