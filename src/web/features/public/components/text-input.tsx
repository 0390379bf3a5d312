/**
 * An outlined text field as plain elements (public.css draws MUI's outlined look): the label sits on the
 * field's top border, always, so no script is needed to move it out of the way of typing; helper text
 * and error are wired to the field for screen readers.
 */
import type { ChangeEventHandler, KeyboardEventHandler, Ref } from 'react';

export interface TextInputProps {
  id: string;
  label: string;
  name?: string;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement | HTMLTextAreaElement>;
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
}: TextInputProps) {
  const helperId = helperText ? `${id}-helper` : undefined;
  const common = {
    id,
    name,
    value,
    onChange,
    onKeyDown,
    ref: inputRef,
    className: 'pp-input',
    autoComplete: email ? 'email' : 'off',
    spellCheck: false,
    autoCapitalize: email ? 'none' : 'characters',
    inputMode: email ? ('email' as const) : undefined,
    'aria-describedby': helperId,
    'aria-invalid': error,
    // an empty placeholder: CSS tells an empty field by :placeholder-shown
    placeholder: floatingLabel ? ' ' : undefined,
  };
  return (
    <div
      className={`pp-field${floatingLabel ? ' pp-field-float' : ''}${error ? ' pp-field-error' : ''}${className ? ` ${className}` : ''}`}
    >
      {multiline ? (
        <textarea {...common} rows={1} style={maxRows ? { maxHeight: `${maxRows * 1.4375 + 2.1}em` } : undefined} />
      ) : (
        <input {...common} type={email ? 'email' : 'text'} />
      )}
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
