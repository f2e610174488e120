"""The PEP 517 build backend of burrow-client, standard library only.

pip builds a package in an isolated environment with the backend's requirements; setuptools would
have to come from a package index (and a virtual environment of Python 3.12 or later has none).
This backend needs nothing: it zips burrow_client/ into a pure-Python wheel with its metadata, so
`pip install --no-index ./clients/python` works offline with any python3 ≥ 3.9 that has pip.
"""
from __future__ import annotations

import base64
import hashlib
import io
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
PROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
NAME = re.search(r'^name = "([^"]+)"', PROJECT, re.M).group(1)  # type: ignore[union-attr]
VERSION = re.search(r'^version = "([^"]+)"', PROJECT, re.M).group(1)  # type: ignore[union-attr]
SUMMARY = re.search(r'^description = "([^"]+)"', PROJECT, re.M).group(1)  # type: ignore[union-attr]
DIST = NAME.replace("-", "_")
PACKAGE = "burrow_client"


def _metadata() -> bytes:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\nSummary: {SUMMARY}\nRequires-Python: >=3.9\nDescription-Content-Type: text/markdown\n\n"
    return (head + readme).encode()


def _package_files() -> List[Path]:
    return sorted(p for p in (ROOT / PACKAGE).rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    filename = f"{DIST}-{VERSION}-py3-none-any.whl"
    dist_info = f"{DIST}-{VERSION}.dist-info"
    records: List[str] = []
    with zipfile.ZipFile(Path(wheel_directory) / filename, "w", zipfile.ZIP_DEFLATED) as wheel:

        def add(name: str, data: bytes) -> None:
            wheel.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            records.append(f"{name},sha256={digest},{len(data)}")

        for path in _package_files():
            add(path.relative_to(ROOT).as_posix(), path.read_bytes())
        add(f"{dist_info}/METADATA", _metadata())
        add(f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: burrow_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        records.append(f"{dist_info}/RECORD,,")
        wheel.writestr(f"{dist_info}/RECORD", "\n".join(records) + "\n")
    return filename


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    base = f"{DIST}-{VERSION}"
    filename = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / filename, "w:gz") as sdist:
        files = [ROOT / "pyproject.toml", ROOT / "README.md", Path(__file__), *_package_files()]
        for path in files:
            sdist.add(path, arcname=f"{base}/{path.relative_to(ROOT).as_posix()}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata()
        info.size = len(data)
        sdist.addfile(info, io.BytesIO(data))
    return filename
