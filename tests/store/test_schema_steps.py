"""Every schema step is one module of ``bot.store.schema_steps``, and ``bot.store.schema.STEPS``
names each of them once, in the order of the numbers in their file names: 1 to N, no gaps.

A step's version is its place in ``STEPS``; the file name's number is what a maintainer reads,
so the two must agree, and a step file the list forgot would never be applied.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from pathlib import Path

from bot.store import schema_steps
from bot.store.schema import STEPS
from bot.store.schema_rendering import SchemaStep

STEP_FILE = re.compile(r"step_(\d{2,})_[a-z0-9_]+\.py")
STEPS_DIR = Path(schema_steps.__file__).parent


def step_files(folder: Path) -> list[str]:
    """The module files of a steps folder (``__init__.py`` aside), by name."""
    return sorted(path.name for path in folder.glob("*.py") if path.name != "__init__.py")


def listing_problems(files: Sequence[str], listed: Sequence[str | None]) -> list[str]:
    """What is wrong with the step ``files`` of a folder, given the file each entry of the list
    comes from, in the list's order (None: an entry from no step file)."""
    problems = [
        f"{name}: not named step_NN_<what>.py" for name in files if not STEP_FILE.match(name)
    ]
    problems += [f"{name}: not in the list" for name in files if name not in listed]
    for place, name in enumerate(listed, start=1):
        if name is None:
            problems.append(f"entry {place}: from no step file")
        elif listed.index(name) != place - 1:
            problems.append(f"{name}: listed again at {place}")
        elif (found := STEP_FILE.match(name)) and int(found[1]) != place:
            problems.append(f"{name}: listed at {place}")
    return problems


def test_the_list_names_every_step_file_once_in_the_order_of_their_numbers() -> None:
    files = step_files(STEPS_DIR)
    by_step: dict[int, str] = {}
    for name in files:
        module = importlib.import_module(f"bot.store.schema_steps.{name.removesuffix('.py')}")
        assert isinstance(module.STEP, SchemaStep), name
        by_step[id(module.STEP)] = name
    listed = [by_step.get(id(step)) for step in STEPS]

    assert listing_problems(files, listed) == []
    assert len(files) == len(STEPS) >= 18


def test_a_forgotten_file_a_gap_a_wrong_place_and_a_stray_entry_are_each_found() -> None:
    files = ["step_01_a.py", "step_02_b.py", "step_04_d.py", "step_05_e.py", "notes.py"]

    assert listing_problems(files, ["step_01_a.py", "step_02_b.py", "step_04_d.py", None]) == [
        "notes.py: not named step_NN_<what>.py",
        "step_05_e.py: not in the list",
        "notes.py: not in the list",
        "step_04_d.py: listed at 3",
        "entry 4: from no step file",
    ]
    assert listing_problems(["step_01_a.py", "step_02_b.py"], ["step_02_b.py", "step_01_a.py"]) == [
        "step_02_b.py: listed at 1",
        "step_01_a.py: listed at 2",
    ]
    assert listing_problems(["step_01_a.py"], ["step_01_a.py", "step_01_a.py"]) == [
        "step_01_a.py: listed again at 2"
    ]
    assert (
        listing_problems(["step_01_a.py", "step_02_b.py"], ["step_01_a.py", "step_02_b.py"]) == []
    )
