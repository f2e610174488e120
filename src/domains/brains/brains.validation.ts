/** The input checks of Brains memories, with their error texts. */
import { ValidationError } from '../../lib/errors.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { charLength } from '../../lib/text.js';
import { BRAIN_CONTENT_LIMIT, BRAIN_SOURCE_REF_LENGTH_LIMIT, BRAIN_SOURCE_REFS_LIMIT, BRAIN_TITLE_LIMIT } from './brains.sql.js';

export function validateTitle(title: string): string {
  assertCleanText('title', title, BRAIN_TITLE_LIMIT);
  const trimmed = title.trim();
  if (trimmed.length === 0) throw new ValidationError('title', 'title must not be empty', BRAIN_TITLE_LIMIT);
  const length = charLength(trimmed);
  if (length > BRAIN_TITLE_LIMIT) throw new ValidationError('title', `title is limited to ${BRAIN_TITLE_LIMIT} characters (got ${length})`, BRAIN_TITLE_LIMIT);
  return trimmed;
}

export function validateContent(content: string): string {
  assertCleanText('content', content, BRAIN_CONTENT_LIMIT);
  const length = charLength(content);
  if (length > BRAIN_CONTENT_LIMIT) {
    throw new ValidationError('content', `content is limited to ${BRAIN_CONTENT_LIMIT} characters (got ${length})`, BRAIN_CONTENT_LIMIT);
  }
  return content;
}

export function validateSourceRefs(refs: string[]): string[] {
  if (refs.length > BRAIN_SOURCE_REFS_LIMIT) {
    throw new ValidationError('sourceRefs', `at most ${BRAIN_SOURCE_REFS_LIMIT} source references (got ${refs.length})`, BRAIN_SOURCE_REFS_LIMIT);
  }
  return refs.map((ref, index) => {
    assertCleanText(`sourceRefs.${index}`, ref, BRAIN_SOURCE_REF_LENGTH_LIMIT);
    const trimmed = ref.trim();
    if (trimmed.length === 0) throw new ValidationError(`sourceRefs.${index}`, 'a source reference must not be empty', BRAIN_SOURCE_REF_LENGTH_LIMIT);
    if (charLength(trimmed) > BRAIN_SOURCE_REF_LENGTH_LIMIT) {
      throw new ValidationError(`sourceRefs.${index}`, `a source reference is limited to ${BRAIN_SOURCE_REF_LENGTH_LIMIT} characters`, BRAIN_SOURCE_REF_LENGTH_LIMIT);
    }
    return trimmed;
  });
}

export function validateRevision(revision: number) {
  if (!Number.isInteger(revision) || revision < 1) throw new ValidationError('expectedRevision', 'expectedRevision must be a positive integer', 1);
}
