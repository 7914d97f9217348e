/**
 * Whether an ISO 8601 date or date-time (`YYYY-MM-DD…`, already matched by a pattern) names a day
 * that exists: `Date.parse` takes `2027-02-30` for `2027-03-02` and `2027-04-31` for May 1st, so
 * a client's typo would silently move a filter, an imported timestamp or a key's expiry.
 *
 * @example
 * isCalendarDate("2028-02-29T10:00:00Z"); // true (a leap year)
 * isCalendarDate("2027-02-30T00:00:00Z"); // false
 */
export function isCalendarDate(text: string): boolean {
  if (Number.isNaN(Date.parse(text))) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}
