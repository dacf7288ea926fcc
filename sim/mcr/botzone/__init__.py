"""Botzone's bots at the 国标 (MCR) table: a program written for Botzone's game "Chinese Standard Mahjong" (the
IJCAI competitions' game) plays a seat unchanged, chosen by the player text ``botzone:COMMAND``
(docs/botzone.md).

- ``protocol``: the protocol and nothing of the game: tile names, the requests one seat is sent, the answers
  each request allows, and the conversation in Botzone's two modes (started afresh, or kept running);
- ``seat``: ``BotzoneSeat``, the seat that runs the program: it reads the deal's events as they happen,
  feeds them to the protocol, runs the program within the time limit and turns its answer into one of the
  legal actions the engine offers.
"""
