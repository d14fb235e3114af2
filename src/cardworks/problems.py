"""Problems found in input data, each with its file and precise location."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Problem:
    """One problem: where it is, a stable code, and what is wrong."""

    file: str
    location: str
    """A JSON pointer into the file (``/cards/3/stats/attack``), ``line:column``
    for a problem found before the JSON could be read, or empty for the whole file."""
    code: str
    message: str
    severity: Severity = "error"

    def text(self) -> str:
        """``file:location: [code] message`` (warnings say so)."""
        where = f"{self.file}:{self.location}" if self.location else self.file
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{where}: [{self.code}] {prefix}{self.message}"

    def as_dict(self) -> dict[str, str]:
        record = asdict(self)
        record["pointer"] = record.pop("location")
        return {key: record[key] for key in ("severity", "file", "pointer", "code", "message")}


@dataclass
class ProblemList:
    """Collects problems while checks run; nothing stops at the first one."""

    items: list[Problem] = field(default_factory=list)

    def error(self, file: str, location: str, code: str, message: str) -> None:
        self.items.append(Problem(file, location, code, message, "error"))

    def warning(self, file: str, location: str, code: str, message: str) -> None:
        self.items.append(Problem(file, location, code, message, "warning"))

    def extend(self, problems: list[Problem]) -> None:
        self.items.extend(problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "warning"]

    def __len__(self) -> int:
        return len(self.items)
