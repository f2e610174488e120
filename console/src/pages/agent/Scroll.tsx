/** A wide table's own horizontal scroll (narrow screens scroll the table, never the page): focusable and named, so the keyboard can scroll it too. */
import type { ComponentChildren } from 'preact';

export function Scroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
