const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Formatters by locale and kind: making one loads locale data (milliseconds), and the list has a row per thread. */
const formatters = new Map<string, Intl.RelativeTimeFormat | Intl.DateTimeFormat>();
function formatter<T extends Intl.RelativeTimeFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let made = formatters.get(key) as T | undefined;
  if (!made) formatters.set(key, (made = make()));
  return made;
}

/**
 * When a thread last changed, as a person says it: "just now", "5 min ago", "3 hr ago", "yesterday", a weekday within
 * the week, else the date (with the year when it is not this year's).
 */
export function relativeTime(then: number, now: number, locale?: string): string {
  const ago = now - then;
  const relative = formatter(
    `relative ${locale}`,
    () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' }),
  );
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return relative.format(-Math.floor(ago / MINUTE), 'minute');
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  if (then >= start.getTime()) return relative.format(-Math.floor(ago / HOUR), 'hour');
  const days = Math.ceil((start.getTime() - then) / DAY);
  if (days === 1) return relative.format(-1, 'day');
  const date = new Date(then);
  if (days < 7)
    return formatter(`weekday ${locale}`, () => new Intl.DateTimeFormat(locale, { weekday: 'long' })).format(date);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return formatter(
    `date ${sameYear} ${locale}`,
    () => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) }),
  ).format(date);
}
