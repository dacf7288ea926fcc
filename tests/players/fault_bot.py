#!/usr/bin/env python3
"""An external bot that misbehaves on purpose: `fault_bot.py MODE` answers its first decision of each odd
deal with a malformed line (malformed), an action that is not legal (illegal), nothing for a long time
(late), by exiting (crash), or by no longer reading its input while it repeats that answer for ever
(deaf: the requests fill the pipe); otherwise it plays the first legal action."""

import json
import sys
import time

mode = sys.argv[1]
faulty_deal = False
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "reset":
        faulty_deal = request["deal"] % 2 == 1
        continue
    if faulty_deal:
        faulty_deal = False
        if mode == "malformed":
            print("this is not json", flush=True)
            continue
        if mode == "illegal":
            print(json.dumps({"action": "discard 9z"}), flush=True)
            continue
        if mode == "late":
            time.sleep(30)
        if mode == "crash":
            sys.exit(3)
        if mode == "deaf":
            while True:
                print(json.dumps({"action": request["legal"][0]}), flush=True)
    print(json.dumps({"action": request["legal"][0]}), flush=True)
