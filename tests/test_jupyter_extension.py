"""aloftnb.jupyter: the server extension that sets TCP_NODELAY on kernel websockets."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

import aloftnb.jupyter as extension


def fake_server(connection_class):
    return SimpleNamespace(web_app=SimpleNamespace(settings={
        "kernel_websocket_connection_class": connection_class}), log=logging.getLogger("test"))


def test_the_extension_is_found_by_its_module_name():
    assert extension._jupyter_server_extension_points() == [{"module": "aloftnb.jupyter"}]


def test_loading_swaps_the_stock_connection_for_the_no_delay_one():
    server = fake_server(ZMQChannelsWebsocketConnection)
    extension._load_jupyter_server_extension(server)
    assert server.web_app.settings["kernel_websocket_connection_class"] is (
        extension.NoDelayKernelWebsocketConnection)


def test_a_connection_class_someone_configured_is_left_alone():
    class Custom(ZMQChannelsWebsocketConnection):
        pass

    server = fake_server(Custom)
    extension._load_jupyter_server_extension(server)
    assert server.web_app.settings["kernel_websocket_connection_class"] is Custom


def test_connecting_sets_no_delay_on_the_websocket(monkeypatch):
    calls = []
    handler = SimpleNamespace(set_nodelay=calls.append)
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: "connected")
    connection = extension.NoDelayKernelWebsocketConnection.__new__(
        extension.NoDelayKernelWebsocketConnection)
    object.__setattr__(connection, "_trait_values", {"websocket_handler": handler})
    assert extension.NoDelayKernelWebsocketConnection.connect(connection) == "connected"
    assert calls == [True]


def test_enabling_writes_a_configuration_jupyter_server_reads(tmp_path):
    """`python -m aloftnb.jupyter` (binder/postBuild) turns the extension on for a prefix: the
    file it writes is one jupyter_server reads as enabling it, and the toggle commands can then
    turn it off and on (they refuse an extension no configuration lists)."""
    from jupyter_server.extension.config import ExtensionConfigManager

    from aloftnb.jupyter.__main__ import enable

    path = enable(tmp_path)
    assert path == tmp_path / "etc/jupyter/jupyter_server_config.d/aloftnb.json"
    manager = ExtensionConfigManager(read_config_path=[str(tmp_path / "etc/jupyter")])
    assert manager.get_jpserver_extensions() == {"aloftnb.jupyter": True}
    enable(tmp_path)  # running it twice leaves one setting
    assert manager.get_jpserver_extensions() == {"aloftnb.jupyter": True}
