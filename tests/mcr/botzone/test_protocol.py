"""Botzone's Chinese Standard Mahjong protocol (sim/mcr/botzone/protocol.py) against its documentation.

The independent reason for every expected line here is the protocol as Botzone documents it: the request and
response tables of its wiki page "Chinese-Standard-Mahjong", its judge (ailab-pku/Chinese-Standard-Mahjong,
judge/main.cpp), and, for the two modes, its "Bot" page and its own local runner (ailab-pku/botzone-local,
botzone/online/bot.py). docs/botzone.md lists what was checked where.
"""

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim.core.notation import tile_name as mpsz_name
from sim.mcr.botzone.protocol import (
    KEEP_RUNNING,
    AddedKong,
    AddedKonged,
    AnswerError,
    BotzoneConversation,
    BotzoneError,
    BotzoneTranscript,
    Chow,
    Chowed,
    ConcealedKong,
    ConcealedKonged,
    Dealt,
    Discard,
    Discarded,
    Drew,
    Kong,
    Konged,
    Pass,
    Pong,
    Ponged,
    ReplacedFlower,
    Win,
    Window,
    Won,
    ends_turn,
    keep_running_input,
    read_output,
    restart_input,
    tile_kind,
    tile_name,
)

BOT = Path(__file__).resolve().parents[3] / "examples" / "players" / "botzone_bot.py"
ANSWER_SECONDS = 60  # a generous bound on one answer of the bot (a fresh Python process on a busy machine)


def tiles(text: str) -> tuple[int, ...]:
    return tuple(tile_kind(name) for name in text.split())


# Tiles.


def test_every_tile_kind_and_flower_round_trips_through_its_botzone_name():
    names = [tile_name(kind) for kind in range(42)]
    assert len(set(names)) == 42
    assert [tile_kind(name) for name in names] == list(range(42))


@pytest.mark.parametrize("mpsz, botzone", [
    ("1m", "W1"), ("9m", "W9"),  # W: 万
    ("1p", "B1"), ("9p", "B9"),  # B: 饼, which mjsim calls 筒 (p)
    ("1s", "T1"), ("9s", "T9"),  # T: 条
    ("1z", "F1"), ("2z", "F2"), ("3z", "F3"), ("4z", "F4"),  # F1-F4: 东南西北, as the judge's honours 1-4
    ("7z", "J1"), ("6z", "J2"), ("5z", "J3"),  # the judge's honours 5-7 are 中发白 (TILE_C, TILE_F, TILE_P)
    ("1f", "H1"), ("8f", "H8"),
])
def test_botzone_names_match_the_judges_suits_and_honours(mpsz, botzone):
    assert tile_name(tile_kind(botzone)) == botzone
    assert mpsz_name(tile_kind(botzone)) == mpsz


@pytest.mark.parametrize("name", ["W0", "w1", "B10", "T", "F5", "J4", "H9", "H0", " W1", "W1 ", "", "中", 1])
def test_a_name_that_is_no_tile_is_refused(name):
    with pytest.raises(BotzoneError, match="is not a tile name"):
        tile_kind(name)


@pytest.mark.parametrize("kind", [-1, 42, True, 1.0, "1"])
def test_a_kind_that_is_no_tile_is_refused(kind):
    with pytest.raises(BotzoneError, match="is not a tile kind"):
        tile_name(kind)


# Transcripts. Engine seat 1 deals, so Botzone numbers the seats 1, 2, 3, 0 as players 0, 1, 2, 3.

HANDS = (
    tiles("J1 J1 T7 W8 W8 W9 B2 B3 B4 T8 T9 F2 J3"),  # seat 0: Botzone's player 3
    tiles("W4 W5 W6 B1 B2 B3 T1 T2 T3 F3 F3 F4 F4"),  # seat 1: the dealer, player 0
    tiles("W1 W1 W2 W3 B5 B5 B5 B5 T7 T7 T7 F1 J1"),  # seat 2: player 1
    tiles("W1 W5 W6 W7 B6 B7 B8 T4 T5 T6 J2 J2 J3"),  # seat 3: player 2
)
FLOWERS = ((), tiles("H1"), (), tiles("H2 H3"))
DEAL = Dealt(dealer=1, round_wind=1, hands=HANDS, flowers=FLOWERS)
k = tile_kind
EVENTS = [
    DEAL,
    Drew(1, k("F2")), Discarded(1, k("W4")),  # the dealer's first turn
    Chowed(2, k("W3"), k("J1")),  # seat 2 chows W2 W3 W4 and throws J1
    Ponged(0, k("T7")),  # seat 0 pongs the J1 and throws T7
    Konged(2),  # seat 2 kongs the T7
    Drew(2, k("T1")), ConcealedKonged(2, k("B5")),  # its replacement, then a concealed kong
    ReplacedFlower(2, k("H4")), Drew(2, k("W1")), Discarded(2, k("F1")),  # a flower, its replacement, a discard
    Drew(3, k("W9")), Discarded(3, k("W1")),
    Ponged(2, k("T1")),  # seat 2 pongs the W1 and throws T1
    Drew(3, k("B9")), Discarded(3, k("B9")),
    Drew(0, k("F4")), Discarded(0, k("F4")),
    Drew(1, k("F3")), Discarded(1, k("F3")),
    Drew(2, k("T2")), AddedKonged(2, k("W1")),  # seat 2 adds its fourth W1 to its pong
    Drew(2, k("T3")), Won(2),
]

# Seat 2 (Botzone's player 1) is sent, from the wiki's request table:
SEAT_2_LINES = [
    "0 1 1",  # 0 playerID quan
    "1 1 0 2 0 W1 W1 W2 W3 B5 B5 B5 B5 T7 T7 T7 F1 J1 H1 H2 H3",  # flower counts of players 0-3, hand, flowers
    "3 0 DRAW", "3 0 PLAY W4",
    "3 1 CHI W3 J1",  # CHI: the run's middle tile, then the tile discarded
    "3 3 PENG T7",  # PENG: the tile discarded after the pong
    "3 1 GANG",
    "2 T1",
    "3 1 GANG",  # a concealed kong names no tile
    "3 1 BUHUA H4",
    "2 W1", "3 1 PLAY F1",
    "3 2 DRAW", "3 2 PLAY W1",
    "3 1 PENG T1",
    "3 2 DRAW", "3 2 PLAY B9",
    "3 3 DRAW", "3 3 PLAY F4",
    "3 0 DRAW", "3 0 PLAY F3",
    "2 T2", "3 1 BUGANG W1",
    "2 T3",  # and nothing for the win: the game is over
]
P, O, C = Window.PASS_ONLY, Window.OWN_DRAW, Window.CLAIM
SEAT_2_WINDOWS = [P, P, P, C, P, C, P, O, P, P, O, P, P, C, P, P, C, P, C, P, C, O, P, O]


def transcript_of(seat: int, events=EVENTS) -> BotzoneTranscript:
    transcript = BotzoneTranscript(seat)
    for event in events:
        transcript.feed(event)
    return transcript


def test_a_seat_is_sent_one_request_per_turn_as_the_wiki_writes_them():
    transcript = transcript_of(2)
    assert transcript.lines == SEAT_2_LINES
    assert [request.window for request in transcript.requests] == SEAT_2_WINDOWS


def test_a_seat_may_chow_only_the_discards_of_the_player_before_it():
    requests = transcript_of(2).requests
    may_chow = {request.line: request.may_chow for request in requests if request.window is Window.CLAIM}
    assert may_chow == {"3 0 PLAY W4": True, "3 3 PENG T7": False, "3 2 PLAY W1": False, "3 2 PLAY B9": False,
                        "3 3 PLAY F4": False, "3 0 PLAY F3": True}


def test_other_seats_see_a_draw_and_a_concealed_kong_without_their_tiles():
    lines = transcript_of(3).lines  # seat 3 is Botzone's player 2
    assert lines[:2] == ["0 2 1", "1 1 0 2 0 W1 W5 W6 W7 B6 B7 B8 T4 T5 T6 J2 J2 J3 H1 H2 H3"]
    assert lines[6:11] == ["3 1 GANG", "3 1 DRAW", "3 1 GANG", "3 1 BUHUA H4", "3 1 DRAW"]
    assert "T1" not in " ".join(lines[7:9]) and "B5" not in " ".join(lines[2:])


def test_the_other_seats_may_rob_an_added_kong_and_the_kong_seat_only_passes():
    for seat in range(4):
        request = next(r for r in transcript_of(seat).requests if r.line == "3 1 BUGANG W1")
        assert request.window is (Window.PASS_ONLY if seat == 2 else Window.ROB_KONG)


def test_every_seat_is_sent_the_same_moves_in_the_same_turns():
    transcripts = [transcript_of(seat) for seat in range(4)]
    assert len({len(transcript.lines) for transcript in transcripts}) == 1
    for turn in range(2, len(SEAT_2_LINES)):
        seen = {transcript.lines[turn] for transcript in transcripts}
        mover = SEAT_2_LINES[turn]
        if mover.startswith("2 ") or mover.endswith("DRAW"):  # the drawer sees its tile, the others DRAW
            assert len(seen) == 2 and any(line.endswith(" DRAW") for line in seen)
        else:
            assert seen == {mover}


def test_a_deal_dealt_by_seat_0_numbers_the_seats_as_they_are():
    transcript = BotzoneTranscript(0)
    transcript.feed(Dealt(0, 3, HANDS, FLOWERS))
    assert transcript.lines == ["0 0 3", "1 0 1 0 2 J1 J1 T7 W8 W8 W9 B2 B3 B4 T8 T9 F2 J3 H1 H2 H3"]


@pytest.mark.parametrize("events, message", [
    ([Drew(0, 1)], "before the deal"),
    ([DEAL, DEAL], "a second deal"),
    ([DEAL, Won(2), Drew(3, 1)], "after the deal was won"),
    ([DEAL, Konged(2)], "no discard of another seat to claim"),
    ([DEAL, Drew(1, 5), Discarded(1, 3), Ponged(1, 3)], "no discard of another seat to claim"),
    ([DEAL, Drew(3, 5), Discarded(3, 3), Chowed(2, 2, 3)], "not its left-hand neighbour"),
    ([DEAL, Drew(1, 5), Discarded(1, 3), Chowed(2, 5, 0)], "into no run"),
    ([DEAL, Drew(2, 5), Discarded(2, k("W9"))], "holds 0"),
    ([DEAL, Drew(2, 5), AddedKonged(2, k("T7"))], "a pong it does not have"),
    ([DEAL, Drew(2, k("H1"))], "not a tile kind of play"),
    ([DEAL, ReplacedFlower(2, 3)], "not a flower"),
    ([DEAL, Drew(4, 3)], "seat 4"),
    ([Dealt(1, 4, HANDS, FLOWERS)], "round wind"),
    ([Dealt(1, 0, HANDS[:3], FLOWERS)], "hands and flowers of 4 seats"),
    ([Dealt(1, 0, (HANDS[0], HANDS[1], HANDS[2][:12], HANDS[3]), FLOWERS)], "dealt 12 tiles"),
    ([DEAL, ("Drew", 2, 5)], "not an event"),
])
def test_an_event_the_protocol_cannot_express_is_refused(events, message):
    transcript = BotzoneTranscript(2)
    with pytest.raises(BotzoneError, match=message):
        for event in events:
            transcript.feed(event)


# Answers, at seat 2's requests (their numbers are positions in SEAT_2_LINES).


@pytest.mark.parametrize("index, line, action", [
    (0, "PASS", Pass()),
    (3, "CHI W3 J1", Chow(k("W3"), k("J1"))),  # the run W2 W3 W4 from player 0's W4
    (3, "CHI W3 W1", Chow(k("W3"), k("W1"))),
    (3, "PENG W1", None), (3, "HU", Win()), (3, "PASS", Pass()),
    (5, "GANG", Kong()),  # three T7 in hand
    (5, "PENG W1", Pong(k("W1"))),
    (7, "GANG B5", ConcealedKong(k("B5"))), (7, "PLAY T1", Discard(k("T1"))), (7, "HU", Win()),
    (13, "PENG T1", Pong(k("T1"))),
    (13, "GANG", Kong()),  # three W1: the two dealt and the one drawn
    (21, "BUGANG W1", AddedKong(k("W1"))), (21, "PLAY T2", Discard(k("T2"))),
    (23, "HU", Win()),
    (7, "PLAY  T1\r\n", Discard(k("T1"))),  # any run of spaces; the line's end is not part of the answer
])
def test_each_answer_the_wiki_lists_is_read_as_its_action(index, line, action):
    transcript = transcript_of(2)
    if action is None:
        with pytest.raises(AnswerError):
            transcript.parse_answer(line, index)
    else:
        assert transcript.parse_answer(line, index) == action


def test_the_seat_robbing_an_added_kong_answers_hu():
    transcript = transcript_of(3)
    index = transcript.lines.index("3 1 BUGANG W1")
    assert transcript.parse_answer("HU", index) == Win()
    assert transcript.parse_answer("PASS", index) == Pass()


@pytest.mark.parametrize("index, line, reason", [
    (3, "", "an empty line"),
    (3, "   ", "an empty line"),
    (3, "pass", "pass is not an answer here"),
    (3, "PLAY W4", "PLAY is not an answer here (allowed: PASS, HU, PENG, GANG or CHI)"),
    (3, "CHI W3", "CHI takes 2 tiles here, not 1"),
    (3, "CHI W3 J1 J1", "CHI takes 2 tiles here, not 3"),
    (3, "CHI W6 J1", "W6 is not the middle of a run holding W4"),
    (3, "CHI W4 J1", "the seat holds no W5 for the run"),
    (3, "CHI W3 T1", "after the chow the seat holds no T1"),
    (3, "CHI X3 J1", "'X3' is not a tile name"),
    (3, "PENG J1", "a pong needs 2 W4; the seat holds 0"),
    (3, "GANG", "a kong needs 3 W4; the seat holds 0"),
    (5, "CHI T8 J1", "only the player after the discarder may chow"),
    (5, "PENG H1", "H1 is a flower, never played"),
    (5, "BUGANG T7", "BUGANG is not an answer here"),
    (2, "HU", "HU is not an answer here (allowed: PASS)"),
    (4, "PENG J1", "PENG is not an answer here (allowed: PASS)"),  # its own chow: only PASS
    (7, "PASS", "PASS is not an answer here (allowed: PLAY, GANG, BUGANG or HU)"),
    (7, "PLAY", "PLAY takes 1 tile here, not 0"),
    (7, "PLAY W9", "the seat holds no W9"),
    (7, "GANG T7", "a kong needs 4 T7; the seat holds 0"),
    (7, "GANG", "GANG takes 1 tile here, not 0"),
    (7, "BUGANG T1", "the seat has no pong of T1 to add to"),
    (13, "PENG T9", "after the pong the seat holds no T9"),
    (13, "CHI W2 J1", "only the player after the discarder may chow"),
])
def test_an_answer_the_request_does_not_allow_is_one_error_line_saying_why(index, line, reason):
    transcript = transcript_of(2)
    with pytest.raises(AnswerError) as error:
        transcript.parse_answer(line, index)
    message = str(error.value)
    assert "\n" not in message and reason in message
    assert message.startswith(f"answered {line.strip()!r} to {SEAT_2_LINES[index]!r}: ")


def test_a_long_answer_is_quoted_short():
    with pytest.raises(AnswerError) as error:
        transcript_of(2).parse_answer("PLAY " + "W1" * 5000, 7)
    assert len(str(error.value)) < 300


# The two modes, as text.


def test_a_bot_started_afresh_is_given_the_turn_number_and_the_history():
    # The Bot page: n; requests and responses in turn, 2n - 1 lines; then the data line and global data.
    assert restart_input(["0 1 1"], []) == "1\n0 1 1\n"
    assert restart_input(["0 1 1", "1 0 0 0 0 W1", "2 T6"], ["PASS", "PASS"], "saved", "kept\nlines") == \
        "3\n0 1 1\nPASS\n1 0 0 0 0 W1\nPASS\n2 T6\nsaved\nkept\nlines\n"
    with pytest.raises(BotzoneError, match="2 requests need 1 answers, not 2"):
        restart_input(["0 1 1", "2 T6"], ["PASS", "PASS"])


def test_a_running_bot_is_given_the_new_request_alone():
    assert keep_running_input("3 2 PLAY T1") == "3 2 PLAY T1\n"


def test_a_bots_output_is_its_answer_then_debug_data_and_global_data():
    assert read_output("PLAY T6\n") == ("PLAY T6", "", "", "", False)
    assert read_output("PLAY T6\r\nthinking\r\nsaved\r\ng1\r\ng2\r\n") == ("PLAY T6", "thinking", "saved", "g1\ng2",
                                                                            False)
    assert read_output(f"PASS\n{KEEP_RUNNING}\n") == ("PASS", "", "", "", True)
    assert read_output("") == ("", "", "", "", False)
    assert ends_turn(KEEP_RUNNING + "\r\n") and not ends_turn("PASS\n")


class ScriptedBot:
    """A bot as a function of the request it is asked, for the conversation's bookkeeping without processes."""

    def __init__(self, keep_running: bool, answers: dict):
        self.keep_running, self.answers, self.inputs = keep_running, answers, []

    def run(self, step):
        self.inputs.append(step)
        lines = step.text.split("\n")
        request = lines[2 * int(lines[0]) - 1] if step.new_process else lines[0]
        answer = self.answers.get(request, "PASS")
        return answer + "\n" + (KEEP_RUNNING + "\n" if self.keep_running else "")


def converse(conversation, bot):
    while (step := conversation.next_step()) is not None:
        conversation.take_output(bot.run(step))
    return conversation.action()


def test_a_bot_that_exits_is_started_at_turn_1_then_only_where_it_has_a_choice():
    transcript = transcript_of(2, EVENTS[:3])  # up to player 0's W4, which seat 2 may chow
    conversation = BotzoneConversation(transcript)
    bot = ScriptedBot(False, {"3 0 PLAY W4": "CHI W3 J1"})
    assert converse(conversation, bot) == Chow(k("W3"), k("J1"))
    assert [step.new_process for step in bot.inputs] == [True, True]
    assert bot.inputs[0].text == "1\n0 1 1\n"
    assert bot.inputs[1].text == "4\n" + "\nPASS\n".join(SEAT_2_LINES[:4]) + "\n"
    assert conversation.responses == ["PASS", "PASS", "PASS", "CHI W3 J1"]


def test_a_bot_that_keeps_running_is_sent_every_request_in_turn():
    transcript = transcript_of(2, EVENTS[:3])
    conversation = BotzoneConversation(transcript)
    bot = ScriptedBot(True, {"3 0 PLAY W4": "PASS"})
    assert converse(conversation, bot) == Pass()
    assert [step.new_process for step in bot.inputs] == [True, False, False, False]
    assert [step.text for step in bot.inputs] == ["1\n0 1 1\n"] + [line + "\n" for line in SEAT_2_LINES[1:4]]
    transcript.feed(EVENTS[3])
    transcript.feed(EVENTS[4])
    assert converse(conversation, bot) == Pass()  # "3 1 CHI W3 J1" then "3 3 PENG T7", one line each
    assert [step.text for step in bot.inputs[4:]] == ["3 1 CHI W3 J1\n", "3 3 PENG T7\n"]


def test_a_running_bot_that_answers_more_than_pass_where_only_pass_is_allowed_is_refused():
    conversation = BotzoneConversation(transcript_of(2, EVENTS[:3]))
    bot = ScriptedBot(True, {"3 0 DRAW": "PENG W1"})
    with pytest.raises(AnswerError, match="answered 'PENG W1' to '3 0 DRAW': PENG is not an answer here"):
        converse(conversation, bot)


def test_a_bot_that_saves_data_gets_it_back_when_started_afresh():
    conversation = BotzoneConversation(transcript_of(2, EVENTS[:3]), globaldata="from last game")
    texts = []

    def run(step):
        texts.append(step.text)
        return "PASS\ndebug\nturn data\n"

    while (step := conversation.next_step()) is not None:
        conversation.take_output(run(step))
    assert texts[0] == "1\n0 1 1\nfrom last game\n"  # no data yet at turn 1, and the global data from before
    assert texts[1].endswith("3 0 PLAY W4\nturn data\nfrom last game\n")


# The example bot, written from the documentation, in a process: every request of a scripted deal, in both modes.

# Seat 2 holds 一气通贯 in 万 with B1 B1 B1 and waits on F1 alone (清龙 16 fans); it draws, plays what it draws,
# sees the others draw, discard, chow, pong, kong and add a kong, and wins on the F1 it draws last.
BOT_HANDS = (
    tiles("J1 J1 T7 W8 T6 T6 B2 B3 B4 T8 T9 F2 J3"),
    tiles("W4 W5 W6 W7 B1 B2 B3 T1 T2 T3 F3 F4 F4"),
    tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 F1"),
    tiles("W1 W5 W6 W7 B6 B7 B8 T4 T5 J2 J2 J2 J3"),
)
BOT_EVENTS = [
    Dealt(1, 0, BOT_HANDS, FLOWERS),
    Drew(1, k("F3")), Discarded(1, k("B1")),  # seat 2 could pong it (with --pong)
    Drew(2, k("T5")), Discarded(2, k("T5")),
    Drew(3, k("J2")), ConcealedKonged(3, k("J2")), ReplacedFlower(3, k("H5")), Drew(3, k("T6")),
    Discarded(3, k("T6")), Ponged(0, k("W8")), Chowed(1, k("W7"), k("T3")),
    Drew(2, k("W9")), Discarded(2, k("W9")),
    Drew(3, k("J3")), Discarded(3, k("J3")), Drew(0, k("T6")), AddedKonged(0, k("T6")), Drew(0, k("T2")),
    Discarded(0, k("T2")), Drew(1, k("B9")), Discarded(1, k("B9")),
    ReplacedFlower(2, k("H6")), Drew(2, k("F1")),
]


def expected_answers(transcript):
    """The documented policy: HU on the winning F1, PLAY the drawn tile, PASS everywhere else."""
    answers = []
    for line in transcript.lines:
        if line == "2 F1":
            answers.append("HU")
        elif line.startswith("2 "):
            answers.append("PLAY " + line.split()[1])
        else:
            answers.append("PASS")
    return answers


def test_the_bots_deal_holds_every_kind_of_move():
    moves = {line.split()[2] for line in transcript_of(2, BOT_EVENTS).lines if line.startswith("3 ")}
    assert moves == {"DRAW", "PLAY", "PENG", "CHI", "GANG", "BUGANG", "BUHUA"}


class BotProcess:
    """The example bot run as Botzone runs it: a fresh process per turn, or one that keeps running."""

    def __init__(self, *flags):
        self.command = [sys.executable, str(BOT), *flags]
        self.process = None

    def run(self, step) -> str:
        if step.new_process:
            self.close()
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            bufsize=0)
        self.process.stdin.write(step.text.encode())
        return self._read_turn()

    def _read_turn(self) -> str:
        """What the bot writes up to its KEEP_RUNNING line or its exit: waits for output, never a fixed time."""
        descriptor, text = self.process.stdout.fileno(), b""
        deadline = time.monotonic() + ANSWER_SECONDS
        while True:
            if text.endswith(b"\n") and ends_turn(text.decode().split("\n")[-2]):
                return text.decode()
            left = deadline - time.monotonic()
            assert left > 0, f"the bot wrote no answer in {ANSWER_SECONDS} s"
            if select.select([descriptor], [], [], left)[0]:
                chunk = os.read(descriptor, 65536)
                if not chunk:  # it exited: its output is complete
                    self.process.wait()
                    return text.decode()
                text += chunk

    def close(self):
        if self.process is not None:
            self.process.stdin.close()
            self.process.stdout.close()
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def bot_process():
    processes = []

    def start(*flags):
        processes.append(BotProcess(*flags))
        return processes[-1]

    yield start
    for process in processes:
        process.close()


@pytest.mark.parametrize("flags, keeps_running", [((), False), (("--keep-running",), True)])
def test_the_example_bot_answers_every_request_of_a_deal_legally(bot_process, flags, keeps_running):
    transcript = BotzoneTranscript(2)
    conversation = BotzoneConversation(transcript)
    bot = bot_process(*flags)
    answers, new_processes = [], []
    for event in BOT_EVENTS:
        transcript.feed(event)
        while (step := conversation.next_step()) is not None:  # the bot is asked at every request
            new_processes.append(step.new_process)
            conversation.take_output(bot.run(step))
        if transcript.requests:
            answers.append(conversation.action())
    assert conversation.keep_running is keeps_running
    assert new_processes == [True] + [not keeps_running] * (len(new_processes) - 1)
    assert conversation.responses == expected_answers(transcript)
    assert answers[-1] == Win()  # 清龙 and more on the F1 drawn


def test_the_example_bot_started_afresh_only_where_it_has_a_choice_answers_as_when_asked_every_turn(bot_process):
    transcript = BotzoneTranscript(2)
    conversation = BotzoneConversation(transcript)
    bot = bot_process()
    for event in BOT_EVENTS:
        transcript.feed(event)
        if transcript.requests and transcript.requests[-1].window is not Window.PASS_ONLY:
            while (step := conversation.next_step()) is not None:
                conversation.take_output(bot.run(step))
            conversation.action()
    assert conversation.responses == expected_answers(transcript)[: len(conversation.responses)]
    assert conversation.responses[-1] == "HU"


def test_the_example_bot_pongs_when_told_to_and_names_its_discard(bot_process):
    transcript = BotzoneTranscript(2)
    conversation = BotzoneConversation(transcript)
    bot = bot_process("--keep-running", "--pong")
    for event in BOT_EVENTS[:3]:
        transcript.feed(event)
    while (step := conversation.next_step()) is not None:
        conversation.take_output(bot.run(step))
    assert conversation.action() == Pong(k("W1"))  # holds B1 B1 B1, pongs player 0's B1, plays its first tile
    transcript.feed(Ponged(2, k("W1")))
    transcript.feed(Drew(3, k("W2")))
    while (step := conversation.next_step()) is not None:
        conversation.take_output(bot.run(step))
    assert conversation.responses[-2:] == ["PASS", "PASS"]
