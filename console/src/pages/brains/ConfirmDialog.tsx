/**
 * A confirmation before a destructive action, as a dialog: focus moves to Cancel (the safe
 * choice), Escape cancels, and focus returns to the button that opened it when it closes.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';

export interface ConfirmDialogProps {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ title, body, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  // A layout effect: the focus is on Cancel before the next key press can reach anything else.
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    cancel.current?.focus();
    return () => opener?.isConnected && opener.focus();
  }, []);
  return (
    <div
      class="confirm"
      role="dialog"
      aria-labelledby="confirm-dialog-h"
      aria-describedby="confirm-dialog-body"
      onKeyDown={(e) => {
        if (e.key === 'Escape') (e.preventDefault(), onCancel());
      }}
    >
      <p id="confirm-dialog-h">
        <strong>{title}</strong>
      </p>
      <p id="confirm-dialog-body">{body}</p>
      <button type="button" class="danger" onClick={onConfirm}>
        {confirmLabel}
      </button>{' '}
      <button type="button" class="secondary" ref={cancel} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
