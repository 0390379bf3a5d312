/**
 * "I have a delivery": delivery number and email address; when the address is one of the buyer's, the
 * server emails it a link to the delivery. The answer is the same whatever is found, so the page shows it
 * as it comes. The proof-of-work is the report request's (../lib/use-challenge), solved from the moment
 * the form is shown. Loaded when the visitor opens the form.
 */
import { useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/errors';
import { ApiError } from '../../../lib/api';
import { useT } from '../lib/public-i18n';
import { requestDeliveryLink } from '../api';
import { useChallenge } from '../lib/use-challenge';
import { Alert } from './plain';
import { TextInput } from './text-input';

type Field = 'deliveryNumber' | 'email';

export default function DeliveryRequest() {
  const { t, language } = useT();
  const challenge = useChallenge();
  const [values, setValues] = useState<Record<Field, string>>({ deliveryNumber: '', email: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [answer, setAnswer] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const status = useRef<HTMLDivElement>(null);

  const set = (field: Field) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setFailure(null);
    const missing: Partial<Record<Field, string>> = {};
    if (!values.deliveryNumber.trim()) missing.deliveryNumber = t('validation.required');
    if (!/^[^\s@]+@[^\s@]+$/.test(values.email.trim())) missing.email = t('validation.email');
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const solution = await challenge.take();
      if (!solution) {
        challenge.renew();
        return show(setFailure, t('search.request.challengeFailed'));
      }
      const result = await requestDeliveryLink({ ...values, language, challenge: solution });
      show(setAnswer, result.message);
    } catch (err) {
      challenge.renew();
      const fields = err instanceof ApiError ? err.fields.filter((f) => f.field === 'deliveryNumber' || f.field === 'email') : [];
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
      else show(setFailure, errorMessage(t, err));
    } finally {
      setBusy(false);
    }
  }

  function show(setter: (s: string) => void, text: string) {
    setter(text);
    requestAnimationFrame(() => status.current?.focus());
  }

  if (answer)
    return (
      <div ref={status} tabIndex={-1} role="status" className="pp-delivery-answer" data-testid="delivery-request-answer">
        <p className="pp-body1">{answer}</p>
        <button
          type="button"
          className="pp-button pp-button-text"
          onClick={() => {
            setAnswer(null);
            challenge.renew();
          }}
        >
          {t('search.delivery.request.again')}
        </button>
      </div>
    );

  return (
    <form className="pp-stack" noValidate onSubmit={(e) => void submit(e)} aria-labelledby="delivery-request-heading">
      {failure && (
        <Alert severity="error" role="alert" ref={status} tabIndex={-1}>
          {failure}
        </Alert>
      )}
      <TextInput
        id="delivery-number-input"
        name="deliveryNumber"
        label={t('search.delivery.request.number')}
        value={values.deliveryNumber}
        onChange={set('deliveryNumber')}
        error={!!errors.deliveryNumber}
        helperText={errors.deliveryNumber}
      />
      <TextInput
        id="delivery-email-input"
        name="email"
        label={t('search.delivery.request.email')}
        value={values.email}
        onChange={set('email')}
        email
        error={!!errors.email}
        helperText={errors.email ?? t('search.delivery.request.emailHint')}
      />
      <p className="pp-body2 pp-secondary" role="status" data-testid="delivery-challenge-state">
        {t(`search.request.challenge.${challenge.state}`)}
      </p>
      <button type="submit" className="pp-button pp-button-contained pp-button-large" disabled={busy} aria-busy={busy}>
        {busy && <span className="pp-spinner" aria-hidden="true" />}
        {t('search.delivery.request.submit')}
      </button>
    </form>
  );
}
