"""Every error the Partner API sandbox raises on purpose, as one tree.

::

    SandboxError                  anything the sandbox raises on purpose
    ├── ApiError                  a failure answered as the spec's error envelope
    │                             (error_envelope): the only thing that reaches the wire
    ├── ImageRejected             one package image failed a rule (images); becomes an ApiError
    ├── ScenarioError             a scenario file that cannot be used; also a ValueError
    │                             (scenario)
    └── ConnectionDropped         a ``drop`` fault; also an ``httpx.RemoteProtocolError``, so an
                                  in-process client sees the connection drop as it would (faults)
"""

from __future__ import annotations


class SandboxError(Exception):
    """Base of every error the Partner API sandbox raises on purpose."""
