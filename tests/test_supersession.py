"""Facts change, and the newer one wins: a memory that gives a new value for what an older one
said about the same subject supersedes it (graphmem/supersession.py); unrelated facts never
retire each other; recall reads the present first and the past when asked; forgetting and
ingesting out of order leave the chain as if the memories had been said in order."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.updates import PairFigures, measure
from graphmem import Memory
from graphmem.cli import main
from graphmem.errors import InputError
from graphmem.ingest.claims import DOSE_UNITS, MORE
from graphmem.ingest.extract import extract
from graphmem.supersession import DOSE_VALUE, SCHEDULED

DATA = Path(__file__).parent / "data"
UPDATES = DATA / "updates.jsonl"
JAN, JUN, DEC = (datetime(2024, m, 5, 9, tzinfo=timezone.utc) for m in (1, 6, 12))


def _say(mem: Memory, user: str, text: str, at: datetime, speaker: str = "Robin") -> str:
    return mem.add([(speaker, text)], user=user, at=at).memory_ids[0]


def _supersedes(mem: Memory, user: str, newer: str, older: str) -> bool:
    return any(v.uid == newer and older in v.supersedes for v in mem.history(newer, user=user))


def _pairs(mem: Memory, user: str, path: Path, ask: bool = False) -> PairFigures:
    """A set of pairs, each said months apart into a user of its own (bench/updates.py), with
    what it got wrong shown; no Dense figure is asserted, so none is counted."""
    figures = measure(mem, path, user, ask=ask, dense=False)
    assert figures.updates >= 30 and figures.unrelated >= 30
    print(f"{path.name}: updates linked {figures.share(figures.linked, 'update'):.1%}, unrelated linked (false) "
          f"{figures.share(figures.linked, 'unrelated'):.1%}" + "".join(f"; {w}" for w in figures.mislinked + figures.wrong))
    return figures


def test_the_update_set_links_updates_and_leaves_unrelated_facts_alone(mem, user):
    """tests/data/updates.jsonl: pairs of a fact and its update, and pairs of unrelated facts
    about the same person."""
    figures = _pairs(mem, user, UPDATES)
    assert figures.updates >= 50 and figures.unrelated >= 50
    assert figures.share(figures.linked, "update") >= 0.9
    assert figures.share(figures.linked, "unrelated") <= 0.05


@pytest.mark.parametrize("name, linked, answered, kept",
                         [("updates_unseen.jsonl", 0.3, 0.9, 0.95), ("updates_unseen_chat.jsonl", 0.21, 0.91, 0.9),
                          ("updates_unseen_mixed.jsonl", 0.31, 0.95, 0.96),
                          ("updates_unseen_contrast.jsonl", 0.06, 0.7, 0.84),
                          ("updates_unseen_implied.jsonl", 0.03, 0.43, 0.93),
                          ("updates_unseen_whose.jsonl", 0.2, 0.73, 0.66),
                          ("updates_unseen_varied.jsonl", 0.15, 0.7, 0.82),
                          ("updates_unseen_varied2.jsonl", 0.07, 0.75, 0.82),
                          ("updates_unseen_people.jsonl", 0.12, 0.85, 0.94),
                          ("updates_unseen_passing.jsonl", 0.06, 0.42, 0.88)])
def test_updates_written_by_someone_who_never_read_the_claim_readings(mem, user, name, linked, answered, kept):
    """Pairs written, without seeing graphmem, by someone asked for updates and look-alike facts
    in the words people use with an assistant (the second set: long messages that end in a
    request, as in BEAM; the third: both kinds; the fourth: look-alikes that name each other for
    contrast; the fifth: changes only implied; the sixth, 30 of each kind with their questions:
    look-alikes of four sorts: another's thing, another of one's own, a thing named for contrast,
    another aspect; the seventh and eighth, 40 of each kind with their questions, in three styles
    and many sorts of change and look-alike; the ninth, 40 of each kind with their questions:
    look-alikes told of someone close to the user, and updates that name someone; the tenth, 50 of
    each kind with their questions: updates said in passing, many with no word of change, and
    look-alikes of every sort above, in everyday, health, family, work and software topics), and a question
    for each written later by another
    who had not seen the code either (the sixth's to tenth's by their writers); each measured
    before and after a round of readings it did not choose (bench/README.md, "Supersession on
    pairs written without the code"). Most updates
    said so freely are still not linked, and recall answers some of those from the messages
    alone; the floors are what they reach, so that a change that does worse shows (the fifth's
    answered floor two updates lower: 23 of 60 on one machine's CPU, 24 on the others, and 22
    once in a whole run of the suite on this machine, where the set alone gives 23 every time).
    The answered floors that a change told in other words raised (recency.told_anew, bench/
    README.md "A change told in other words") are one update below what they reach here, for the
    arithmetic's small differences between CPUs; the sixth's look-alikes kept went 21 → 20 of 30
    with it ("the load balancer's TLS cert" changed, not its region)."""
    figures = _pairs(mem, user, DATA / name, ask=True)
    assert figures.share(figures.linked, "update") >= linked
    assert figures.share(figures.linked, "unrelated") <= 0.05
    assert figures.share(figures.answered, "update") >= answered
    assert figures.share(figures.answered, "unrelated") >= kept


def test_recall_answers_the_present_with_the_current_fact_and_keeps_the_old_one_below(mem, user):
    paris = _say(mem, user, "I live in Paris.", JAN, "Sam")
    _say(mem, user, "I adopted a cat named Miso from the shelter.", JAN.replace(day=9), "Sam")
    _say(mem, user, "Work has been busy with the product launch.", JUN.replace(day=1), "Sam")
    berlin = _say(mem, user, "I moved to Berlin last month.", JUN, "Sam")
    now = mem.recall("Where do I live?", user=user, asker="Sam")
    order = [m.uid for m in now.memories]
    assert order.index(berlin) < order.index(paris)
    old = next(m for m in now.memories if m.uid == paris)
    assert old.valid_until is not None and old.valid_until.startswith("2024-06-05") and old.superseded_by == berlin
    assert "in Paris. (superseded 2024-06-05)" in now.context()
    before = mem.recall("Where did I live before?", user=user, asker="Sam")
    order = [m.uid for m in before.memories]
    assert order.index(paris) < order.index(berlin)


def test_a_question_about_a_time_it_names_gets_the_fact_that_held_then(mem, user):
    """"Where did I live in September 2024?" asks for the version said by the end of September
    and not superseded by then: of Paris (January), Berlin (June) and Paris again (December),
    Berlin; a memory superseded only in part (a new employer) still answers for its time."""
    paris = _say(mem, user, "I live in Paris.", JAN, "Sam")
    berlin = _say(mem, user, "I moved to Berlin.", JUN, "Sam")
    back = _say(mem, user, "I moved back to Paris.", DEC, "Sam")
    for when, held in [("March 2024", paris), ("September 2024", berlin), ("2025", back)]:
        got = mem.recall(f"Where did I live in {when}?", user=user, asker="Sam")
        assert got.memories[0].uid == held, when
        assert any(note.startswith(f"asks how things stood {when}") for note in got.analysis.notes)
    other = f"{user}-work"
    acme = _say(mem, other, "I work at Acme as a designer.", JAN, "Sam")
    globex = _say(mem, other, "I left Acme and joined Globex as a design lead.", JUN, "Sam")
    for when, held in [("May 2024", acme), ("2025", globex)]:
        assert mem.recall(f"Where did I work in {when}?", user=other, asker="Sam").memories[0].uid == held, when
    before = mem.recall("Where did I live before June 2024?", user=user, asker="Sam")  # reads the past
    assert before.memories[0].uid == paris
    assert not any(note.startswith("asks how things stood") for note in before.analysis.notes)
    # a date without a year is read in the year the question is asked: a history replayed later says when
    for asked, held in [(datetime(2024, 12, 20), paris), (datetime(2025, 1, 3, tzinfo=timezone.utc), back)]:
        got = mem.recall("Where did I live in March?", user=user, asker="Sam", asked_at=asked)
        assert got.memories[0].uid == held, asked
    with pytest.raises(InputError, match="asked_at must be a datetime"):
        mem.recall("Where did I live in March?", user=user, asked_at="2024-12-20")


def test_where_does_maya_work_now(mem, user):
    acme = _say(mem, user, "Maya works at Acme Corp as an analyst.", JAN, "Robin")
    for day, text in enumerate(["Maya loves climbing on weekends.", "Maya's sister visited from Lyon.",
                                "Maya said the Acme Corp office has a great cafeteria."], start=10):
        _say(mem, user, text, JAN.replace(day=day), "Robin")
    initech = _say(mem, user, "Maya left Acme Corp and joined Initech in June.", JUN, "Robin")
    found = [m.uid for m in mem.recall("Where does Maya work now?", user=user).memories]
    assert found[0] == initech and acme in found[1:]


def test_history_shows_each_version_with_its_validity(mem, user):
    first = _say(mem, user, "I live in Paris.", JAN)
    second = _say(mem, user, "I moved to Berlin.", JUN)
    third = _say(mem, user, "I moved back to Paris.", DEC)
    versions = mem.history(second, user=user)
    assert [v.uid for v in versions] == [first, second, third]
    assert [v.valid_until[:10] if v.valid_until else None for v in versions] == ["2024-06-05", "2024-12-05", None]
    assert versions[1].supersedes == [first] and versions[2].supersedes == [second]
    assert versions[2].current and not versions[0].current
    assert mem.history("no-such-memory", user=user) == []


def test_a_memory_that_said_two_things_is_superseded_only_in_what_changed(mem, user):
    """A new employer retires what a memory said of the employer, not where it says Robin
    lives: each fact's versions are its own, and recall does not call a half-current memory
    outdated."""
    paris = _say(mem, user, "I live in Paris.", JAN)
    both = _say(mem, user, "I moved to Berlin and I work at Google now.", JUN)
    apple = _say(mem, user, "I now work at Apple.", DEC)
    assert [v.uid for v in mem.history(paris, user=user)] == [paris, both]
    assert [(v.uid, v.valid_until[:10] if v.valid_until else None) for v in mem.history(apple, user=user)] \
        == [(both, "2024-12-05"), (apple, None)]
    assert [v.uid for v in mem.history(both, user=user)] == [paris, both, apple]
    got = mem.recall("Where do I live?", user=user, asker="Robin", k=3)
    assert got.memories[0].uid == both
    assert got.memories[0].valid_until is None and got.memories[0].partly_superseded.startswith("2024-12-05")
    assert "Robin: I moved to Berlin and I work at Google now. (superseded in part 2024-12-05)" in got.context()
    assert "(superseded 2024-06-05)" in next(m for m in got.memories if m.uid == paris).context_line()


def test_a_change_of_one_thing_a_memory_said_is_no_version_of_the_other_however_now_is_said(mem, user):
    """Where Robin lives is asked: a new employer, said with "now" at the end of its clause or
    inside it, retired only what the Berlin memory said of the employer, and the reading of
    versions at recall does not put it above that memory either (the claims say what each asks)."""
    for i, apple in enumerate(["I work at Apple now.", "I now work at Apple."]):
        who = f"{user}-{i}"
        _say(mem, who, "I live in Paris.", JAN)
        both = _say(mem, who, "I moved to Berlin and I work at Google now.", JUN)
        later = _say(mem, who, apple, DEC)
        assert _supersedes(mem, who, later, both)
        assert mem.recall("Where do I live?", user=who, asker="Robin", k=3).memories[0].uid == both, apple
        assert mem.recall("Where do I work?", user=who, asker="Robin", k=3).memories[0].uid == later, apple


def test_what_a_partly_superseded_memory_still_says_has_its_versions_read_at_recall(mem, user):
    """A link retires where a memory said Robin lives, not where it says Robin works. A later
    change of employer that no link joined to it is read at recall, as it is for a memory no
    link touched: "Where do I work now?" gets the new employer first."""
    acme = _say(mem, user, "I live in Paris and work at Acme as a nurse.", JAN)
    berlin = _say(mem, user, "We moved to Berlin last week! Still at Acme though.", JUN)
    zalando = _say(mem, user, "No more Acme for me, I switched to Zalando.", DEC)
    assert _supersedes(mem, user, berlin, acme) and not _supersedes(mem, user, zalando, acme)
    found = [m.uid for m in mem.recall("Where do I work now?", user=user, asker="Robin", k=3).memories]
    assert found[:2] == [zalando, acme]


def test_a_memory_retired_in_all_it_said_is_answered_by_the_version_of_what_is_asked(mem, user):
    """Where Robin lives and where Robin works each have a newer version: "Where do I work now?"
    gets the new employer first, not the new home."""
    acme = _say(mem, user, "I live in Paris and work at Acme as a nurse.", JAN)
    berlin = _say(mem, user, "We moved to Berlin last week! Still at Acme though.", JUN)
    zalando = _say(mem, user, "I quit Acme, starting at Zalando on Monday.", DEC)
    assert _supersedes(mem, user, berlin, acme) and _supersedes(mem, user, zalando, acme)
    assert mem.recall("Where do I work now?", user=user, asker="Robin", k=3).memories[0].uid == zalando
    assert mem.recall("Where do I live now?", user=user, asker="Robin", k=3).memories[0].uid == berlin


def test_the_superseded_memories_are_listed_apart(mem, user, backend, home, monkeypatch):
    """What newer memories retired can be reviewed apart from the rest."""
    paris = _say(mem, user, "I live in Paris.", JAN)
    berlin = _say(mem, user, "I moved to Berlin.", JUN)
    jazz = _say(mem, user, "I like jazz.", DEC)
    assert [m.id for m in mem.memories(user, superseded=True)] == [paris]
    assert [m.id for m in mem.memories(user, superseded=False)] == [berlin, jazz]
    assert [m.id for m in mem.memories(user)] == [paris, berlin, jazz]
    with pytest.raises(InputError):
        mem.memories(user, superseded="yes")  # type: ignore[arg-type]
    if backend != "falkordb":
        return  # the command line below opens the embedded home
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    runner = CliRunner()
    listed = json.loads(runner.invoke(main, ["list", "--user", user, "--superseded", "--json"],
                                      catch_exceptions=False).output)
    current = json.loads(runner.invoke(main, ["list", "--user", user, "--current", "--json"],
                                       catch_exceptions=False).output)
    assert [m["id"] for m in listed] == [paris] and [m["id"] for m in current] == [berlin, jazz]


def test_a_link_read_wrongly_is_undone_by_hand_and_stays_undone(mem, user, backend, home, monkeypatch):
    """Two homes, not a move: the user says Berlin does not supersede Paris. Both then hold,
    a later claim about the same thing still retires both, and saying it again changes nothing."""
    paris = _say(mem, user, "I live in Paris.", JAN)
    added = mem.add([("Robin", "I moved to Berlin.")], user=user, at=JUN)
    berlin = added.memory_ids[0]
    assert added.superseded == [{"id": paris, "by": berlin}]  # what the agent is told, to check
    assert _supersedes(mem, user, berlin, paris)
    versions = mem.unsupersede(berlin, paris, user=user)
    assert [(v.uid, v.valid_until) for v in versions] == [(paris, None)]
    assert mem.unsupersede(berlin, paris, user=user) == versions  # idempotent
    assert mem.memories(user, superseded=True) == []
    got = mem.recall("Where do I live?", user=user, asker="Robin")
    assert all(m.valid_until is None for m in got.memories) and "superseded" not in got.context()
    lisbon = _say(mem, user, "I moved to Lisbon.", DEC)  # settles the residence again: the exception holds
    assert not _supersedes(mem, user, berlin, paris)
    assert _supersedes(mem, user, lisbon, paris) and _supersedes(mem, user, lisbon, berlin)
    mem.supersede(berlin, paris, user=user)  # said the other way again: the claims' link is back
    assert [(v.uid, (v.valid_until or "")[:10]) for v in mem.history(paris, user=user)] == \
        [(paris, "2024-06-05"), (berlin, "2024-12-05"), (lisbon, "")]
    if backend != "falkordb":
        return  # the command line below opens the embedded home
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    done = CliRunner().invoke(main, ["unsupersede", berlin, paris, "--user", user, "--json"], catch_exceptions=False)
    shown = json.loads(done.output)  # Berlin is there as Lisbon's other older version, superseding nothing
    assert done.exit_code == 0 and [(v["uid"], v["supersedes"]) for v in shown][:2] == [(paris, []), (berlin, [])]
    wrong = CliRunner().invoke(main, ["supersede", paris, berlin, "--user", user])
    assert wrong.exit_code == 1 and wrong.output == \
        f"Error: memory {paris!r} was said before memory {berlin!r}: give the newer one first\n"


def test_a_change_no_claim_read_is_linked_by_hand(mem, user):
    """A deadline moved, said in words no claim reads: the user (or their agent) links the two,
    and recall answers the present with the new deadline, the old one marked superseded, as for a
    link read at write time; a later memory settling its own claims leaves the link, and
    forgetting the newer memory leaves the older one current."""
    old = _say(mem, user, "I'm planning my portfolio website and the deadline for the first sprint is April 1, 2024.",
               JAN, "user")
    new = _say(mem, user, "I'm updating my portfolio website timeline: the new first sprint deadline is April 5, 2024.",
               JUN, "user")
    assert not _supersedes(mem, user, new, old)
    versions = mem.supersede(new, old, user=user)
    assert [(v.uid, (v.valid_until or "")[:10]) for v in versions] == [(old, "2024-06-05"), (new, "")]
    assert versions[0].superseded_by[0]["basis"] == "by hand" and versions[0].superseded_by[0]["key"] is None
    assert mem.supersede(new, old, user=user) == versions  # idempotent
    _say(mem, user, "I live in Paris.", DEC, "user")
    _say(mem, user, "I moved to Berlin.", DEC.replace(day=20), "user")
    got = mem.recall("What is the deadline for the first sprint of my portfolio website?", user=user, k=3)
    assert [m.uid for m in got.memories[:2]] == [new, old]
    assert got.context().splitlines()[1].endswith("(superseded 2024-06-05)")
    assert [m.id for m in mem.memories(user, superseded=True)][0] == old
    mem.forget(user, memories=[new])
    assert [(v.uid, v.valid_until) for v in mem.history(old, user=user)] == [(old, None)]


def test_a_link_set_by_hand_names_two_memories_of_the_user_in_the_order_said(mem, user):
    old = _say(mem, user, "I live in Paris.", JAN)
    new = _say(mem, user, "I moved to Berlin.", JUN)
    for newer, older, message in [(old, new, "was said before"), (new, new, "cannot supersede itself"),
                                  ("no-such-memory", old, "no memory 'no-such-memory'")]:
        for set_by_hand in (mem.supersede, mem.unsupersede):
            with pytest.raises(InputError, match=message):
                set_by_hand(newer, older, user=user)
    stranger = f"{user}-stranger"
    with pytest.raises(InputError, match="no memory"):
        mem.supersede(new, old, user=stranger)
    assert stranger not in [u["user"] for u in mem.users()]  # refused before anything was written
    assert _supersedes(mem, user, new, old)


def test_said_out_of_order_the_later_fact_still_wins(mem, user):
    """A transcript of June ingested before one of January: supersession follows when each
    was said, not when it was ingested."""
    berlin = _say(mem, user, "I moved to Berlin.", JUN)
    paris = _say(mem, user, "I live in Paris.", JAN)
    assert _supersedes(mem, user, berlin, paris) and not _supersedes(mem, user, paris, berlin)


def test_forgetting_a_version_settles_the_chain_without_it(mem, user):
    first = _say(mem, user, "I work at Google.", JAN)
    second = _say(mem, user, "I just started a new job at Stripe.", JUN)
    third = _say(mem, user, "I now work for a startup called Brightwave.", DEC)
    mem.forget(user, memories=[second])
    versions = mem.history(first, user=user)
    assert [v.uid for v in versions] == [first, third] and versions[0].superseded_by[0]["uid"] == third
    mem.forget(user, memories=[third])
    assert [(v.uid, v.valid_until) for v in mem.history(first, user=user)] == [(first, None)]


def test_a_retried_add_and_a_restatement_change_nothing(mem, user):
    paris = _say(mem, user, "I live in Paris.", JAN)
    again = _say(mem, user, "I still live in Paris, near the river.", JUN)
    assert _say(mem, user, "I still live in Paris, near the river.", JUN) == again
    assert [(v.uid, v.valid_until) for v in mem.history(paris, user=user)] == [(paris, None)]
    assert mem.history(again, user=user)[0].supersedes == []


@pytest.mark.parametrize("speaker", ["assistant"])
def test_an_assistant_claims_nothing_about_the_user(mem, user, speaker):
    """An assistant's explanations ("the probability of heads is 1/2") are no facts of the
    user's life: they supersede nothing."""
    mine = _say(mem, user, "The project deadline is March 1.", JAN, "user")
    theirs = _say(mem, user, "The project deadline is March 20 in my example.", JUN, speaker)
    assert not _supersedes(mem, user, theirs, mine)


def test_notes_an_agent_keeps_of_the_user_are_the_users_facts(mem, user):
    """An agent that keeps notes through `remember` writes them of "User" ("User lives in
    Paris.", "User's manager is Priya."): the user's facts, linked as their own words would be;
    "the user" of software talk ("the user clicks Save") is nobody's fact."""
    for older, newer, question, wanted in [
            ("User lives in Paris.", "User moved to Berlin.", "Where does the user live?", "Berlin"),
            ("User's manager is Priya.", "User's new manager is Omar after the reorg.", "Who is my manager?", "Omar")]:
        whose = f"{user}-{wanted}"
        first = mem.add(older, user=whose, at=JAN).memory_ids[0]
        second = mem.add(newer, user=whose, at=JUN).memory_ids[0]
        assert _supersedes(mem, whose, second, first), newer
        assert wanted in mem.recall(question, user=whose, k=1).memories[0].text
    who = f"{user}-app"
    first = mem.add("In our app the user signs in with email.", user=who, at=JAN).memory_ids[0]
    second = mem.add("Now the user signs in with a passkey.", user=who, at=JUN).memory_ids[0]
    assert not _supersedes(mem, who, second, first)


# Updates said in words the first claim readings missed, one per reading added for them.
MORE_UPDATES = [
    ("I'm 29 years old.", "I just turned 30."),  # "29 years old" is a date to spaCy
    ("The launch is scheduled for March 3.", "The launch was pushed back to April 10."),
    ("Our wedding is planned for September 14th.", "We moved the wedding up to August 2nd."),
    ("I drink coffee every morning.", "I switched from coffee to tea."),
    ("I drink coffee every morning.", "I drink green tea instead of coffee now."),
    ("I'm learning Spanish on Duolingo.", "I dropped Spanish and started on Japanese."),
    ("We're going to Italy for two weeks in June.", "We cancelled the Italy trip, money's too tight."),
    ("I'm planning to visit Japan in April.", "I cancelled my trip to Japan."),
    ("My manager is Priya.", "Priya moved to another team, so I report to Daniel now."),
    ("My dad works at the post office.", "My dad retired from the post office this spring."),
    ("I'm a junior data analyst on the marketing team.", "I got promoted to senior analyst last week!"),
    ("I'm a nurse at the city hospital.", "I'm a paramedic now."),
    ("Our monthly grocery budget is $600.", "We upped the grocery budget to $750 a month."),
    ("My budget for the new laptop is $2,000.", "I'm capping the laptop budget at $1,400 now."),
    ("The migration project deadline is June 30.", "Leadership pushed the migration deadline out to August 15."),
    ("I have one child.", "Our second baby was born, so we have two kids now."),
    ("My girlfriend is Emma.", "Emma and I split up last month."),
    ("My boyfriend Mark and I have been together for three years.", "Mark and I broke up in the spring."),
    ("We use Jira for our tickets.", "We migrated off Jira to Linear last quarter."),
    ("We use Jira.", "We migrated off Jira."),  # the README's words: "off" parsed a particle that has an object
    ("I use VS Code for basically everything.", "I switched from VS Code to Neovim a few months ago."),
    # told before a question in one sentence, as people write to an assistant
    ("I live in Paris.", "I moved to Berlin last month, can you suggest some neighborhoods to explore?"),
    ("Our investor demo is on the 22nd.", "investor demo got moved up to the 18th, can you help me replan the week"),
    ("My manager Priya is very hands-off.", "Priya left the company and my new manager Tom wants daily check-ins."),
    ("I use Redux for state management.", "We ditched Redux for Zustand."),
    ("We have a $3,000 budget for the office move.", "The office move budget got raised to $4,500, can you redo the plan?"),
    ("Our office in Leeds has 40 people.", "Our office in Leeds has grown to 55 people."),  # qualified alike
    # the parse hangs "at Microsoft" on the verb, not on the job
    ("I work at Google.", "I started a new job at Microsoft in March."),
    ("I work at Google.", "I quit my job at Google."),
    # what another changed is still the speaker's thing; a dose is of the drug, not a count of mg
    ("My rent is $1,450 a month.", "Landlord bumped my rent to $1,600 at renewal, ugh."),
    ("I take 10mg of lisinopril every morning.", "My doctor increased my lisinopril to 20mg."),
    ("I take 50mg of sertraline every morning.", "Doc bumped my sertraline up to 100 at the last appointment."),
    ("The client project deadline is August 30.",
     "Client pulled the deadline in to July 15 so we're in crunch mode, can you help me reprioritize?"),
    # "up to" read by the parse as part of the amount
    ("My rent is $1,450 a month.", "rent's going up to $1,575 starting july, ugh."),
    ("Our budget for the kitchen remodel is $20,000.",
     "We bumped the kitchen remodel budget up to $35,000, can you redo the priorities?"),
    # the thing changed said without what qualified it, or with it where it was said without
    ("The client meeting is Tuesday at 3pm.", "The client moved our meeting to Thursday at 10am."),
    ("My appointment is on Tuesday at 10am.", "The dentist moved my dentist appointment to Thursday at 2pm."),
    # an ordinal counts, and more verbs tell a value moved
    ("I have a cat named Milo.", "We adopted a second cat, so now it's Milo and Luna."),
    ("My credit score is 640.", "My credit score jumped to 712 after I paid down the cards."),
    # what is due when has a deadline
    ("The grant report is due August 15.", "The foundation extended our report deadline to October 1."),
    ("The grant report is due March 14.", "Good news: we got an extension, the grant report is now due April 30."),
]
# ... and facts that look alike and retire nothing.
MORE_UNRELATED = [
    ("My sister lives in Rome.", "My cousin lives in Naples."),  # two relatives, not one person named twice
    ("I'm 34.", "My wife is 32."),
    ("My wife is Anna.", "My wife is a nurse."),
    ("I'm a nurse.", "My brother is a paramedic."),
    ("I drink coffee every morning.", "I switched from Windows to Linux."),
    ("We're going to Italy in June.", "We cancelled the gym membership."),
    ("My landlord is strict.", "My landlord raised the rent."),
    ("My boyfriend Mark and I have been together for years.", "My friend Anna and I broke up the fight."),
    ("My girlfriend is Emma.", "Emma and I went hiking."),
    ("We use Redis for caching.", "We use Postgres for storage."),
    ("We use Jira for our tickets.", "I'm deciding whether to migrate off Jira, any thoughts?"),  # weighed, not done
    ("My budget is $500.", "Can you tell me if I moved my budget to $700?"),  # asked
    # claims that were read where there are none, each of which retired a real fact
    ("I'm 34.", "We just hired three more engineers so there are 7 of us on the backend team now."),
    ("I live in Leeds.", "My take-home is $4,800 after my raise."),
    ("I work at Google.", "I'm working out at home these days."),
    ("I live in Denver.", "We moved to a three-node Kubernetes cluster last week."),
    ("My girlfriend is Emma.", "I and I'm focused on triangle proofs, and I want to know how they developed."),
    # one kind of thing, told apart by what qualifies it; and a job that is no one's occupation
    ("My grade in calculus is a B+.", "My grade in physics is a C, worse than calculus."),
    ("The training job uses 8 A100s.", "Our eval jobs run on 2 A100s, separate from the big training job."),
    # a new job said with when or where it starts, not for whom
    ("I work at Google.", "I started a new job at 25."),
    ("I work at Google.", "My sister started a new job at Microsoft."),
    # read where there are none in long technical chats (BEAM): an idiom, a problem's givens, a
    # price, a duration
    ("I added retries so I don't run into rate limits later.", "I'm running into a strange error with the pre-commit hook."),
    ("I have a triangle with sides 3, 4 and 5 cm, which formula is faster?",
     "I have two triangles with sides 6, 8, 10 cm and 9, 12, 15 cm, are they similar?"),
    ("I'm 41 and live in Porto.", "I'm worried about rent in Lisbon, which I found to be around $1,300 a month."),
    ("I work for Acme Corp.", "I've been working on this prototype for a while."),
    # an amount said of a thing is that thing's value: another thing's amount retires nothing
    ("We have a $3,000 budget for the office move.", "We have a $500 budget for the team party, what can we do?"),
    # someone else's dose, someone else's cat
    ("I take 20 mg of atorvastatin at night.", "My dad's cardiologist upped his atorvastatin to 40 mg."),
    ("I have two cats.", "My sister adopted a third cat."),
    ("My essay is due on May 3.", "My lab report is due on May 10 now."),
]


@pytest.mark.parametrize("older, newer", MORE_UPDATES)
def test_updates_said_in_other_words_are_linked(mem, user, older, newer):
    old, new = _say(mem, user, older, JAN), _say(mem, user, newer, JUN)
    assert _supersedes(mem, user, new, old)


@pytest.mark.parametrize("older, newer", MORE_UNRELATED)
def test_facts_that_look_alike_retire_nothing(mem, user, older, newer):
    old, new = _say(mem, user, older, JAN), _say(mem, user, newer, JUN)
    assert not _supersedes(mem, user, new, old) and not _supersedes(mem, user, old, new)


def test_a_change_said_without_what_qualified_the_thing_retires_it_only_where_one_is_current(mem, user):
    """"They moved my appointment to Thursday" changes the one appointment the user has; with a
    dentist's and a vet's both current, it cannot say which, and retires neither."""
    one = _say(mem, user, "My dentist appointment is on Tuesday at 10am.", JAN)
    moved = _say(mem, user, "They moved my appointment to Thursday at 2pm.", JUN)
    assert _supersedes(mem, user, moved, one)
    other = f"{user}-two"
    dentist = _say(mem, other, "My dentist appointment is on Tuesday at 10am.", JAN)
    vet = _say(mem, other, "My vet appointment is on Friday at 9am.", JAN.replace(day=6))
    moved = _say(mem, other, "They moved my appointment to Thursday at 2pm.", JUN)
    assert not _supersedes(mem, other, moved, dentist) and not _supersedes(mem, other, moved, vet)


@pytest.mark.parametrize("text", ["The client meeting is on Tuesday.", "My dentist appointment is on Friday.",
                                  "The project deadline is March 1.", "My therapy session is at 5pm."])
def test_the_slots_of_calendar_things_are_those_claims_name(nlp, text):
    """supersession.SCHEDULED is written in the slot names claims.py gives (head nouns' stems)."""
    assert any(c.slot in SCHEDULED for c in _claims(nlp, text))


def test_what_is_due_when_is_a_deadline(nlp):
    assert [(c.slot, c.qualifiers, c.value) for c in _claims(nlp, "The quarterly report is due this Friday.")] \
        == [("state:deadlin", ("quarterly", "report"), "friday")]
    assert not _claims(nlp, "The rent is due.")


def _claims(nlp, text: str) -> list:
    return extract(nlp(text), "user", None, None).claims


@pytest.fixture
def nlp(mem):
    return mem.models.nlp()


@pytest.mark.parametrize("told, wanted", [("The deadline is April 5.", "I need to make sure the deadline is April 5."),
                                          ("The budget is $500.", "Please make sure the budget is $500.")])
def test_what_a_turn_wants_made_sure_of_is_not_told(nlp, told, wanted):
    assert _claims(nlp, told) and not _claims(nlp, wanted)


def test_a_cause_is_no_word_of_change_and_a_time_is(nlp):
    """"since" of a cause says nothing changed; a claim of a thing nobody owns retires an older
    one only with such a word (`Claim.needs_cue`)."""
    because = _claims(nlp, "The deadline is May 3, since the printer needs a week.")
    now = _claims(nlp, "The deadline is May 3 now.")
    assert because and not any(c.cue for c in because)
    assert now and all(c.cue for c in now)


@pytest.mark.parametrize("text, age", [("I'm 41.", "41"), ("I turned 30.", "30"),
                                       ("I found rent to be around $1,300 a month.", None), ("I'm 150%.", None)])
def test_an_age_is_a_number_of_years(nlp, text, age):
    assert [c.value for c in _claims(nlp, text) if c.slot == "age"] == ([age] if age else [])


@pytest.mark.parametrize("text, value", [("Moved to Manchester for the new flat.", "manchester"),
                                         ("Just relocated to Glasgow, loving it so far.", "glasgow")])
def test_a_chat_that_drops_its_i_claims_what_the_speaker_did(nlp, text, value):
    assert [(c.subject, c.slot, c.value) for c in _claims(nlp, text)] == [("user", "residence", value)]
    assert not _claims(nlp, "Move the meeting to Glasgow.")  # a verb in its base form asks, it tells nothing


def test_moves_told_without_i_are_one_chain(mem, user):
    leeds = _say(mem, user, "I live in Leeds.", JAN, "user")
    manchester = _say(mem, user, "Moved to Manchester for the new flat.", JUN, "user")
    glasgow = _say(mem, user, "Just relocated to Glasgow, loving it so far.", DEC, "user")
    assert [v.uid for v in mem.history(manchester, user=user)] == [leeds, manchester, glasgow]
    assert mem.recall("Where did I live in July 2024?", user=user, k=3).memories[0].uid == manchester
    # what Glasgow replaced, not the oldest of the chain
    assert mem.recall("Where did I live before Glasgow?", user=user, k=3).memories[0].uid == manchester
    assert mem.recall("Where did I live before Manchester?", user=user, k=3).memories[0].uid == leeds


def test_a_chain_answers_first_and_ever(mem, user):
    """"first" asks for the oldest version; "ever" with a value gets the version that holds it,
    which the newest ("Relocated to Glasgow") does not say."""
    leeds = _say(mem, user, "I just moved to Leeds for uni.", JAN, "user")
    manchester = _say(mem, user, "We moved to Manchester last week, the flat is tiny.", JUN, "user")
    glasgow = _say(mem, user, "Relocated to Glasgow for the new job.", DEC, "user")

    def first(question: str) -> str:
        return mem.recall(question, user=user, k=3).memories[0].uid

    assert first("Where did I live first?") == leeds
    assert first("Which city did I live in first?") == leeds
    assert first("Have I ever lived in Leeds?") == leeds
    assert first("Have I ever lived in Manchester?") == manchester
    assert first("Where do I live?") == glasgow


@pytest.mark.parametrize("text, slot, value", [("We're tapering now, I'm down to 25mg of sertraline.", "state:sertralin",
                                                "25 mg"),
                                               ("Knee is better, I'm back at yoga twice a week.", "does:yoga", "")])
def test_an_amount_one_is_down_to_and_a_habit_one_is_back_at_are_claims(nlp, text, slot, value):
    assert [(c.slot, c.value, c.positive) for c in _claims(nlp, text)] == [(slot, value, True)]


def test_a_count_said_in_the_simple_past_is_an_occasion_not_the_count_now(nlp):
    assert [c.value for c in _claims(nlp, "I run about 20 miles a week.") if c.slot == "count:run:mil"] == ["20"]
    assert not [c for c in _claims(nlp, "ran 35 miles last week bc of the relay race") if c.slot.startswith("count:")]


@pytest.mark.parametrize("older, newer", [
    ("I'm on metformin 500mg twice a day.", "The doctor bumped my metformin to 1000mg."),
    ("I'm on sertraline 50mg.", "Sertraline is 100mg now."),
    ("I take atorvastatin 20mg every night.", "My atorvastatin went up to 40mg."),
    # the tagger reads a medicine said bare as a person; no one is a dose
    ("I'm on lisinopril 10mg for blood pressure, can I take ibuprofen for a headache?",
     "follow up went well! lisinopril is 20mg as of this week."),
])
def test_a_dose_said_after_the_medicine_is_its_dose(mem, user, older, newer):
    old, new = _say(mem, user, older, JAN, "user"), _say(mem, user, newer, JUN, "user")
    assert _supersedes(mem, user, new, old)


@pytest.mark.parametrize("text", ["A dose of 5mg is typical.", "The vet put Biscuit on Apoquel 16mg daily."])
def test_a_dose_no_one_is_said_to_be_on_claims_nothing(nlp, text):
    assert not [c for c in _claims(nlp, text) if c.slot.startswith("state:")]


@pytest.mark.parametrize("text", ["I'm dating a guy named Ravi.", "I started seeing someone called Ravi.",
                                  "I've been seeing someone new, his name is Ravi."])
def test_a_partner_named_after_someone_is_said_is_that_name(nlp, text):
    assert [(c.slot, c.value) for c in _claims(nlp, text) if c.slot == "partner"] == [("partner", "ravi")]


def test_someone_unnamed_or_no_partner_claims_no_partner(nlp):
    assert not [c for c in _claims(nlp, "I'm seeing someone new.") if c.slot == "partner"]
    assert not [c for c in _claims(nlp, "I'm seeing a doctor named Patel about my knee.") if c.slot == "partner"]


def test_a_partner_named_later_is_the_version_of_the_last(mem, user):
    tom = _say(mem, user, "I've been seeing Tom for a few months.", JAN, "user")
    ravi = _say(mem, user, "I'm dating a guy named Ravi now.", JUN, "user")
    assert [v.uid for v in mem.history(ravi, user=user)] == [tom, ravi]


def test_ever_gets_a_version_superseded_in_part(mem, user):
    """The Daniel memory still holds what it says of Priya; its manager is retired all the same."""
    _say(mem, user, "My manager is Priya, she's great.", JAN, "user")
    daniel = _say(mem, user, "Priya left the company, so now I report to Daniel.", JUN, "user")
    chen = _say(mem, user, "My new manager is Chen.", DEC, "user")
    assert mem.recall("Who is my manager?", user=user, k=3).memories[0].uid == chen
    assert mem.recall("Have I ever reported to Daniel?", user=user, k=3).memories[0].uid == daniel


def test_a_dose_is_replaced_by_an_amount_only(mem, user):
    """What else changed of a medicine is another attribute than its dose; a bare number is a dose."""
    assert all(DOSE_VALUE.fullmatch(f"5 {unit}") for unit in DOSE_UNITS.values())
    dose = _say(mem, user, "I take levothyroxine 75 mcg every morning.", JAN, "user")
    maker = _say(mem, user, "pharmacy switched my levothyroxine to a different generic maker, same dose but the "
                            "pills look different now", JUN, "user")
    assert [v.uid for v in mem.history(dose, user=user)] == [dose]
    assert [v.uid for v in mem.history(maker, user=user)] == [maker]
    fifty = _say(mem, user, "I take 50mg of sertraline every morning.", JAN, "user")
    hundred = _say(mem, user, "Doc bumped my sertraline up to 100 at the last appointment.", JUN, "user")
    assert [v.uid for v in mem.history(fifty, user=user)] == [fifty, hundred]  # a dose without its unit


def test_the_last_of_three_doses_answers_for_now(mem, user):
    _say(mem, user, "I take 50mg of sertraline every morning.", JAN, "user")
    _say(mem, user, "Doctor bumped my sertraline up to 100mg.", JUN, "user")
    last = _say(mem, user, "We're tapering now, I'm down to 25mg of sertraline.", DEC, "user")
    assert mem.recall("What dose of sertraline am I on?", user=user, k=3).memories[0].uid == last


def test_what_ended_is_followed_by_what_holds(mem, user):
    """A breakup, then someone new: the new partner is the version that holds, though the breakup
    named another."""
    anna = _say(mem, user, "My girlfriend Anna and I just celebrated two years together.", JAN, "user")
    ended = _say(mem, user, "Anna and I broke up last month, still processing it.", JUN, "user")
    leah = _say(mem, user, "I've started seeing someone new, her name is Leah.", DEC, "user")
    assert [v.uid for v in mem.history(leah, user=user)] == [anna, ended, leah]
    assert mem.recall("Who am I dating?", user=user, k=3).memories[0].uid == leah


def test_a_boss_is_the_manager_and_an_old_one_no_version(mem, user):
    daniel = _say(mem, user, "My boss is Daniel, he's pretty chill.", JAN, "user")
    priya = _say(mem, user, "Daniel left the company, so now I report to Priya.", JUN, "user")
    assert mem.recall("Who is my boss?", user=user, k=3).memories[0].uid == priya
    assert [v.uid for v in mem.history(priya, user=user)] == [daniel, priya]
    other = f"{user}-other"
    karen = _say(mem, other, "My old boss at Deloitte was Karen.", JAN, "user")
    mike = _say(mem, other, "My current boss is Mike.", JUN, "user")
    assert [v.uid for v in mem.history(mike, user=other)] == [mike]
    assert [v.uid for v in mem.history(karen, user=other)] == [karen]


@pytest.mark.parametrize("text, employer", [("I work as a nurse at St. Vincent's, mostly night shifts.", "st. vincent"),
                                            ("Got hired as a junior developer at Brightwave!", "brightwave"),
                                            ("I'm a senior accountant at Deloitte.", "deloitte"),
                                            ("I'm a teacher at a local high school.", "local high school"),
                                            ("I got hired at Stripe last week.", "stripe")])
def test_a_job_at_a_place_names_the_employer(nlp, text, employer):
    assert [c.value for c in _claims(nlp, text) if c.slot == "employer"] == [employer]


@pytest.mark.parametrize("text", ["I'm a nurse at night.", "I work as a nurse at night.",
                                  "My brother is a nurse at Mercy General."])
def test_a_time_or_someone_else_s_job_names_no_employer_of_the_user(nlp, text):
    assert not [c for c in _claims(nlp, text) if c.slot == "employer" and c.subject == "user"]


@pytest.mark.parametrize("text, slot, value", [
    ("First week at Shopify went well, though the onboarding docs are a maze.", "employer", "shopify"),
    ("First week at Calyx Health as a senior UX designer went well!", "occupation", "senior ux designer"),
    ("Wrapped up my first week as an analytics engineer at the fintech startup.", "employer", "fintech startup"),
    ("Finally settled into the new place in Tacoma.", "residence", "tacoma"),
    ("Finally done unpacking boxes in the new place in Bristol — can you help me find a climbing gym?",
     "residence", "bristol")])
def test_a_first_week_or_a_new_place_settled_into_tells_a_job_or_a_home(nlp, text, slot, value):
    assert value in [c.value for c in _claims(nlp, text) if c.slot == slot and c.subject == "user"]


@pytest.mark.parametrize("text", ["My wife's first week at Stripe went great.", "How was your first week at Stripe?",
                                  "First day at the gym in years, I'm sore.", "We're unpacking at the hotel in Rome.",
                                  "Our company uses Slack.", "My company switched to Microsoft Teams.",
                                  "This week I'm working out of the Cambridge office for a training course."])
def test_someone_else_s_first_week_a_hotel_or_what_a_company_uses_is_no_job_or_home(nlp, text):
    assert not [c for c in _claims(nlp, text) if c.slot in ("employer", "residence") and c.subject == "user"]


def test_what_a_thing_is_written_in_changes_when_it_is_rewritten(mem, user):
    angular = _say(mem, user, "Our admin dashboard is built in Angular 14, how do I lazy load a feature module?", JAN,
                   "user")
    svelte = _say(mem, user, "We finished porting the admin dashboard to Svelte, how do stores work?", JUN, "user")
    flask = _say(mem, user, "We built our backend in Flask. How do I add request validation cleanly?", JAN, "user")
    fastapi = _say(mem, user, "We rewrote the backend in FastAPI. How do I handle validation there?", JUN, "user")
    assert [v.uid for v in mem.history(svelte, user=user)] == [angular, svelte]
    assert [v.uid for v in mem.history(fastapi, user=user)] == [flask, fastapi]


@pytest.mark.parametrize("older, newer", [
    ("Our frontend is built with React.", "Our backend is built with Django."),
    ("Our iOS app is built with SwiftUI.", "Our Android app is built with Kotlin."),
    ("I built a shed in two weeks.", "I built a treehouse in the garden.")])
def test_two_things_written_in_two_ways_retire_nothing(mem, user, older, newer):
    first = _say(mem, user, older, JAN, "user")
    second = _say(mem, user, newer, JUN, "user")
    assert not _supersedes(mem, user, second, first)


def test_a_thing_said_to_have_ended_retires_what_named_it(mem, user):
    """"We ditched Jenkins" says nothing of the CI, yet ends "our CI runs on Jenkins"; the CI's
    next value retires it too, and forgetting the ending leaves the chain without it."""
    jenkins = _say(mem, user, "Our CI runs on Jenkins.", JAN, "user")
    ditched = _say(mem, user, "We finally ditched Jenkins last month.", JUN, "user")
    actions = _say(mem, user, "Our CI is on GitHub Actions now.", DEC, "user")
    assert [v.uid for v in mem.history(ditched, user=user)] == [jenkins, ditched, actions]
    assert (mem.history(jenkins, user=user)[0].valid_until or "").startswith("2024-06")
    mem.forget(user, memories=[ditched])
    assert [s["uid"] for s in mem.history(jenkins, user=user)[0].superseded_by] == [actions]


def test_a_thing_said_to_have_ended_before_it_was_ingested_still_retires_it(mem, user):
    dropped = _say(mem, user, "We moved off Slack to Microsoft Teams.", JUN, "user")
    slack = _say(mem, user, "Our team uses Slack for chat.", JAN, "user")
    assert _supersedes(mem, user, dropped, slack)


@pytest.mark.parametrize("newer", ["I muted Slack on my phone for the weekend.", "My sister's company ditched Slack.",
                                   "Slack is still what our team uses."])
def test_a_thing_not_said_to_have_ended_by_the_user_retires_nothing(mem, user, newer):
    slack = _say(mem, user, "Our team uses Slack for chat.", JAN, "user")
    assert not _supersedes(mem, user, _say(mem, user, newer, JUN, "user"), slack)


@pytest.mark.parametrize("text, thing", [("I sold the Civic and bought a used Tesla Model 3.", "civic"),
                                         ("Sold my Civic to my nephew and got myself a RAV4.", "civic"),
                                         ("traded in the civic last weekend, so sad to see it go", "civic"),
                                         ("I traded my Outback for a RAV4.", "outback"),
                                         ("We replaced Redux with Zustand across the frontend.", "redux"),
                                         ("Ripped out Redux and went with Zustand.", "redux"),
                                         ("I cancelled Xfinity the same afternoon.", "xfinity"),
                                         ("I've lived in Neovim since February and uninstalled VS Code.", "cod")])
def test_a_thing_sold_traded_in_replaced_or_cancelled_ended(nlp, text, thing):
    assert (f"does:{thing}", False) in [(c.slot, c.positive) for c in _claims(nlp, text) if c.subject == "user"]


@pytest.mark.parametrize("text", ["I trade stocks every morning.", "Sell my Civic for me.", "I ripped my jeans.",
                                  "I want to sell the Civic, any tips?", "My brother sold his Civic.",
                                  "We sell the Pro tier for $49/month.", "I'm cancelling Netflix next week."])
def test_a_trade_an_errand_a_wish_a_plan_or_someone_else_s_sale_ends_nothing_of_the_user(nlp, text):
    assert not [c for c in _claims(nlp, text) if c.subject == "user" and not c.positive]


def test_a_car_sold_is_no_longer_driven(mem, user):
    civic = _say(mem, user, "I drive a 2014 Honda Civic.", JAN, "user")
    sold = _say(mem, user, "Sold the Civic to my nephew and picked up a used Model 3.", JUN, "user")
    assert [v.uid for v in mem.history(sold, user=user)] == [civic, sold]


@pytest.mark.parametrize("text, who, thing", [
    ("My endocrinologist took me off metformin and started me on Ozempic.", "user", "metformin"),
    ("Dr. Lee weaned me off prednisone.", "user", "prednison"), ("I came off sertraline last month.", "user", "sertralin"),
    ("Came off sertraline in May.", "user", "sertralin"), ("I'm off caffeine now.", "user", "caffein"),
    ("Went off the pill last year.", "user", "pill"), ("I stopped taking metformin.", "user", "metformin"),
    ("My doctor took Dana off lithium.", "Dana", "lithium")])
def test_a_thing_someone_was_taken_off_or_stopped_taking_ended(nlp, text, who, thing):
    assert (who, f"does:{thing}", False) in [(c.subject, c.slot, c.positive) for c in _claims(nlp, text)]


@pytest.mark.parametrize("text", ["Should I come off metformin?", "I'm not off metformin yet.", "I'm off work today.",
                                  "I'm coming off sertraline next month.", "I got off the bus at Main St.",
                                  "I took my jacket off.", "I didn't take my metformin this morning.",
                                  "I might come off the statin."])
def test_a_day_off_a_plan_a_doubt_or_a_missed_dose_ends_nothing(nlp, text):
    assert not [c for c in _claims(nlp, text) if not c.positive]


@pytest.mark.parametrize("older, newer", [
    ("I'm on metformin 500mg twice a day.", "My endocrinologist took me off metformin and started me on Ozempic."),
    ("I take 50mg of sertraline every morning.", "Came off sertraline in May, feeling okay so far."),
    ("I take melatonin at night.", "I stopped taking melatonin, turns out I sleep fine without it.")])
def test_a_medicine_stopped_retires_its_dose_and_its_taking(mem, user, older, newer):
    """A dose is the state of the medicine (`state:metformin`), no value that names it: its ending
    retires it all the same, and recall puts the newer first."""
    old, new = _say(mem, user, older, JAN, "user"), _say(mem, user, newer, JUN, "user")
    assert _supersedes(mem, user, new, old)
    assert mem.recall("What medication am I taking?", user=user, k=3).memories[0].uid == new


def test_a_medicine_stopped_before_its_dose_was_ingested_still_retires_it(mem, user):
    off = _say(mem, user, "My endocrinologist took me off metformin.", JUN, "user")
    dose = _say(mem, user, "I'm on metformin 500mg twice a day.", JAN, "user")
    assert _supersedes(mem, user, off, dose)


@pytest.mark.parametrize("text, positive", [("I'm a smoker, about half a pack a day.", True),
                                            ("I'm an ex-smoker.", False), ("I'm a former smoker.", False),
                                            ("I'm a non-smoker.", False), ("I'm not a smoker.", False),
                                            ("I was a smoker in college.", None)])
def test_who_does_a_habit_says_it_as_doing_it_does(nlp, text, positive):
    said = [c.positive for c in _claims(nlp, text) if c.slot == "does:smok"]
    assert said == ([] if positive is None else [positive])
    assert [c.slot for c in _claims(nlp, "I smoke every day.") if c.slot.startswith("does:")] == ["does:smok"]


def test_a_smoker_who_quit_no_longer_smokes(mem, user):
    smoker = _say(mem, user, "I'm a smoker, about half a pack a day.", JAN, "user")
    quit_ = _say(mem, user, "I quit smoking in March.", JUN, "user")
    assert _supersedes(mem, user, quit_, smoker)


def test_a_medicine_taken_again_is_its_next_version(mem, user):
    """Ended, then begun again at another dose: the new dose holds, and forgetting the ending
    leaves the two doses in a chain."""
    first = _say(mem, user, "I'm on sertraline 50mg.", JAN, "user")
    off = _say(mem, user, "I came off sertraline last month.", JUN, "user")
    again = _say(mem, user, "I'm back on sertraline 25mg.", DEC, "user")
    assert _supersedes(mem, user, off, first) and _supersedes(mem, user, again, first)
    mem.forget(user, memories=[off])
    assert [v.uid for v in mem.history(again, user=user)] == [first, again]


def test_a_heading_before_a_colon_is_no_subject(nlp):
    """The parse may take "Reorg again" for a second subject of "is"."""
    assert [(c.subject, c.slot, c.value) for c in _claims(nlp, "Reorg again: my new boss is Chen.")] \
        == [("user", "state:manager", "chen")]


def test_a_habit_stopped_is_told_not_asked(nlp):
    """"Stopped taking melatonin" tells what the user did (an "I" dropped); "Stop adding X" asks."""
    assert not [c for c in _claims(nlp, "Stopped taking melatonin entirely, I sleep fine.")
                if c.slot.startswith("instruction:")]
    assert [c.slot for c in _claims(nlp, "Stop adding version numbers.")] == ["instruction:include:version number"]


def test_working_for_someone_is_a_job_and_for_a_while_is_not(nlp):
    assert [(c.slot, c.value) for c in _claims(nlp, "I work for my father.")] == [("employer", "father")]
    assert [(c.slot, c.value) for c in _claims(nlp, "I've been working for Acme for a while.")] == [("employer", "acme")]
    assert not _claims(nlp, "I've been working on this prototype for a while.")
    assert not _claims(nlp, "I prefer working with a patent attorney for my new invention.")


def test_an_amount_said_of_a_thing_is_its_value_and_a_unit_is_counted(nlp):
    """"a $20k budget" is one budget of $20k, not one budget; "80 kilos" counts kilos."""
    assert [(c.slot, c.qualifiers, c.value) for c in _claims(nlp, "We have a $20k budget for the redesign.")] \
        == [("state:budget", ("redesign",), "$ 20k")]
    assert [(c.slot, c.value) for c in _claims(nlp, "I have two cats.")] == [("count:have:cat", "2")]
    assert [c.value for c in _claims(nlp, "I weigh 80 kilos.")] == ["80"]


@pytest.mark.parametrize("text, counted, value", [
    ("We adopted another cat last weekend, a little tabby called Fig.", "cat", MORE),
    ("we adopted another kitty last week, her name is Nori", "cat", MORE),
    ("We got one more dog.", "dog", MORE),
    ("We just had our third baby, a girl!", "child", "3"),
    ("Our third baby arrived last Tuesday!", "child", "3"),
    ("Our baby number three arrived last night!", "child", "3")])
def test_one_more_of_a_kind_changes_its_count(nlp, text, counted, value):
    """One more, how many unsaid, is a count other than the one said before; a child born counts
    the children ("baby", "kids" and "children" one word)."""
    assert [(c.subject, c.slot, c.value) for c in _claims(nlp, text)] == [("user", f"count:have:{counted}", value)]


@pytest.mark.parametrize("text", ["We're thinking of adopting another cat.", "We didn't get another dog.",
                                  "We're expecting our third baby in May.", "I had my second coffee.",
                                  "Our baby number three is due in May.", "Our order number 12 arrived."])
def test_one_more_wished_denied_or_expected_or_a_second_helping_counts_nothing(nlp, text):
    assert not [c for c in _claims(nlp, text) if c.slot.startswith("count:")]


def test_a_numbered_one_that_nobody_owns_counts_only_with_a_word_of_change(nlp):
    """"Baby number three arrived" may be a friend's: as "a third baby arrived", the count waits
    for a word that says it changed."""
    assert [(c.slot, c.value, c.needs_cue) for c in _claims(nlp, "Baby number three arrived last night!")] == \
        [("count:have:child", "3", True)]


def test_another_cat_retires_the_count_and_the_next_count_retires_it(mem, user):
    two = _say(mem, user, "I have two cats, Mochi and Pepper.", JAN, "user")
    another = _say(mem, user, "We adopted another cat last weekend, a tabby called Fig.", JUN, "user")
    assert _supersedes(mem, user, another, two)
    four = _say(mem, user, "I have four cats now.", DEC, "user")
    assert [v.uid for v in mem.history(four, user=user)] == [two, another, four]


def test_relatives_are_not_merged_into_one_person(mem, user):
    _say(mem, user, "My sister lives in Rome.", JAN)
    _say(mem, user, "My cousin lives in Naples.", JUN)
    names = {name for m in mem.memories(user) for name in m.entities}
    assert {"Robin's sister", "Robin's cousin"} <= names


@pytest.mark.parametrize("text, slot, qualifiers, value", [
    ("Our web app is on React 17.", "version:react", ("app", "web"), "17"),
    ("We're on Terraform 0.12.", "version:terraform", (), "0.12"),
    ("now on terraform 1.7 after the upgrade marathon", "version:terraform", (), "1.7"),
    ("after the python bump to 3.12 a bunch of our type hints started complaining", "version:python", (), "3.12"),
    ("We upgraded Node from 14 to 18.", "version:node", (), "18"),
    ("We're using PostgreSQL 12 in production.", "version:postgres", ("production",), "12"),
    ("The Postgres 15 migration wrapped up last sprint.", "version:postgres", (), "15"),
    ("bumped staging to python 3.12 so we can test the upgrade", "version:python", ("staging",), "3.12")])
def test_a_release_of_a_named_thing_is_its_version(nlp, text, slot, qualifiers, value):
    """A number right after a name, or after an upgrade of it, is the thing's release; the
    environment the clause names, and the thing that runs it, qualify it; Postgres is PostgreSQL."""
    assert [(c.subject, c.qualifiers, c.value) for c in _claims(nlp, text) if c.slot == slot] \
        == [("user", qualifiers, value)]


@pytest.mark.parametrize("text", ["Should we upgrade to React 18?", "We want to move to Python 3.12.",
                                  "My coworker uses Python 3.12.", "We haven't moved to React 18 yet.",
                                  "My flight is on May 15.", "Her son is in grade 3."])
def test_a_release_asked_wished_denied_or_someone_elses_or_a_date_is_no_version(nlp, text):
    assert not [c for c in _claims(nlp, text) if c.slot.startswith("version:")]


def test_a_newer_release_retires_the_older_unless_another_environment_runs_it(mem, user):
    twelve = _say(mem, user, "We're using PostgreSQL 12 in production.", JAN, "user")
    sixteen = _say(mem, user, "The migration to Postgres 16 finished last night with no downtime.", JUN, "user")
    assert _supersedes(mem, user, sixteen, twelve)  # said without the environment: the one running
    ten = _say(mem, user, "Production is on Python 3.10.", JAN, "user")
    staging = _say(mem, user, "bumped staging to python 3.12 so we can test the upgrade first", JUN, "user")
    assert not _supersedes(mem, user, staging, ten)
    main = _say(mem, user, "Our main repo uses Python 3.11.", JAN, "user")
    side = _say(mem, user, "my side project is on python 3.12, playing with the new f-string stuff", JUN, "user")
    assert not _supersedes(mem, user, side, main)  # two things run two releases
    order = [m.uid for m in mem.recall("What Postgres version are we on?", user=user).memories]
    assert order.index(sixteen) < order.index(twelve)


def test_each_clause_names_the_environment_of_its_release_and_a_release_of_none_is_not_read(nlp):
    def read(text):
        return [(c.qualifiers, c.value) for c in _claims(nlp, text) if c.slot == "version:postgres"]

    assert read("Prod stays on Postgres 14, staging runs Postgres 16.") == [(("production",), "14"), (("staging",), "16")]
    # the parse puts "staging" under "Postgres 14" and no environment in the clause of 16: neither read
    assert read("Prod stays on Postgres 14 and staging runs Postgres 16.") == []


# Phones and word processors type "I’m" and "don’t", a hurried chat "Im" and "dont": each pair as
# written by the sets' writers, its apostrophes typographic.
TYPED_ON_A_PHONE = [
    ("Am I dating anyone?", "I’m single right now.", "I’ve been seeing someone named Jamie for about a month now."),
    ("What diabetes medication am I taking?", "I’m on metformin 500mg twice a day.",
     "My endocrinologist took me off metformin and started me on Ozempic. How should I handle the nausea?"),
    ("Where do I work?", "I’m a product designer at Hearthstone Labs.",
     "First week at Calyx Health as a senior UX designer went well! How should I approach a 30-60-90 day plan?"),
]


@pytest.mark.parametrize("question, older, newer", TYPED_ON_A_PHONE)
def test_an_update_typed_on_a_phone_or_in_a_hurry_is_read_as_one_typed_plain(mem, user, question, older, newer):
    """The parse, the claims and recall's reading of versions read "I’m" and "Im" as "I'm": the
    update is answered as its plain twin is, and the question is answered as it was typed."""
    for style, apostrophe in (("phone", "\u2019"), ("plain", "'"), ("hurried", "")):
        asked, old_text, new_text = (text.replace("\u2019", apostrophe) for text in (question, older, newer))
        who = f"{user}-{style}"
        old = mem.add([("user", old_text)], user=who, at=JAN).memory_ids[0]
        new = mem.add([("user", new_text)], user=who, at=JUN).memory_ids[0]
        answer = mem.recall(asked, user=who)
        order = [m.uid for m in answer.memories]
        assert order.index(new) < order.index(old), (style, question)
        assert answer.query == asked
