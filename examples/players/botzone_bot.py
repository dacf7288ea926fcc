#!/usr/bin/env python3
"""A bot for Botzone's Chinese Standard Mahjong, written from the game's documentation (Botzone's wiki page
"Chinese-Standard-Mahjong" and its "Bot" page) in its "simple interaction" line format. It imports nothing
from mjsim: it is a Botzone bot, and mjsim seats it as one (docs/botzone.md).

- `python3 botzone_bot.py`: started afresh each turn, it reads the turn number n, the n - 1 earlier requests
  each followed by its own answer, and the new request (anything after that, the data and global data
  Botzone may add, it ignores), answers one line and exits.
- `python3 botzone_bot.py --keep-running`: it does the same at its first turn, then writes the keep-running
  line after each answer and reads each later turn's request as one line, until its input ends.
- `--pong`: it also pongs when it holds two of a discard, playing its first tile after the pong.

Its play: it wins (`HU`) when PyMahjongGB is installed and counts at least 8 fans without the flowers;
otherwise it plays the tile it just drew and passes on every discard.
"""

import sys

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

try:
    from MahjongGB import MahjongFanCalculator
except ImportError:  # no fan calculator: the bot never declares a win
    MahjongFanCalculator = None


class Table:
    """What the bot knows: its number, the round wind, its concealed tiles, its melds and flowers, and the
    last request it was sent and its answer to it."""

    def __init__(self, pong=False):
        self.pong = pong
        self.me = self.wind = 0
        self.hand, self.packs, self.flowers = [], [], 0
        self.offered = None  # (player, tile) of the last discard
        self.request, self.answer = [], ""

    def learn(self, request, answer):
        """Update the state with one request and this bot's answer to it."""
        words = request.split()
        kind = words[0]
        if kind == "0":
            self.me, self.wind = int(words[1]), int(words[2])
        elif kind == "1":
            counts = [int(word) for word in words[1:5]]
            self.hand = words[5:18]
            self.flowers = counts[self.me]
        elif kind == "2":
            self.hand.append(words[1])
        elif kind == "3":
            self._move(int(words[1]), words[2], words[3:])
        self.request, self.answer = words, answer

    def _move(self, player, move, tiles):
        mine = player == self.me
        offered = self.offered
        self.offered = None
        if move == "BUHUA" and mine:
            self.flowers += 1
        elif move in ("PLAY", "PENG", "CHI"):
            if mine and move == "PENG":
                self._take([offered[1]] * 2)
                self.packs.append(("PENG", offered[1], (self.me - offered[0]) % 4))
            if mine and move == "CHI":
                middle = tiles[0]
                run = [middle[0] + str(int(middle[1]) + step) for step in (-1, 0, 1)]
                self.hand.append(offered[1])
                self._take(run)
                self.packs.append(("CHI", middle, int(offered[1][1]) - int(middle[1]) + 2))
            if mine:
                self._take([tiles[-1]])
            self.offered = (player, tiles[-1])
        elif move == "GANG" and mine:
            if self.request[0] == "2":  # after its own draw: a concealed kong of the tile it named
                tile = self.answer.split()[1]
                self._take([tile] * 4)
                self.packs.append(("GANG", tile, 0))
            else:
                self._take([offered[1]] * 3)
                self.packs.append(("GANG", offered[1], (self.me - offered[0]) % 4))
        elif move == "BUGANG":
            if mine:
                self._take([tiles[0]])
                self.packs = [("GANG", tile, offer) if kind == "PENG" and tile == tiles[0] else (kind, tile, offer)
                              for kind, tile, offer in self.packs]
            self.offered = (player, tiles[0])

    def _take(self, tiles):
        for tile in tiles:
            self.hand.remove(tile)

    def fans(self, tile, self_drawn, robbing=False):
        """The fans of a win on `tile` without the flowers, 0 if it is no win (or no calculator)."""
        if MahjongFanCalculator is None:
            return 0
        hand = list(self.hand)
        if self_drawn:
            hand.remove(tile)
        try:
            result = MahjongFanCalculator(
                pack=tuple(self.packs), hand=tuple(hand), winTile=tile, flowerCount=self.flowers,
                isSelfDrawn=self_drawn, is4thTile=False, isAboutKong=robbing, isWallLast=False,
                seatWind=self.me, prevalentWind=self.wind)
        except Exception:  # noqa: BLE001  (the calculator raises on a hand that is not a win)
            return 0
        return sum(fans for fans, name in result if name != "花牌")

    def choose(self):
        """The answer to the last request learned."""
        words = self.request
        if words[0] == "2":
            return "HU" if self.fans(words[1], self_drawn=True) >= 8 else f"PLAY {words[1]}"
        if words[0] != "3" or int(words[1]) == self.me:
            return "PASS"
        move, tile = words[2], words[-1]
        if move in ("PLAY", "PENG", "CHI"):
            if self.fans(tile, self_drawn=False) >= 8:
                return "HU"
            if self.pong and self.hand.count(tile) >= 2:
                rest = list(self.hand)
                rest.remove(tile)
                rest.remove(tile)
                return f"PENG {rest[0]}"
        if move == "BUGANG" and self.fans(tile, self_drawn=False, robbing=True) >= 8:
            return "HU"
        return "PASS"


def main():
    keep_running = "--keep-running" in sys.argv[1:]
    table = Table(pong="--pong" in sys.argv[1:])
    first = sys.stdin.readline()
    if not first.strip():
        return
    turns = int(first)
    lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2 * turns - 1)]
    for turn in range(turns - 1):
        table.learn(lines[2 * turn], lines[2 * turn + 1])
    request = lines[-1]
    while True:
        table.learn(request, "")
        answer = table.choose()
        table.answer = answer
        if not keep_running:
            print(answer, flush=True)
            return
        print(answer)
        print(KEEP_RUNNING, flush=True)
        request = sys.stdin.readline()
        if not request:
            return
        request = request.rstrip("\r\n")


if __name__ == "__main__":
    main()
