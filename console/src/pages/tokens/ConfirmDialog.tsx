/**
 * A confirmation as a modal <dialog> (role dialog): focus moves into it on the safe choice,
 * Escape and Cancel close it without acting, and focus returns where it was.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ title, children, confirmLabel, busy, error, onConfirm, onCancel }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const element = dialog.current;
    element?.showModal();
    cancel.current?.focus();
    // Closed first: while the modal dialog is open the rest of the page is inert and refuses focus.
    return () => {
      element?.close();
      before?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      aria-labelledby="confirm-dialog-h"
      aria-describedby="confirm-dialog-body"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="confirm-dialog-h">{title}</h2>
      <div id="confirm-dialog-body">{children}</div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="toolbar">
        <button type="button" class="secondary" ref={cancel} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
