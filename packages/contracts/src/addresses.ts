// Address display shared by the server (fax subjects) and the web.
// end-user §5: a fax number shows with dashes when it has 10 to 13 digits (503-555-0101, 1-503-555-0101);
// anything else is shown as stored.
export function formatFaxNumber(value: string | null | undefined): string {
  const text = value ?? '';
  const digits = text.replace(/\D/g, '');
  if (digits.length < 10 || digits.length > 13) return text;
  const local = digits.slice(-10);
  const groups = [digits.slice(0, -10), local.slice(0, 3), local.slice(3, 6), local.slice(6)].filter(Boolean);
  return groups.join('-');
}

// A fax number is written with digits and phone punctuation only; a Direct address (with @) is not one.
const FAX_LIKE = /^[\d\s().+-]+$/;

/** A message address for display: fax numbers by the fax rule above, Direct addresses as they are. */
export const displayAddress = (value: string | null | undefined): string => {
  const text = (value ?? '').trim();
  return FAX_LIKE.test(text) ? formatFaxNumber(text) : text;
};

// end-user §5 "Field rules": a telephone is 10 digits with an optional leading country digit 1, written with digits and
// phone punctuation only ("(503) 555-0143", "503-555-0143", "1 503 555 0143").
export function isTelephoneNumber(value: string): boolean {
  const text = value.trim();
  if (!FAX_LIKE.test(text)) return false;
  const digits = text.replace(/\D/g, '');
  return digits.length === 10 || (digits.length === 11 && digits.startsWith('1'));
}
