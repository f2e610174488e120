/**
 * A new token's secret, shown this once: the server keeps only its hash, so the console cannot
 * show it again. Copy puts it on the clipboard and says so ("Copied"); where the clipboard is not
 * allowed the secret is selected instead, for the operator to copy by hand.
 */
import { useRef, useState } from 'preact/hooks';

/** `idPrefix`: the first-run panel and the Tokens page can both show one on the same screen. */
export function SecretOnce({ idPrefix, secret, tokenName, onDone }: { idPrefix: string; secret: string; tokenName: string; onDone?: () => void }) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const field = useRef<HTMLInputElement>(null);
  const doCopy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy('copied');
    } catch {
      field.current?.select();
      setCopy('failed');
    }
  };
  return (
    <section class="secret-once" aria-labelledby={`${idPrefix}-secret-h`}>
      <h3 id={`${idPrefix}-secret-h`}>Secret of {tokenName}</h3>
      <p class="warning" role="alert">
        Copy it now: this secret will not be shown again. Only its hash is kept; if it is lost, revoke the token and create another.
      </p>
      <div class="row">
        <label for={`${idPrefix}-token-secret`}>Secret</label>
        <input id={`${idPrefix}-token-secret`} class="secret" readOnly value={secret} spellcheck={false} autocomplete="off" onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void doCopy()}>
          {copy === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p role="status" class="hint">
        {copy === 'copied' ? 'Copied to the clipboard.' : copy === 'failed' ? 'The clipboard is not available here: the secret is selected, copy it with Ctrl+C.' : ''}
      </p>
      {onDone && (
        <button type="button" class="secondary" onClick={onDone}>
          I have stored it
        </button>
      )}
    </section>
  );
}
