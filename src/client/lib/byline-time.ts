/*
 * Byline's time on this page (issue 59): this device's clock moved by the test clock's offset,
 * which the server writes on the "Test mode" banner (`data-clock-offset-ms`) and the admin's
 * Test clock panel updates after a move. Outside test mode there is no banner: the device's clock.
 * The server's own judgement (a clock's state: late, at risk) always wins; this only words the time
 * left or over ("Due in 2 days", "3 days late").
 */
export function bylineNow(): Date {
  const banner = typeof document === 'undefined' ? null : document.querySelector<HTMLElement>('.test-mode-banner');
  const offset = Number(banner?.dataset.clockOffsetMs ?? 0);
  return new Date(Date.now() + (Number.isFinite(offset) ? offset : 0));
}
