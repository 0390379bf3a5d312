/**
 * A date typed and shown in the page's one date style ("24 Nov 2026", "2026年11月24日"), with a calendar
 * button that opens the browser's own picker. A native date input alone shows the browser's format
 * (mm/dd/yyyy in an American browser, whatever the page language): docs/decisions/0024-polish-dates-vocabulary-sorting.md.
 * The value in and out is `YYYY-MM-DD` ('' when empty); typing ISO dates works too.
 */
import CalendarMonthOutlined from '@mui/icons-material/CalendarMonthOutlined';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { forwardRef, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay, parseDay } from '../../../shared/format/dates';

export type DateFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type'> & {
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
};

const EXAMPLE_DAY = '2026-11-24';

export const DateField = forwardRef<HTMLInputElement, DateFieldProps>(function DateField(
  { value, onChange, min, max, onBlur, helperText, error, slotProps, ...rest },
  ref,
) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [draft, setDraft] = useState(() => (value ? formatDay(lang, value) : ''));
  const [invalid, setInvalid] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const focused = useRef(false);
  const [hasFocus, setHasFocus] = useState(false);

  // A value set from outside (a reset, the picker, the URL) or a language switch rewrites the text,
  // unless it is what the person is typing.
  useEffect(() => {
    if (focused.current && parseDay(draft) === value) return;
    setDraft(value ? formatDay(lang, value) : '');
    setInvalid(false);
  }, [value, lang]);

  const example = formatDay(lang, EXAMPLE_DAY);
  return (
    <>
      <TextField
        {...rest}
        inputRef={ref}
        type="text"
        value={draft}
        // The format's example only while typing: shown all the time it reads like a chosen date.
        placeholder={hasFocus ? example : undefined}
        error={error || invalid}
        helperText={invalid ? t('misc.date.invalid', { example }) : helperText}
        onFocus={() => {
          focused.current = true;
          setHasFocus(true);
        }}
        onChange={(e) => {
          const text = e.target.value;
          setDraft(text);
          const day = parseDay(text);
          if (text.trim() === '') onChange('');
          else if (day) onChange(day);
          if (invalid && (day || text.trim() === '')) setInvalid(false);
        }}
        onBlur={(e) => {
          focused.current = false;
          setHasFocus(false);
          const day = parseDay(draft);
          if (draft.trim() !== '' && !day) setInvalid(true);
          else setDraft(day ? formatDay(lang, day) : '');
          onBlur?.(e);
        }}
        slotProps={{
          ...slotProps,
          inputLabel: { shrink: true, ...(slotProps?.inputLabel as object) },
          htmlInput: { autoComplete: 'off', spellCheck: false, ...(slotProps?.htmlInput as object) },
          input: {
            endAdornment: (
              <InputAdornment position="end" sx={{ position: 'relative' }}>
                <IconButton
                  size="small"
                  edge="end"
                  aria-label={t('misc.date.openCalendar')}
                  onClick={() => {
                    const input = picker.current;
                    if (!input) return;
                    try {
                      input.showPicker();
                    } catch {
                      input.focus();
                    }
                  }}
                >
                  <CalendarMonthOutlined fontSize="small" />
                </IconButton>
                <input
                  ref={picker}
                  type="date"
                  tabIndex={-1}
                  aria-hidden
                  value={value}
                  min={min}
                  max={max}
                  onChange={(e) => onChange(e.target.value)}
                  style={{
                    position: 'absolute',
                    right: 0,
                    bottom: 0,
                    width: 1,
                    height: 1,
                    opacity: 0,
                    border: 0,
                    padding: 0,
                    pointerEvents: 'none',
                  }}
                />
              </InputAdornment>
            ),
          },
        }}
      />
    </>
  );
});
