/**
 * A moment (default now) on the merchant's clock, as a Date whose UTC fields are the merchant's
 * local date and time (`offsetMinutes` east of UTC): what ageOn, the record pages' date ranges and
 * their list times read.
 */
export function merchantClock(offsetMinutes: number, at = Date.now()): Date {
  return new Date(at + offsetMinutes * 60_000);
}
