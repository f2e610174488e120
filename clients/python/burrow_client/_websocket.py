"""A minimal WebSocket client (RFC 6455) on asyncio streams, standard library only: what the
graphql-ws subprotocol needs (text frames, fragmentation, ping/pong, close), so the client has no
third-party dependency."""
from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import ssl
import struct
from typing import Dict, Optional, Tuple
from urllib.parse import urlsplit

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _BINARY, _CONTINUATION, _CLOSE, _PING, _PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


class ConnectionClosed(Exception):
    """The socket ended: ``code`` is the close code the server sent (None when the connection
    broke without one)."""

    def __init__(self, code: Optional[int], reason: str = "") -> None:
        super().__init__(f"WebSocket closed ({code}{': ' + reason if reason else ''})")
        self.code = code
        self.reason = reason


class WebSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, max_size: int) -> None:
        self._reader = reader
        self._writer = writer
        self._max_size = max_size
        self._closed = False

    @classmethod
    async def connect(cls, url: str, *, subprotocol: str, timeout: float, max_size: int = 64 * 1024 * 1024) -> "WebSocket":
        parts = urlsplit(url)
        secure = parts.scheme == "wss"
        host = parts.hostname or "127.0.0.1"
        port = parts.port or (443 if secure else 80)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, ssl=ssl.create_default_context() if secure else None, limit=2**20), timeout
        )
        key = base64.b64encode(os.urandom(16)).decode()
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: {subprotocol}\r\n\r\n"
        )
        writer.write(request.encode())
        await writer.drain()
        status, headers = await asyncio.wait_for(_read_head(reader), timeout)
        expected = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
        if status != 101 or headers.get("sec-websocket-accept") != expected:
            writer.close()
            raise ConnectionClosed(None, f"the server refused the WebSocket upgrade (HTTP {status})")
        if headers.get("sec-websocket-protocol") != subprotocol:
            writer.close()
            raise ConnectionClosed(None, f"the server did not agree to the {subprotocol} subprotocol")
        return cls(reader, writer, max_size)

    async def send(self, text: str) -> None:
        await self._send_frame(_TEXT, text.encode())

    async def recv(self) -> str:
        """The next text message; answers pings; raises ConnectionClosed at the end."""
        message = bytearray()
        while True:
            try:
                head = await self._reader.readexactly(2)
                fin, opcode = head[0] & 0x80, head[0] & 0x0F
                length = head[1] & 0x7F
                if length == 126:
                    (length,) = struct.unpack("!H", await self._reader.readexactly(2))
                elif length == 127:
                    (length,) = struct.unpack("!Q", await self._reader.readexactly(8))
                if head[1] & 0x80:
                    raise ConnectionClosed(1002, "the server masked a frame")
                if len(message) + length > self._max_size:
                    raise ConnectionClosed(1009, "message too big")
                payload = await self._reader.readexactly(length)
            except (asyncio.IncompleteReadError, ConnectionError) as error:
                self._closed = True
                raise ConnectionClosed(None, f"the connection broke: {error}") from error
            if opcode == _CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                reason = payload[2:].decode(errors="replace")
                await self.close(code or 1000)
                raise ConnectionClosed(code, reason)
            if opcode == _PING:
                await self._send_frame(_PONG, payload)
                continue
            if opcode == _PONG:
                continue
            message += payload
            if fin:
                return message.decode()

    async def close(self, code: int = 1000) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self._send_frame(_CLOSE, struct.pack("!H", code))
        except (ConnectionError, RuntimeError):
            pass
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    async def _send_frame(self, opcode: int, payload: bytes) -> None:
        if self._closed and opcode != _CLOSE:
            raise ConnectionClosed(None, "the socket is closed")
        length = len(payload)
        if length < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 2**16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        mask = os.urandom(4)
        # A client masks every frame (RFC 6455 5.3): XOR with the key repeated, as one big integer.
        repeated = (mask * (length // 4 + 1))[:length]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big") if length else b""
        self._writer.write(head + mask + masked)
        await self._writer.drain()


async def _read_head(reader: asyncio.StreamReader) -> Tuple[int, Dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers: Dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return status, headers
