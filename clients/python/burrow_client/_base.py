"""The models' machinery, standard library only: every generated model is a dataclass.

- Constructing a model with a keyword it does not have raises TypeError (dataclasses do), so a
  misspelt or wrong field fails loudly instead of being dropped.
- ``parse`` builds a result model from a response, by the GraphQL names kept in each field's
  metadata; a field the model does not know, a missing field, a null where the schema says
  non-null or a value of the wrong type raises ``ResponseShapeError``.
- ``dump`` turns an input model into its JSON value (GraphQL names, enums as their names); an
  optional field left ``UNSET`` is not sent, so ``None`` still sends an explicit null.
"""
from __future__ import annotations

import dataclasses
import enum
import sys
import typing
from typing import Any, Dict, List, Tuple, Type, TypeVar, Union

__all__ = ["UNSET", "BurrowModel", "ResponseShapeError", "dump", "parse", "wire"]


class _Unset:
    """The default of an optional input field the caller did not give: left out of the request."""

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


#: Typed Any so that ``field: Optional[str] = UNSET`` passes a type checker.
UNSET: Any = _Unset()


def wire(name: str) -> Dict[str, str]:
    """A field's metadata: its GraphQL name."""
    return {"graphql": name}


class BurrowModel:
    """The base of every generated model (each one a dataclass)."""


class ResponseShapeError(ValueError):
    """The server's answer does not have the shape the generated model expects (another schema)."""


M = TypeVar("M", bound=BurrowModel)

_hints: Dict[type, Dict[str, Any]] = {}


def _type_hints(model: type) -> Dict[str, Any]:
    hints = _hints.get(model)
    if hints is None:
        hints = typing.get_type_hints(model, vars(sys.modules[model.__module__]))
        _hints[model] = hints
    return hints


def _typenames(model: Any) -> Tuple[Any, ...]:
    hint = _type_hints(model).get("typename__")
    return typing.get_args(hint) if hint is not None else ()


def parse(model: Type[M], data: Any) -> M:
    """Builds `model` from a GraphQL response's ``data`` (GraphQL names)."""
    value: M = _convert(model, data, model.__name__)
    return value


def _convert(annotation: Any, value: Any, path: str) -> Any:
    if annotation is Any:
        return value
    origin = typing.get_origin(annotation)
    if origin is Union:
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if value is None:
            if len(members) < len(typing.get_args(annotation)):
                return None
            raise ResponseShapeError(f"{path}: null where the schema promises a value")
        if len(members) == 1:
            return _convert(members[0], value, path)
        typename = value.get("__typename") if isinstance(value, dict) else None
        for member in members:
            if typename in _typenames(member):
                return _convert(member, value, path)
        raise ResponseShapeError(f"{path}: __typename {typename!r} is none of {[m.__name__ for m in members]}")
    if value is None:
        raise ResponseShapeError(f"{path}: null where the schema promises a value")
    if origin in (list, List):
        if not isinstance(value, list):
            raise ResponseShapeError(f"{path}: expected a list, got {type(value).__name__}")
        (item,) = typing.get_args(annotation)
        return [_convert(item, v, f"{path}[{i}]") for i, v in enumerate(value)]
    if origin is typing.Literal:
        if value not in typing.get_args(annotation):
            raise ResponseShapeError(f"{path}: {value!r} is not one of {typing.get_args(annotation)}")
        return value
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        try:
            return annotation(value)
        except ValueError:
            raise ResponseShapeError(f"{path}: {value!r} is not a {annotation.__name__}") from None
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return _model(annotation, value, path)
    if annotation is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if annotation in (str, int, bool) and (type(value) is not annotation):
        raise ResponseShapeError(f"{path}: expected {annotation.__name__}, got {type(value).__name__}")
    return value


def _model(model: type, value: Any, path: str) -> Any:
    if not isinstance(value, dict):
        raise ResponseShapeError(f"{path}: expected an object, got {type(value).__name__}")
    fields = {f.metadata["graphql"]: f for f in dataclasses.fields(model)}
    unknown = sorted(set(value) - set(fields))
    if unknown:
        raise ResponseShapeError(f"{path}: unknown field(s) {', '.join(unknown)} for {model.__name__}")
    hints = _type_hints(model)
    arguments: Dict[str, Any] = {}
    for name, f in fields.items():
        if name in value:
            arguments[f.name] = _convert(hints[f.name], value[name], f"{path}.{name}")
        elif f.default is dataclasses.MISSING:
            raise ResponseShapeError(f"{path}: missing field {name} of {model.__name__}")
    return model(**arguments)


def dump(value: Any) -> Any:
    """The JSON value of an input: GraphQL names, enums as their names, UNSET fields left out."""
    if isinstance(value, BurrowModel) and dataclasses.is_dataclass(value):
        return {
            f.metadata["graphql"]: dump(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if getattr(value, f.name) is not UNSET
        }
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [dump(v) for v in value]
    if isinstance(value, dict):
        return {k: dump(v) for k, v in value.items() if v is not UNSET}
    return value
