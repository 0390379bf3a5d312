/**
 * An outlined text field as plain elements (public.css draws MUI's outlined look): the label sits on the
 * field's top border, always, so no script is needed to move it out of the way of typing; helper text
 * and error are wired to the field for screen readers.
 */
import type { ChangeEventHandler, KeyboardEventHandler, ReactNode, Ref } from 'react';

export interface TextInputProps {
  id: string;
  label: string;
  name?: string;
  /** without `value` the field is uncontrolled: what was typed before the page was hydrated stays in it */
  value?: string;
  onChange?: ChangeEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  onKeyDown?: KeyboardEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  helperText?: string;
  error?: boolean;
  /** a textarea that grows with its lines (CSS field-sizing where the browser has it) up to `maxRows` */
  multiline?: boolean;
  maxRows?: number;
  inputRef?: Ref<HTMLInputElement & HTMLTextAreaElement>;
  className?: string;
  /** the label inside the empty field, moved onto its border when focused or filled (CSS only) */
  floatingLabel?: boolean;
  /** an address: the email keyboard, no capitals, the browser's address suggestions */
  email?: boolean;
  /** an account's user name (an address, typed as text: autocomplete=username must not be on type=email) */
  username?: boolean;
  /** a password field (autocomplete names which), with `end` for its show/hide button */
  password?: { autoComplete: 'current-password' | 'new-password'; revealed: boolean };
  /** drawn inside the field's end, as MUI's end adornment */
  end?: ReactNode;
  autoFocus?: boolean;
}

export function TextInput({
  id,
  label,
  name,
  value,
  onChange,
  onKeyDown,
  helperText,
  error = false,
  multiline,
  maxRows,
  inputRef,
  className,
  floatingLabel,
  email,
  username,
  password,
  end,
  autoFocus,
}: TextInputProps) {
  const address = email || username;
  const helperId = helperText ? `${id}-helper` : undefined;
  const common = {
    id,
    name,
    value,
    onChange,
    onKeyDown,
    ref: inputRef,
    className: 'pp-input',
    autoComplete: password?.autoComplete ?? (username ? 'username' : email ? 'email' : 'off'),
    autoFocus,
    spellCheck: false,
    autoCapitalize: address || password ? 'none' : 'characters',
    inputMode: address ? ('email' as const) : undefined,
    'aria-describedby': helperId,
    'aria-invalid': error,
    // an empty placeholder: CSS tells an empty field by :placeholder-shown
    placeholder: floatingLabel ? ' ' : undefined,
  };
  return (
    <div
      className={`pp-field${floatingLabel ? ' pp-field-float' : ''}${error ? ' pp-field-error' : ''}${end ? ' pp-field-end' : ''}${className ? ` ${className}` : ''}`}
    >
      {multiline ? (
        <textarea {...common} rows={1} style={maxRows ? { maxHeight: `${maxRows * 1.4375 + 2.1}em` } : undefined} />
      ) : (
        <input {...common} type={password ? (password.revealed ? 'text' : 'password') : email ? 'email' : 'text'} />
      )}
      {end && <div className="pp-field-adornment">{end}</div>}
      {/* after the field, so that CSS can place it by the field's state; `for` ties them for screen readers */}
      <label htmlFor={id} className="pp-label">
        {label}
      </label>
      {helperText && (
        <p id={helperId} className="pp-helper">
          {helperText}
        </p>
      )}
    </div>
  );
}
