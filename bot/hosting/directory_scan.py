"""``DirectoryScanner``: the host's businesses as ``bot.config.business_scan`` reads their files.

Each call scans ``[host] businesses_dir`` with the previous scan in hand (files that did not
change are not read or validated again) and hands ``HostRuntime`` the businesses that run. A
business refused now (its file broke, or it shares a secret with another) is reported once,
each problem a line naming the file and the key, and keeps running as it was if it ran. A
directory that cannot be listed is reported and changes nothing: a moment's absence (a mount
being remounted) is no removal of every business.
"""

from __future__ import annotations

import asyncio
import logging

from bot.config import ConfigError
from bot.config.business_scan import BusinessScan, diff_scans, scan_businesses
from bot.config.host_loading import Host
from bot.hosting.host_runtime import Scan
from bot.hosting.hosted_business import HostedBusiness

log = logging.getLogger(__name__)


class DirectoryScanner:
    """See the module docstring; call it for each scan."""

    def __init__(self, host: Host) -> None:
        self._host = host
        self._last: BusinessScan | None = None
        self._given = Scan({})

    async def __call__(self) -> Scan:
        try:
            scan = await asyncio.to_thread(scan_businesses, self._host, self._last)
        except ConfigError as exc:
            for problem in exc.problems:
                log.error("businesses not read again: %s", problem)
            return self._given
        newly_refused = (
            scan.refused.keys() if self._last is None else diff_scans(self._last, scan).refused
        )
        for name in sorted(newly_refused):
            for problem in scan.entries[name].problems:
                log.error("business %s refused: %s", name, problem)
        self._last = scan
        businesses = {
            name: HostedBusiness(name, config, entry.sha256)
            for name, entry in scan.entries.items()
            if (config := entry.config) is not None
        }
        self._given = Scan(businesses, frozenset(scan.refused))
        return self._given
