"""burrow-client: a typed async client for Burrow (queries and mutations over HTTP, subscriptions
over graphql-ws), generated from Burrow's schema.graphql and operation documents. Standard
library only."""
from ._archive import AgentArchiveImport as AgentArchiveImport
from ._base import UNSET as UNSET
from ._base import ResponseShapeError as ResponseShapeError
from ._websocket import ConnectionClosed as ConnectionClosed
from .errors import BurrowError as BurrowError
from .errors import RetryableError as RetryableError
from .errors import error_for as error_for
from .errors import raise_for_member as raise_for_member
from .generated.client import BurrowClient as BurrowClient
from .generated.enums import *  # noqa: F403
from .generated.errors import *  # noqa: F403
from .generated.inputs import *  # noqa: F403
from .generated.results import *  # noqa: F403
from .generated.schema_hash import SCHEMA_HASH as SCHEMA_HASH
from .transport import SCHEMA_HASH_HEADER as SCHEMA_HASH_HEADER
from .transport import BurrowTransport as BurrowTransport
from .transport import Operation as Operation
from .transport import SchemaMismatchWarning as SchemaMismatchWarning
