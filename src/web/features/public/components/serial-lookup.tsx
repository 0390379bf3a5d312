/**
 * Step 1: the serial field (one serial, or several pasted one a line or separated by commas) and the
 * Search button. Enter searches; Shift+Enter starts a new line. No form library: the shared serial grammar
 * is the whole validation, and the first bundle stays small (decisions 0006, 0026).
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessage } from '../../../lib/errors';
import { useT } from '../lib/public-i18n';
import { lookupAll, type LookupRow } from '../lib/lookup';
import { MAX_SERIALS, parseSerialList } from '../lib/serial-list';
import { Alert } from './plain';
import { TextInput } from './text-input';

/**
 * Step 1's form. It works before the page's JavaScript has arrived too: it is a real `GET /search` form
 * whose field is named `serial`, so pressing Enter or Search in the prerendered page loads
 * `/search?serial=…`, which (like a nameplate's QR code) `linked` fills in and looks up at once. Enter in
 * the textarea submits that form natively until React has taken the page over (public-app/native-enter.ts);
 * what is typed before is taken over when React starts.
 */
export function SerialLookup({ linked, onResult }: { linked: string | null; onResult: (rows: LookupRow[]) => void }) {
  const { t } = useT();
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const alert = useRef<HTMLDivElement>(null);

  // Typing that happened before hydration is in the field but not in the state yet.
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed) setText(typed);
  }, []);

  const lookedUpLink = useRef(false);
  useEffect(() => {
    if (!linked || lookedUpLink.current) return;
    lookedUpLink.current = true;
    setText(linked);
    void search(undefined, linked);
    // once per page: the link is looked up when it is first known
  }, [linked]);

  async function search(e?: FormEvent, value: string = text) {
    e?.preventDefault();
    if (busy) return;
    setFailure(null);
    const list = parseSerialList(value);
    if (list.serials.length + list.invalid.length === 0) return refuse('search.lookup.required');
    if (list.tooMany) return refuse('search.lookup.tooMany');
    setFieldError(null);
    setBusy(true);
    try {
      onResult(await lookupAll(list));
    } catch (err) {
      setFailure(errorMessage(t, err));
      requestAnimationFrame(() => alert.current?.focus());
    } finally {
      setBusy(false);
    }
  }

  function refuse(key: string) {
    setFieldError(key);
    input.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) void search(e);
  }

  return (
    <form
      className="pp-stack"
      action="/search"
      method="get"
      noValidate
      onSubmit={(e) => void search(e)}
      aria-label={t('search.lookup.title')}
    >
      {failure && (
        <Alert severity="error" role="alert" ref={alert} tabIndex={-1}>
          {failure}
        </Alert>
      )}
      <TextInput
        id="serial-input"
        name="serial"
        inputRef={input}
        label={t('search.lookup.serial')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        multiline
        maxRows={8}
        error={!!fieldError}
        helperText={fieldError ? t(fieldError, { max: MAX_SERIALS }) : t('search.lookup.hint', { max: MAX_SERIALS })}
      />
      <button type="submit" className="pp-button pp-button-contained pp-button-large" disabled={busy} aria-busy={busy}>
        {busy && <span className="pp-spinner" aria-hidden="true" />}
        {t('search.lookup.submit')}
      </button>
    </form>
  );
}
