/** Length in Unicode code points: what PostgreSQL's char_length counts, so API and CHECK agree. */
export function charLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** Escapes LIKE/ILIKE wildcards so user text matches literally (the default escape is backslash). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
