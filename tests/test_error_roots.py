"""Every exception class of ``bot`` and ``conversations`` derives from its package's declared
root, no two share a name (nor the name of a library's exception the packages use, which would
force an alias), and each root's module docstring draws its tree.

The classes are read from the source with ``ast``; a base is followed through the module's
imports (and the packages' re-exports) to the class it names. A base from outside the packages
(``ValueError``, ``httpx.RemoteProtocolError``) is imported to see whether it is an exception.
A package is ``bot``'s top-level package or module (``bot.agents``, ``bot.settings``), or
``conversations``.
"""

from __future__ import annotations

import ast
import builtins
import importlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "conversations")

# One root per package; conversations keeps two until its own tree is drawn (its modules are
# rewritten in another change of the same issue).
ROOTS: dict[str, tuple[str, ...]] = {
    "bot.agents": ("bot.agents.agents_errors.AgentsError",),
    "bot.config": ("bot.config.config_errors.ConfigError",),
    "bot.console": ("bot.console.console_errors.ConsoleError",),
    "bot.demo": ("bot.demo.demo_errors.DemoError",),
    "bot.hosting": ("bot.hosting.hosting_errors.HostingError",),
    "bot.partner": ("bot.partner.errors.PartnerError",),
    "bot.relay": ("bot.relay.relay_errors.RelayError",),
    "bot.runtime": ("bot.runtime.startup_error.StartupError",),
    "bot.safety": ("bot.safety.safety_errors.SafetyError",),
    "bot.sandbox": ("bot.sandbox.sandbox_errors.SandboxError",),
    "bot.staff": ("bot.staff.staff_errors.StaffError",),
    "bot.store": ("bot.store.store_errors.StoreError",),
    "bot.telegram": ("bot.telegram.telegram_errors.TelegramAdapterError",),
    "bot.web": ("bot.web.web_errors.WebError",),
    "bot.webapp": ("bot.webapp.webapp_errors.WebAppError",),
    "bot.whatsapp": ("bot.whatsapp.whatsapp_errors.WhatsAppChannelError",),
    "bot.whatsapp_fake": ("bot.whatsapp_fake.fake_errors.WhatsAppFakeError",),
    "conversations": ("conversations.flow.FlowError", "conversations.services.ServiceUnavailable"),
}


@dataclass(frozen=True)
class ClassInfo:
    module: str
    name: str
    bases: tuple[str, ...]  # each base resolved to a dotted name, as far as the source says
    where: str  # path:line

    @property
    def qualname(self) -> str:
        return f"{self.module}.{self.name}"


@dataclass
class Source:
    """Every module of the packages under ``root``: its classes and the names it imports."""

    classes: dict[str, ClassInfo]  # qualname -> class
    names: dict[str, dict[str, str]]  # module -> local name -> dotted name it stands for
    docstrings: dict[str, str]  # module -> its docstring ("" when none)
    used: set[str]  # dotted names the modules import or reach as ``module.Name``

    def resolve(self, dotted: str, seen: frozenset[str] = frozenset()) -> str:
        """Follow re-exports until ``dotted`` names a class defined in the packages, or give
        it back unchanged (a name from outside)."""
        if dotted in self.classes or dotted in seen:
            return dotted
        module, _, name = dotted.rpartition(".")
        target = self.names.get(module, {}).get(name)
        if target is None:
            return dotted
        return self.resolve(target, seen | {dotted})

    def is_exception(self, dotted: str, seen: frozenset[str] = frozenset()) -> bool:
        found = self.classes.get(self.resolve(dotted))
        if found is None:
            return _outside_exception(dotted)
        if found.qualname in seen:
            return False
        return any(self.is_exception(base, seen | {found.qualname}) for base in found.bases)

    def outside_exceptions(self, named: set[str]) -> dict[str, str]:
        """The libraries' exception classes the modules use whose name is one of ``named``:
        their name -> dotted name (only those are imported, to keep the check quick). Python's
        own exceptions count as used everywhere."""
        packages = tuple(f"{package}." for package in PACKAGES)
        return {
            dotted.rpartition(".")[2]: dotted
            for dotted in sorted(self.used | {f"builtins.{name}" for name in named})
            if dotted.rpartition(".")[2] in named
            and not dotted.startswith(packages)
            and _outside_exception(dotted)
        }

    def exceptions(self) -> list[ClassInfo]:
        return [c for c in self.classes.values() if self.is_exception(c.qualname)]

    def ancestors(self, info: ClassInfo) -> set[str]:
        """The qualnames of the packages' classes ``info`` derives from, itself excluded."""
        found: set[str] = set()
        pending = [self.resolve(base) for base in info.bases]
        while pending:
            name = pending.pop()
            parent = self.classes.get(name)
            if parent is None or name in found:
                continue
            found.add(name)
            pending.extend(self.resolve(base) for base in parent.bases)
        return found


def _outside_exception(dotted: str) -> bool:
    module, _, name = dotted.rpartition(".")
    try:
        value = getattr(importlib.import_module(module or "builtins"), name)
    except (ImportError, AttributeError):
        return False
    return isinstance(value, type) and issubclass(value, BaseException)


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _local_names(tree: ast.Module, module: str) -> dict[str, str]:
    names = {name: f"builtins.{name}" for name in dir(builtins)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    names[head] = head
        elif isinstance(node, ast.ImportFrom) and node.module is not None and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = f"{module}.{node.name}"
    return names


def _dotted(expression: ast.expr, names: dict[str, str]) -> str:
    if isinstance(expression, ast.Name):
        return names.get(expression.id, expression.id)
    if isinstance(expression, ast.Attribute):
        return f"{_dotted(expression.value, names)}.{expression.attr}"
    return ast.unparse(expression)


def _used(tree: ast.Module, names: dict[str, str]) -> set[str]:
    used = {
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None and not node.level
        for alias in node.names
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Attribute):
            used.add(_dotted(node, names))
    return used


def read_source(root: Path, packages: tuple[str, ...] = PACKAGES) -> Source:
    source = Source(classes={}, names={}, docstrings={}, used=set())
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            module = _module_name(root, path)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = _local_names(tree, module)
            source.names[module] = names
            source.docstrings[module] = ast.get_docstring(tree) or ""
            source.used |= _used(tree, names)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    info = ClassInfo(
                        module=module,
                        name=node.name,
                        bases=tuple(_dotted(base, names) for base in node.bases),
                        where=f"{path.relative_to(root)}:{node.lineno}",
                    )
                    source.classes[info.qualname] = info
    return source


def package_of(module: str) -> str:
    """``bot.agents.headless`` -> ``bot.agents``; ``conversations.flows.errand`` ->
    ``conversations``."""
    parts = module.split(".")
    return parts[0] if parts[0] == "conversations" else ".".join(parts[:2])


def rootless(source: Source, roots: dict[str, tuple[str, ...]]) -> list[str]:
    """Each exception class that is neither a declared root of its package nor derived from
    one, as ``path:line: name``."""
    found = []
    for info in source.exceptions():
        declared = set(roots.get(package_of(info.module), ()))
        if info.qualname not in declared and not declared & source.ancestors(info):
            found.append(f"{info.where}: {info.name}")
    return sorted(found)


def shared_names(source: Source) -> dict[str, int]:
    counts = Counter(info.name for info in source.exceptions())
    return {name: count for name, count in counts.items() if count > 1}


def names_of_outside_exceptions(source: Source) -> dict[str, str]:
    """Each exception class named like a library's exception the modules use: its qualname ->
    that exception's dotted name."""
    ours = source.exceptions()
    outside = source.outside_exceptions({i.name for i in ours})
    return {i.qualname: outside[i.name] for i in ours if i.name in outside}


SOURCE = read_source(ROOT)


def test_every_exception_class_derives_from_its_packages_root() -> None:
    assert rootless(SOURCE, ROOTS) == []


def test_no_two_exception_classes_share_a_name() -> None:
    assert shared_names(SOURCE) == {}


def test_no_exception_class_is_named_like_a_librarys_exception_the_packages_use() -> None:
    assert names_of_outside_exceptions(SOURCE) == {}


def test_each_declared_root_is_an_exception_of_its_package_deriving_from_no_other() -> None:
    for package, roots in ROOTS.items():
        for root in roots:
            info = SOURCE.classes[root]
            assert package_of(info.module) == package, root
            assert SOURCE.is_exception(root), root
            assert not SOURCE.ancestors(info), f"{root} derives from {SOURCE.ancestors(info)}"


def test_each_roots_module_docstring_draws_every_class_of_its_tree() -> None:
    # bot's roots only: conversations' two are not drawn yet (see ROOTS).
    for package, roots in ROOTS.items():
        for root in roots if package.startswith("bot.") else ():
            module = SOURCE.classes[root].module
            drawn = SOURCE.docstrings[module]
            tree = [i.name for i in SOURCE.exceptions() if root in SOURCE.ancestors(i)]
            missing = [name for name in [SOURCE.classes[root].name, *tree] if name not in drawn]
            assert missing == [], f"{module}'s docstring does not draw {missing}"


def test_the_checks_find_rootless_classes_shared_names_and_library_names(
    tmp_path: Path,
) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/a/__init__.py": "from pkg.a.roots import AError as AError\n",
        "pkg/a/roots.py": "class AError(Exception):\n    pass\n",
        "pkg/a/one.py": (
            "import httpx\n"
            "from pkg.a import AError\n"
            "class Rooted(AError):\n    pass\n"
            "class Dropped(httpx.RemoteProtocolError, AError):\n    pass\n"
            "class Loose(ValueError):\n    pass\n"
            "class NotAnError:\n    pass\n"
        ),
        "pkg/b.py": "class Rooted(LookupError):\n    pass\n",
        "pkg/c.py": (
            "import pydantic\n"
            "from pkg.a import AError\n"
            "class ValidationError(AError):\n    pass\n"
            "class TimeoutError(AError):\n    pass\n"
            "def check(data: object) -> None:\n"
            "    try:\n        pydantic.TypeAdapter(int).validate_python(data)\n"
            "    except pydantic.ValidationError:\n        raise ValidationError() from None\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    source = read_source(tmp_path, ("pkg",))
    roots = {"pkg.a": ("pkg.a.roots.AError",)}
    assert rootless(source, roots) == [
        "pkg/a/one.py:7: Loose",
        "pkg/b.py:1: Rooted",
        "pkg/c.py:3: ValidationError",
        "pkg/c.py:5: TimeoutError",
    ]
    assert shared_names(source) == {"Rooted": 2}
    assert names_of_outside_exceptions(source) == {
        "pkg.c.ValidationError": "pydantic.ValidationError",
        "pkg.c.TimeoutError": "builtins.TimeoutError",
    }
    assert "pkg.a.one.NotAnError" not in {i.qualname for i in source.exceptions()}
