/** The input checks of agents and their profile documents, with their error texts. */
import { ValidationError } from '../../lib/errors.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { PROFILE_CONTENT_LIMIT } from './agents.sql.js';

const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function validateAgentId(id: string) {
  if (!AGENT_ID_PATTERN.test(id)) {
    throw new ValidationError('agentId', `agent id "${id}" is not 1 to 63 characters of a-z, 0-9, "_" or "-" starting with a letter or digit`, 63);
  }
}

export function validateContent(content: string, field = 'content') {
  assertCleanText(field, content, PROFILE_CONTENT_LIMIT);
  const length = charLength(content);
  if (length > PROFILE_CONTENT_LIMIT) {
    throw new ValidationError(field, `profile documents are bounded to ${PROFILE_CONTENT_LIMIT} characters (got ${length})`, PROFILE_CONTENT_LIMIT);
  }
}

export function validateRevision(revision: number) {
  if (!Number.isInteger(revision) || revision < 1) throw new ValidationError('expectedRevision', 'expectedRevision must be a positive integer', 1);
}
