"""A stand-in for a pipe in tests: a binary stream that can be read but not rewound."""

import io


class Pipe(io.RawIOBase):
    """Like a pipe: readable, not seekable."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        return self._data.readinto(buffer)
