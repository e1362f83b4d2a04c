"""Jupyter server side of aloftnb: faster clicks on boards.

Click to redraw on a board is a round trip over the kernel's websocket: a small message out, a
small state update back. jupyter_server leaves Nagle's algorithm on for that socket, so the
small replies wait for the browser's delayed ACK (about 33 ms of a 48 ms click here).
`NoDelayKernelWebsocketConnection` sets TCP_NODELAY on the socket when a kernel connects.

Turn it on for one server:
    jupyter lab --ServerApp.jpserver_extensions="{'aloftnb.jupyter': True}"
or for every server of this environment (__main__.py says why not `jupyter server extension
enable`, which only toggles an extension some configuration already lists):
    python -m aloftnb.jupyter
or, without the extension, by configuration alone:
    --ServerApp.kernel_websocket_connection_class=aloftnb.jupyter.NoDelayKernelWebsocketConnection
`make lab` and the Binder set-up (binder/postBuild) turn it on.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

SETTING = "kernel_websocket_connection_class"


class NoDelayKernelWebsocketConnection(ZMQChannelsWebsocketConnection):
    """The stock kernel websocket connection, with TCP_NODELAY on its socket."""

    def connect(self):
        self.websocket_handler.set_nodelay(True)
        return super().connect()


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "aloftnb.jupyter"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    settings = serverapp.web_app.settings
    current = settings.get(SETTING)
    if current is None or current is ZMQChannelsWebsocketConnection:
        settings[SETTING] = NoDelayKernelWebsocketConnection
        serverapp.log.info("aloftnb: TCP_NODELAY on kernel websockets (faster board clicks)")
    elif not (isinstance(current, type) and issubclass(current, NoDelayKernelWebsocketConnection)):
        # Someone configured their own connection class: leave it alone, say why.
        serverapp.log.warning("aloftnb: kernel_websocket_connection_class is %r, not the stock "
                              "one; TCP_NODELAY left off", current)
