/** The checks of what a write stores: title, content, source references, ttl, revision and the supersede link. */
import { ValidationError } from '../../lib/errors.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { WORKING_LIMITS, type WorkingState } from './working-memory.sql.js';
import type { WorkingWriteInput } from './working-memory.types.js';

export function validateMaterial(input: WorkingWriteInput) {
  assertCleanText('title', input.title);
  assertCleanText('content', input.content);
  assertCleanText('id', input.id);
  assertCleanText('supersededById', input.supersededById);
  input.sourceRefs?.forEach((ref, index) => assertCleanText(`sourceRefs.${index}`, ref));
  const title = charLength(input.title);
  if (input.title.trim().length === 0) throw new ValidationError('title', 'title must not be empty', WORKING_LIMITS.title);
  if (title > WORKING_LIMITS.title) throw new ValidationError('title', `title is bounded to ${WORKING_LIMITS.title} characters (got ${title})`, WORKING_LIMITS.title);
  const content = charLength(input.content);
  if (content > WORKING_LIMITS.content) throw new ValidationError('content', `content is bounded to ${WORKING_LIMITS.content} characters (got ${content})`, WORKING_LIMITS.content);
  validateRefs(input.sourceRefs);
  if (input.ttlDays != null && (!Number.isInteger(input.ttlDays) || input.ttlDays < WORKING_LIMITS.ttlMin || input.ttlDays > WORKING_LIMITS.ttlMax)) {
    throw new ValidationError('ttlDays', `ttlDays must be a whole number from ${WORKING_LIMITS.ttlMin} to ${WORKING_LIMITS.ttlMax} (got ${input.ttlDays})`, WORKING_LIMITS.ttlMax);
  }
  if (input.state != null || input.supersededById != null) validateSupersedeLink(input.state ?? 'ACTIVE', input.supersededById);
}

function validateRefs(refs: string[] | null | undefined) {
  if (refs == null) return;
  if (refs.length > WORKING_LIMITS.sourceRefs) {
    throw new ValidationError('sourceRefs', `at most ${WORKING_LIMITS.sourceRefs} source references (got ${refs.length})`, WORKING_LIMITS.sourceRefs);
  }
  refs.forEach((ref, index) => {
    const length = charLength(ref);
    if (ref.trim().length === 0 || length > WORKING_LIMITS.sourceRef) {
      throw new ValidationError(`sourceRefs.${index}`, `each source reference is 1 to ${WORKING_LIMITS.sourceRef} characters`, WORKING_LIMITS.sourceRef);
    }
  });
}

export function validateSupersedeLink(state: WorkingState, supersededById: string | null | undefined) {
  if (state === 'SUPERSEDED' && !supersededById) {
    throw new ValidationError('supersededById', 'superseding a record needs the id of the record that supersedes it');
  }
  if (state !== 'SUPERSEDED' && supersededById) {
    throw new ValidationError('supersededById', 'supersededById is only valid with state SUPERSEDED');
  }
}

export function validateRevision(revision: number) {
  if (!Number.isInteger(revision) || revision < 1) throw new ValidationError('expectedRevision', 'expectedRevision must be a positive integer', 1);
}
