"""The pydantic API shared by pydantic 1.10 (what Debian ships) and pydantic 2.

Generated models subclass BurrowModel and go through parse/dump, so the same generated code
runs on either major version.
"""
from __future__ import annotations

import json
from typing import Any, Type, TypeVar

import pydantic

PYDANTIC_V2 = pydantic.VERSION.startswith("2.")

M = TypeVar("M", bound="BurrowModel")


class BurrowModel(pydantic.BaseModel):
    """Fields are snake_case and aliased to the GraphQL names; either name populates them."""

    if PYDANTIC_V2:
        model_config = getattr(pydantic, "ConfigDict")(populate_by_name=True)
    else:

        class Config:
            allow_population_by_field_name = True


def parse(model: Type[M], data: Any) -> M:
    """Validates a GraphQL response (GraphQL names) into `model`."""
    if PYDANTIC_V2:
        return getattr(model, "model_validate")(data)  # type: ignore[no-any-return]
    return model.parse_obj(data)


def dump(value: BurrowModel) -> Any:
    """The JSON value of an input: GraphQL names, enums as their names, unset fields left out
    (so that an explicit None still sends null)."""
    if PYDANTIC_V2:
        return getattr(value, "model_dump")(mode="json", by_alias=True, exclude_unset=True)
    return json.loads(value.json(by_alias=True, exclude_unset=True))


def rebuild(*models: Type[BurrowModel]) -> None:
    """Resolves annotations that name models defined later in the module."""
    for model in models:
        if PYDANTIC_V2:
            getattr(model, "model_rebuild")()
        else:
            model.update_forward_refs()
