/**
 * Positions in the event log across agents. Per-agent sequences do not order events of
 * different agents, and a global counter would serialize every write; instead each event
 * records the id of the transaction that wrote it (tx_id, an xid8). Readers take only events
 * whose transaction is older than every transaction of this database still running, so no
 * event can later commit behind a position already handed out: (tx_id, agent_id, sequence)
 * is a total, commit-safe order and the cursor is that triple.
 */
import { bindingOf, decodeCursor, encodeCursor } from '../lib/cursor.js';
import { RequestError } from '../lib/errors.js';

export interface OperatorPosition {
  txId: string;
  agentId: string;
  sequence: number;
}

const BINDING = bindingOf('operatorEvents');
const XID8_MAX = 2n ** 64n - 1n;

export const encodeOperatorCursor = (event: { txId: string; agentId: string; sequence: number }) => encodeCursor(BINDING, [event.txId, event.agentId, event.sequence]);

export function decodeOperatorCursor(cursor: string | null | undefined): OperatorPosition | null {
  const position = decodeCursor(cursor, BINDING);
  if (!position) return null;
  const [txId, agentId, sequence] = position;
  // tx_id is an xid8 (unsigned 64 bits), sequence a bigint the server counts from 1.
  if (
    typeof txId !== 'string' ||
    !/^\d{1,20}$/.test(txId) ||
    BigInt(txId) > XID8_MAX ||
    typeof agentId !== 'string' ||
    !Number.isSafeInteger(sequence) ||
    (sequence as number) < 0
  ) {
    throw new RequestError('BAD_CURSOR', 'the cursor is malformed');
  }
  return { txId, agentId, sequence: sequence as number };
}
