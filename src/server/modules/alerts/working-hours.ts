/**
 * A bench's working hours in its own time zone, and the working minutes between two instants: a bench
 * quiet over the weekend or the night is not silent, and Monday's first test is due only once Monday's
 * hours have run for the bench's gap.
 */
export interface WorkingHours {
  /** ISO weekdays, 1 = Monday … 7 = Sunday */
  days: readonly number[];
  /** 'HH:MM', local, start before end */
  start: string;
  end: string;
  timeZone: string;
}

const STEP_MS = 60_000;
const WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

/** The local weekday and minute of the day of an instant. */
// One formatter per time zone: building one costs far more than formatting, and a lookback reads the clock
// once per working minute it walks.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  return f;
}

export function localClock(at: Date, timeZone: string): { day: number; minute: number } {
  const parts = formatterOf(timeZone).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: WEEKDAY[get('weekday')] ?? 0, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

export function isWorking(at: Date, hours: WorkingHours): boolean {
  const { day, minute } = localClock(at, hours.timeZone);
  return hours.days.includes(day) && minute >= minutesOf(hours.start) && minute < minutesOf(hours.end);
}

/**
 * Working minutes from `from` to `to`, counted up to `cap` (the caller needs only to know whether the gap is
 * reached). Walks back from `to` minute by minute, skipping to the previous day's end outside the hours, so
 * a week's lookback costs a few thousand clock readings at most.
 */
export function workingMinutesBetween(from: Date, to: Date, hours: WorkingHours, cap: number): number {
  let counted = 0;
  let t = to.getTime() - STEP_MS;
  const start = minutesOf(hours.start);
  const end = minutesOf(hours.end);
  while (t >= from.getTime() && counted < cap) {
    const { day, minute } = localClock(new Date(t), hours.timeZone);
    if (hours.days.includes(day) && minute >= start && minute < end) {
      counted++;
      t -= STEP_MS;
    } else if (minute >= end) {
      // after the day's hours: jump back to the last working minute of this day
      t -= (minute - end + 1) * STEP_MS;
    } else {
      // before the hours or a day off: jump back to just before this local midnight
      t -= (minute + 1) * STEP_MS;
    }
  }
  return counted;
}
