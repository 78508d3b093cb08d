// A date as the engagement details page must show it, written by the test on its own (Intl):
// shared by the integration suite (the page's data) and the e2e suite (the page on screen),
// so the two check the same thing. Imports nothing of VS Code: the e2e suite runs in Node.

/** An instant as a reader of `locale` expects it in the details: day, short month, year, time, in UTC. */
export function utcDateTime(locale: string, instant: string): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(Date.parse(instant));
}
