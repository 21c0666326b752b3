import { channel } from 'node:diagnostics_channel';

/**
 * What the business counters of /metrics count (ops/metrics.ts). Each is published by the code that
 * made it happen, after its transaction committed: a payment booked (fulfil.ts), a release
 * (publication.ts), a refund recorded (refunds.ts), a mail handed to SMTP or a failed attempt
 * (mail/outbox.ts), a live article's page checked, with its result (`label`: pass, warning, fail;
 * modules/placements/publication.ts), log lines dropped because stdout fell too far behind
 * (ops/request-log.ts). These happen in requests and in background jobs alike, so they are told to the
 * process, not to one app; with no app counting (METRICS_TOKEN unset) publishing costs nothing.
 */
export type CountedEvent = 'payment' | 'release' | 'refund' | 'mail-sent' | 'mail-failed' | 'link-check' | 'log-dropped';

const counted = channel('byline:counted');

export function countEvent(event: CountedEvent, label?: string): void {
  if (counted.hasSubscribers) counted.publish({ event, label });
}

/** Calls `listener` for every counted event until the returned function is called. */
export function onCountedEvent(listener: (event: CountedEvent, label: string | undefined) => void): () => void {
  const subscriber = (message: unknown) => {
    const { event, label } = message as { event: CountedEvent; label?: string };
    listener(event, label);
  };
  counted.subscribe(subscriber);
  return () => {
    counted.unsubscribe(subscriber);
  };
}
