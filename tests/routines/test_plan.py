"""Guarded plans: slots, guards, destructive steps, the script, ids."""

from actframes.compile.document import Clock
from actframes.routines.mine import Corpus, Rules, mine
from actframes.routines.plan import build_plan
from actframes.routines.step_tokens import segments

from .helpers import DAY0, DAY_MS, claim, click, navigate, stream, type_

# These fixtures are three bare repetitions: the plan is what is tested here, and three
# repetitions with nothing around them are never evidence against chance (test_mine).
BARE = Rules(against_chance=False)


def plan_of(dicts: list[dict], include_text: bool = False, **rules: int) -> dict:
    corpus = Corpus(segments(stream(dicts)))
    found = mine(corpus, BARE._replace(**rules))
    assert len(found) == 1, [len(m.tokens) for m in found]
    return build_plan(found[0], corpus, Clock("UTC").iso, include_text)


def three_days(**kw: object) -> list[dict]:
    out: list[dict] = []
    for d in range(3):
        out += claim(DAY0 + d * DAY_MS, claim_id=200 + d, **kw)  # type: ignore[arg-type]
    return out


def test_plan_steps_guards_and_slots() -> None:
    r = plan_of(three_days())
    assert r["id"].startswith("R") and len(r["id"]) == 11
    assert (r["length"], r["occurrences"], r["days"]) == (7, 3, 3)
    ops = [(s["op"], s.get("target", {}).get("name"), s.get("value")) for s in r["plan"]]
    assert ops == [
        ("navigate", None, None),
        ("click", "First name", None),
        ("type", "First name", "{first_name}"),
        ("click", "Amount", None),
        ("type", "Amount", "{amount}"),
        ("click", "Submit", None),
        ("navigate", None, None),
    ]
    assert r["plan"][0]["url"] == "https://claims.example.test/claims/new"
    # The claim id differs every time: a URL slot; the form's path does not.
    assert r["plan"][6]["url"] == "https://claims.example.test/claims/{claims_id}"
    assert r["plan"][6]["expect_after"] == {"url": "claims.example.test/claims/{id}"}
    assert [(s["name"], s["kind"], s["step"]) for s in r["slots"]] == [
        ("first_name", "text", 3),
        ("amount", "text", 5),
        ("claims_id", "url", 7),
    ]
    submit = r["plan"][5]
    assert submit["destructive"] is True
    assert submit["guards"] == [
        {"check": "app", "app": "Chromium"},
        {"check": "url", "template": "claims.example.test/claims/new"},
        {"check": "target", "role": "button", "name": "Submit"},
        {"check": "position", "x": 400, "y": 400, "tolerance": 24},
    ]
    # The typed field inherits the clicked field's point.
    assert r["plan"][2]["guards"][-1] == {"check": "position", "x": 400, "y": 200, "tolerance": 24}
    assert not any(s.get("destructive") for s in r["plan"][:5])
    assert r["start_url"] is None  # the routine opens its page itself
    assert r["script"][0] == "open https://claims.example.test/claims/new"
    assert r["script"][2] == "type {first_name} in First name"
    assert [e["day"] for e in r["evidence"]] == ["2026-03-08", "2026-03-09", "2026-03-10"]
    assert all(e["events"] for e in r["evidence"])


def test_a_page_that_follows_a_click_is_waited_for_not_opened() -> None:
    dicts: list[dict] = []
    for d in range(3):
        dicts += claim(DAY0 + d * DAY_MS, claim_id=300 + d, landed_ms=800)
    r = plan_of(dicts)
    last = r["plan"][6]
    assert last == {
        "n": 7,
        "op": "navigate",
        "app": "Chromium",
        "guards": [{"check": "app", "app": "Chromium"}],
        "caused": True,
        "expect_after": {"url": "claims.example.test/claims/{id}"},
    }
    assert "claims_id" not in [s["name"] for s in r["slots"]]
    assert r["script"][-1] == "wait for claims.example.test/claims/{id}"
    # The first navigation opened the form (no step before it): it is opened.
    assert "caused" not in r["plan"][0] and r["plan"][0]["url"].endswith("/claims/new")


def test_no_position_guard_when_the_clicks_were_spread() -> None:
    dicts = three_days()
    for k, s in enumerate(d for d in dicts if d.get("target", {}).get("name") == "Submit"):
        s["x"] = 400 + 60 * k
    r = plan_of(dicts)
    assert [g["check"] for g in r["plan"][5]["guards"]] == ["app", "url", "target"]


def test_typed_text_stays_a_slot_unless_opted_in_and_constant() -> None:
    dicts = three_days(amount_text="42.00")
    assert plan_of(dicts)["plan"][4]["value"] == "{amount}"
    opted = plan_of(dicts, include_text=True)
    assert opted["plan"][4]["value"] == "42.00"
    assert [s["name"] for s in opted["slots"]] == ["first_name", "claims_id"]


def test_opted_in_examples_are_listed_only_then() -> None:
    dicts: list[dict] = []
    for d, amount in enumerate(["10", "20", "30"]):
        dicts += claim(DAY0 + d * DAY_MS, claim_id=d, amount_text=amount)
    plain = plan_of(dicts)
    assert all("examples" not in s for s in plain["slots"])
    opted = plan_of(dicts, include_text=True)
    amount = next(s for s in opted["slots"] if s["name"] == "amount")
    assert amount["examples"] == ["10", "20", "30"]


def test_spreadsheet_rows_share_one_slot_per_run() -> None:
    dicts: list[dict] = []
    for d in range(3):
        t, row = DAY0 + d * DAY_MS, 5 + d
        u = "https://crm.example.test/contacts/new"
        dicts += [
            click(t, f"A{row}", "table cell", app="Calc", url=None),
            {
                "t_ms": t + 1000,
                "op": "copy",
                "app": "Calc",
                "id": t + 1,
                "events": [t + 1],
                "target": {"role": "table cell", "name": f"A{row}"},
            },
            click(t + 2000, "Full name", "entry", url=u),
            click(t + 3000, f"B{row}", "table cell", app="Calc", url=None),
            click(t + 4000, "Email", "entry", url=u),
        ]
    r = plan_of(dicts)
    names = [s.get("target", {}).get("name") for s in r["plan"]]
    assert names == ["A{row}", "A{row}", "Full name", "B{row}", "Email"]
    assert [s["name"] for s in r["slots"]] == ["row"]
    # Non-browser steps carry no URL guard.
    assert [g["check"] for g in r["plan"][0]["guards"]] == ["app", "target"]


def test_start_url_when_the_routine_starts_on_a_page() -> None:
    dicts: list[dict] = []
    for d in range(3):
        t = DAY0 + d * DAY_MS
        u = f"https://tracker.example.test/issues/{900 + d}"
        dicts += [
            click(t, "Assign to me", url=u),
            click(t + 1000, "Status", "combo box", url=u),
            click(t + 2000, "In progress", "list item", url=u),
        ]
    r = plan_of(dicts)
    assert r["start_url"] == "https://tracker.example.test/issues/{issues_id}"
    assert r["slots"][0] == {"name": "issues_id", "step": 1, "kind": "url"}


def test_the_same_steps_give_the_same_bytes() -> None:
    import json

    dicts = three_days()
    a = json.dumps(plan_of(dicts), sort_keys=False)
    b = json.dumps(plan_of(list(reversed(dicts))), sort_keys=False)
    assert a == b


def test_navigate_only_targets_are_plain() -> None:
    dicts: list[dict] = []
    for d in range(3):
        t = DAY0 + d * DAY_MS
        dicts += [
            navigate(t, "https://x.test/a"),
            click(t + 1000, "Alpha"),
            type_(t + 2000, "Beta"),
        ]
    r = plan_of(dicts)
    assert r["plan"][0] == {
        "n": 1,
        "op": "navigate",
        "app": "Chromium",
        "url": "https://x.test/a",
        "guards": [{"check": "app", "app": "Chromium"}],
        "expect_after": {"url": "x.test/a"},
    }


def _nav_routine(urls: list[str]) -> dict:
    dicts: list[dict] = []
    for d, u in enumerate(urls):
        t = DAY0 + d * DAY_MS
        dicts += [
            navigate(t, u),
            click(t + 1000, "Alpha", url=u),
            click(t + 2000, "Beta", url=u),
        ]
    return plan_of(dicts)


def test_query_and_fragment_slots() -> None:
    r = _nav_routine(
        [
            f"https://app.test/ui?view=list&id={100 + d}&token=s3cr3tvalue{d}#/claims/{d}"
            for d in range(3)
        ]
    )
    assert r["plan"][0]["url"] == "https://app.test/ui?view=list&id={id}&token={token}#{fragment}"
    assert [(s["name"], s["kind"]) for s in r["slots"]] == [
        ("id", "url"),
        ("token", "url"),
        ("fragment", "url"),
    ]


def test_a_secret_query_value_is_never_literal() -> None:
    r = _nav_routine(["https://app.test/ui?token=abc&view=list"] * 3)
    assert r["plan"][0]["url"] == "https://app.test/ui?token={token}&view=list"


def test_scheme_less_and_unparsable_urls() -> None:
    r = _nav_routine([f"app.example.test/claims/{1000 + d}/edit" for d in range(3)])
    assert r["plan"][0]["url"] == "https://app.example.test/claims/{claims_id}/edit"
    r = _nav_routine(["http://[::1/claims/1"] * 3)
    assert r["plan"][0]["url"] == "http://[::1/claims/1"


def test_a_literal_value_is_not_reused_for_the_next_typing() -> None:
    dicts: list[dict] = []
    for d, amount in enumerate(["10", "20", "30"]):
        t = DAY0 + d * DAY_MS
        dicts += [
            click(t, "Alpha"),
            click(t + 1000, "Amount", "entry"),
            type_(t + 2000, "Amount", text="EUR "),
            type_(t + 3000, "Amount", text=amount, id=t + 7, events=[t + 7]),
        ]
    r = plan_of(dicts, include_text=True)
    values = [s.get("value") for s in r["plan"]]
    assert values[2] == "EUR " and values[3] == "{amount}"


def test_repetitions_are_in_time_order_across_devices() -> None:
    from actframes.compile.document import Clock as _Clock

    dicts_a: list[dict] = []
    dicts_b: list[dict] = []
    for d in range(3):
        t = DAY0 + d * DAY_MS
        run = [click(t, "Alpha"), click(t + 1000, "Beta"), click(t + 2000, "Gamma")]
        (dicts_a if d != 1 else dicts_b).extend(run)
    steps = stream(dicts_b, device="laptop") + stream(dicts_a, device="desktop")
    corpus = Corpus(segments(sorted(steps, key=lambda s: (s.device, s.t_ms))))
    (m,) = mine(corpus, BARE)
    r = build_plan(m, corpus, _Clock("UTC").iso)
    assert [e["day"] for e in r["evidence"]] == ["2026-03-08", "2026-03-09", "2026-03-10"]
    assert r["first"] < r["last"]
