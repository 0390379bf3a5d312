/**
 * "Verify a report": the short code printed on a report, or the PDF file itself dropped (or chosen) here.
 * The file never leaves the browser: its SHA-256 is computed with Web Crypto and only the hash is sent.
 */
import { lazy, Suspense, useState, type DragEvent, type FormEvent } from 'react';
import type { ReportVerification } from '../../../../shared/contract/reports';
import { errorMessage } from '../../../lib/errors';
import { useT, type Translate } from '../lib/public-i18n';
import { isNotFound, verifyByCode, verifyByHash, verifyById } from '../api';
import { certificateNamedIn } from '../lib/certificate-in-file';
import { sha256Hex } from '../lib/sha256';
import { Icon } from './plain';
import { TextInput } from './text-input';
import type { VerificationState } from './verification-card';

/** The answer is drawn with MUI: loaded when there is one (decision 0026). */
export const VerificationCard = lazy(() => import('./verification-card'));

/** Any 404 (unknown, malformed) reads "not known"; other failures are shown as what they are. */
export async function verify(call: () => Promise<ReportVerification>, t: Translate): Promise<VerificationState> {
  try {
    return { kind: 'known', report: await call() };
  } catch (err) {
    return isNotFound(err) ? { kind: 'unknown' } : { kind: 'error', message: errorMessage(t, err) };
  }
}

/**
 * A file: genuine when its hash is one issued. Otherwise, when the file names a certificate that exists, it
 * was changed after it was issued ("altered", with the genuine one); when it names none, it is not known.
 */
export async function verifyFile(bytes: ArrayBuffer, t: Translate): Promise<VerificationState> {
  const byHash = await verify(async () => verifyByHash(await sha256Hex(bytes)), t);
  if (byHash.kind !== 'unknown') return byHash;
  const named = await certificateNamedIn(bytes);
  if (!named) return { kind: 'unknown', file: true };
  const genuine = await verify(() => verifyById(named), t);
  return genuine.kind === 'known' ? { kind: 'altered', report: genuine.report } : { kind: 'unknown', file: true };
}

export function VerifyPanel() {
  const { t } = useT();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState(false);
  const [state, setState] = useState<VerificationState | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [fileName, setFileName] = useState<string | null>(null);

  async function run(answer: () => Promise<VerificationState>) {
    setBusy(true);
    setState(await answer());
    setBusy(false);
  }

  function byCode(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return setCodeError(true);
    setCodeError(false);
    setFileName(null);
    void run(() => verify(() => verifyByCode(code), t));
  }

  function byFile(file: File | undefined) {
    if (!file) return;
    setFileName(file.name);
    void run(async () => verifyFile(await file.arrayBuffer(), t));
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    byFile(e.dataTransfer.files[0]);
  }

  return (
    <section className="pp-stack" aria-labelledby="verify-heading">
      <div>
        <h2 id="verify-heading" className="pp-h6">
          {t('search.verify.title')}
        </h2>
        <p className="pp-body2 pp-secondary">{t('search.verify.intro')}</p>
      </div>
      <form className="pp-code-form" noValidate onSubmit={byCode} aria-label={t('search.verify.byCode')}>
        <TextInput
          id="report-code"
          label={t('search.verify.codeLabel')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={codeError}
          helperText={codeError ? t('validation.required') : t('search.verify.codeHint')}
          className="pp-grow"
          floatingLabel
        />
        <button type="submit" className="pp-button pp-button-outlined pp-code-button" disabled={busy}>
          {t('search.verify.check')}
        </button>
      </form>
      <label
        htmlFor="report-file"
        className={`pp-drop${dragging ? ' pp-dragging' : ''}`}
        onDragOver={(e: DragEvent) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="drop-zone"
      >
        <Icon name="uploadFile" className="pp-action" />
        <span className="pp-body1">{t('search.verify.drop')}</span>
        <span className="pp-body2 pp-secondary">{fileName ?? t('search.verify.dropHint')}</span>
        <input
          id="report-file"
          type="file"
          accept="application/pdf,.pdf"
          onChange={(e) => byFile(e.target.files?.[0])}
          className="pp-file"
        />
      </label>
      <p className="pp-body2">
        <a href="/verify" data-testid="offline-verifier-link">
          {t('search.verify.offline')}
        </a>
      </p>
      {state && (
        <Suspense fallback={null}>
          <VerificationCard state={state} />
        </Suspense>
      )}
    </section>
  );
}
