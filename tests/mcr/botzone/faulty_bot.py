"""A Botzone bot, started afresh each turn, that misbehaves the first time it is sent one of its own draws
(`2 TILE`) and answers like the example bot everywhere else (PASS): `crash` exits without a word, `illegal`
declares a win it does not have, `malformed` answers a line no request allows, `slow` never answers."""

import sys
import time

BEHAVIOUR = sys.argv[1]

turns = int(sys.stdin.readline())
lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2 * turns - 1)]
request = lines[-1].split()
if request[0] != "2":
    print("PASS", flush=True)
elif BEHAVIOUR == "crash":
    sys.exit(3)
elif BEHAVIOUR == "illegal":
    print("HU", flush=True)
elif BEHAVIOUR == "malformed":
    print("HELLO THERE", flush=True)
elif BEHAVIOUR == "slow":
    time.sleep(3600)  # mjsim ends it when the time limit passes
