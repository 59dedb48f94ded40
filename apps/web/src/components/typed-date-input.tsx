import type { FocusEvent } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { formatIsoDate, parseTypedDate, todayIsoDate } from '@clinicrelay/contracts/dates.ts';

/**
 * A typed date field checked where it is typed (end-user §5 "Dates"): its YYYY-MM-DD value, '' when
 * blank, and the text to show under the field when it is not a date or lies in the future.
 */
export function checkTypedDate(value: string, texts: { invalid: string; future: string }): { iso: string | null; error: string | null } {
  const iso = parseTypedDate(value);
  if (iso === null) return { iso: null, error: texts.invalid };
  if (iso !== '' && iso > todayIsoDate()) return { iso, error: texts.future };
  return { iso, error: null };
}

export interface TypedDateInputProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  /** The texts for a date that does not exist and one in the future. */
  texts: { invalid: string; future: string };
  /** Called when the field loses focus: the error to show, null when the date is fine. */
  onChecked: (error: string | null) => void;
}

/**
 * A date typed in any format of end-user §5 (MM/DD/YYYY, M/D/YY, YYYY-MM-DD, MMDDYYYY…), checked when the
 * field loses focus: a real date is rewritten MM/DD/YYYY, anything else is flagged there and then.
 */
export function TypedDateInput({ value, onChange, texts, onChecked, onBlur, ...props }: TypedDateInputProps) {
  const blur = (event: FocusEvent<HTMLInputElement>) => {
    onBlur?.(event);
    const { iso, error } = checkTypedDate(value, texts);
    if (iso) onChange(formatIsoDate(iso));
    onChecked(error);
  };
  return <TextInput placeholder="MM/DD/YYYY" inputMode="numeric" autoComplete="off" maxLength={10} {...props} value={value} onChange={(event) => onChange(event.currentTarget.value)} onBlur={blur} />;
}
