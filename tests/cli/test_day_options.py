"""``day``'s options are declared once (``options.DAY_OPTIONS``): the click command, the
plain parser that runs without click, and ``run_day`` must agree with that table. These
fail when an option is added to one of them only."""

from __future__ import annotations

import inspect

import click
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.cli.common import run_day, store_options
from actframes.cli.day import day
from actframes.cli.fast_day import DEFAULTS, plain_day
from actframes.cli.options import DAY_OPTIONS, STORE_OPTIONS, Opt

from .click_day import click_day_params as _click_params


def _options(command: click.Command) -> list[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option) and p.name != "help"]


def test_the_click_command_is_the_table() -> None:
    declared = _options(day)
    assert [(p.opts, p.name, p.expose_value) for p in declared] == [
        ([o.flag], o.name, o.expose) for o in DAY_OPTIONS
    ]
    for p, o in zip(declared, DAY_OPTIONS, strict=True):
        assert p.is_flag == (o.kind == "flag")
        assert (p.callback is not None) == (o.callback is not None), o.flag
    assert [p.name for p in day.params if isinstance(p, click.Argument)] == ["date"]


def test_every_store_command_shares_the_table() -> None:
    @click.command()
    @store_options
    def probe() -> None: ...

    assert [(p.opts, p.name) for p in _options(probe)] == [
        ([o.flag], o.name) for o in STORE_OPTIONS
    ]


def test_run_day_takes_what_both_parsers_give() -> None:
    names = ["date", *(o.name for o in DAY_OPTIONS if o.expose)]
    assert list(inspect.signature(run_day).parameters) == names
    assert list(DEFAULTS) == names
    # (the defaults: as click applies them, and as the plain parser does)
    assert plain_day(["day"]) == _click_params([]) == DEFAULTS


def _value(o: Opt) -> st.SearchStrategy[str]:
    if o.kind == "choice":
        return st.sampled_from([*o.choices, "nope", o.choices[0].upper()])
    if o.kind == "int":
        return st.sampled_from(["1", "300", "-2", "1_000", "1.5", "x"])
    if o.kind == "float":
        return st.sampled_from(["0", "2.5", " 1e1 ", "nan", "-1", "x"])
    return st.sampled_from(["x.db", "UTC", "Europe/Berlin", " ", "", "-5", "04:00", "25:00"])


@st.composite
def _calls(draw: st.DrawFn) -> list[str]:
    args: list[str] = []
    for o in draw(st.lists(st.sampled_from(DAY_OPTIONS), max_size=5)):
        if o.kind == "flag":
            args.append(o.flag)
        elif draw(st.booleans()):
            args.append(f"{o.flag}={draw(_value(o))}")
        else:
            args += [o.flag, draw(_value(o))]
    if draw(st.booleans()):
        args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from(["2026-03-10", "today"])))
    return args


@settings(max_examples=300, deadline=None)
@given(_calls())
def test_plain_day_agrees_with_click_on_any_call_from_the_table(args: list[str]) -> None:
    plain = plain_day(["day", *args])
    if plain is None:
        return  # left to click, which parses and reports it
    clicked = _click_params(args)
    assert clicked is not None
    assert repr(sorted(plain.items())) == repr(sorted(clicked.items()))  # (NaN ≠ NaN)


def test_plain_day_takes_every_value_option_of_the_table() -> None:
    sample = {"path": "x.db", "text": "UTC", "float": "2.5", "int": "300"}
    for o in DAY_OPTIONS:
        if not o.expose:
            continue
        value = o.choices[-1] if o.kind == "choice" else sample.get(o.kind)
        args = [o.flag] if value is None else [o.flag, value]
        assert plain_day(["day", *args]) == _click_params(args) is not None, o.flag
