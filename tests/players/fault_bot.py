#!/usr/bin/env python3
"""An external bot that misbehaves on purpose: `fault_bot.py MODE` answers its first decision of each odd
deal with a malformed line (malformed), an action that is not legal (illegal), nothing for a long time
(late), by exiting (crash), by no longer reading its input while it repeats that answer for ever (deaf:
the requests fill the pipe), with JSON nested 1,000 deep (nested), with a reply of 3 MB (huge), or with
its answer written twice (twice); in mode unsolicited it writes a line after each odd deal's reset, which
nobody asked for. Otherwise it plays the first legal action.

Modes that test the end of its process: stubborn ignores SIGINT and SIGTERM and does not exit when its
input ends; orphan does the same and starts a child that does too. Where the environment names a folder
(MJSIM_TEST_PIDS), each writes its pid there (and the orphan its child's), so that a test can check that
none outlives mjsim."""

import json
import os
import signal
import subprocess
import sys
import time

mode = sys.argv[1]
folder = os.environ.get("MJSIM_TEST_PIDS")
if mode in ("stubborn", "orphan"):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pids = [os.getpid()]
    if mode == "orphan":
        child = subprocess.Popen([sys.executable, "-c", "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                                  "signal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(600)"])
        pids.append(child.pid)
    if folder:
        with open(os.path.join(folder, f"{os.getpid()}.pids"), "w") as stream:
            stream.write(" ".join(map(str, pids)))
faulty_deal = False
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "reset":
        faulty_deal = request["deal"] % 2 == 1
        if faulty_deal and mode == "unsolicited":
            print(json.dumps({"hello": "nobody asked"}), flush=True)
        continue
    answer = json.dumps({"action": request["legal"][0]})
    if faulty_deal:
        faulty_deal = False
        if mode == "malformed":
            print("this is not json", flush=True)
            continue
        if mode == "illegal":
            print(json.dumps({"action": "discard 9z"}), flush=True)
            continue
        if mode == "nested":
            print("[" * 1000 + "]" * 1000, flush=True)
            continue
        if mode == "huge":
            print(json.dumps({"action": request["legal"][0], "padding": "x" * 3_000_000}), flush=True)
            continue
        if mode == "twice":
            print(answer + "\n" + answer, flush=True)
            continue
        if mode == "late":
            time.sleep(30)
        if mode == "crash":
            sys.exit(3)
        if mode == "deaf":
            while True:
                print(answer, flush=True)
    print(answer, flush=True)
if mode in ("stubborn", "orphan"):
    time.sleep(600)  # its input has ended, and it does not leave
