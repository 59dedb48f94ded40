// Typed dates (end-user §5): MM/DD/YYYY, MM/DD/YY, YYYY-MM-DD, M/D/YYYY, M/D/YY, MMDDYYYY, MMDDYY.
// Two-digit years above the current two-digit year are 19xx, otherwise 20xx; a two-digit year that
// still lands in the future (12/01/26 typed on 11/23/2026) is shifted back 100 years. Four-digit years
// are taken as typed, so 2099 is caught by the "equal or less than today" rule instead of guessed.

/** Today as YYYY-MM-DD in the local time zone. */
export function todayIsoDate(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * A typed date as YYYY-MM-DD; '' when the text is blank; null when it is not a date in one of the
 * accepted formats or does not exist (02/30/2001).
 */
export function parseTypedDate(value: string, today: string = todayIsoDate()): string | null {
  const text = value.trim();
  if (text === '') return '';
  let month: string, day: string, year: string;
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (match) [, year, month, day] = match as unknown as [string, string, string, string];
  else if ((match = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text))) [, month, day, year] = match as unknown as [string, string, string, string];
  else if ((match = /^(\d{2})(\d{2})(\d{2}|\d{4})$/.exec(text))) [, month, day, year] = match as unknown as [string, string, string, string];
  else return null;
  const twoDigitYear = year.length === 2;
  if (twoDigitYear) year = `${Number(year) > Number(today.slice(2, 4)) ? '19' : '20'}${year}`;
  let iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  if (!isRealDate(iso)) return null;
  if (twoDigitYear && iso > today) iso = `${Number(year) - 100}${iso.slice(4)}`;
  return isRealDate(iso) ? iso : null;
}

/** YYYY-MM-DD that names a day that exists (no 02/30, no 13th month). */
export function isRealDate(iso: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return false;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso;
}

/** YYYY-MM-DD → MM/DD/YYYY (the view format); anything else → ''. */
export function formatIsoDate(value: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? '');
  return match ? `${match[2]}/${match[3]}/${match[1]}` : '';
}
