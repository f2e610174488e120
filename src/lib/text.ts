/** Length in Unicode code points: what PostgreSQL's char_length counts, so API and CHECK agree. */
export function charLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}
