"""warpsim.Error, in its own module so the C++ extension can import it to raise it."""

from __future__ import annotations


class Error(ValueError):
    """Bad input to warpsim: a missing or malformed file, an unknown GPU, a value out of range.

    ``str(error)`` is the one-line message the CLI prints ("FILE:LINE:COL: message"); ``file``,
    ``line`` and ``column`` locate the mistake, each None when not known.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        # The C++ side says "unknown" with an empty file and zero line/column.
        self.file = file or None
        self.line = line or None
        self.column = column or None

    def __reduce__(self):  # keep the location when pickled (multiprocessing)
        return (type(self), (str(self), self.file, self.line, self.column))
