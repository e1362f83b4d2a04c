"""`python -m aloftnb.jupyter`: turn the extension on for every Jupyter server of this environment.

It writes jupyter_server's configuration into the environment's prefix
(`<sys.prefix>/etc/jupyter/jupyter_server_config.d/aloftnb.json`). `jupyter server extension
enable --sys-prefix aloftnb.jupyter` cannot do it alone: jupyter_server 2 only toggles an
extension that some configuration file already lists, and refuses any other as "could not be
found". Once the file is there, `jupyter server extension disable --sys-prefix aloftnb.jupyter`
turns it off again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

CONFIG = Path("etc", "jupyter", "jupyter_server_config.d", "aloftnb.json")


def enable(prefix: str | Path = sys.prefix) -> Path:
    """Write the configuration that turns the extension on under `prefix`; return its path."""
    path = Path(prefix) / CONFIG
    path.parent.mkdir(parents=True, exist_ok=True)
    setting = {"ServerApp": {"jpserver_extensions": {"aloftnb.jupyter": True}}}
    path.write_text(json.dumps(setting, indent=2) + "\n")
    return path


if __name__ == "__main__":
    print(f"aloftnb.jupyter enabled for every server of {sys.prefix}: {enable()}")
